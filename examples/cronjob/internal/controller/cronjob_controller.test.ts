/*
Copyright 2026 The project Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

/**
 * The CronJob controller against kubeforge's local cluster (on a virtual clock), with the CRDs that
 * `make manifests` wrote to config/crd/bases.
 */
/** The CronJob reconciler called directly: first pass, missing object, and the job-creation failure path. */
import { fileURLToPath } from 'node:url';
import { startTestEnv, type TestEnv } from 'kubeforge/testing';
import { CronJobKind, type CronJob } from '../../api/v1/cronjob_types.js';
import { CronJobReconciler, setupCronJobController } from './cronjob_controller.js';

const crdFolder = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));

describe('CronJob controller', () => {
  let env: TestEnv;
  const key = { namespace: 'default', name: 'test-resource' };

  beforeAll(async () => {
    env = await startTestEnv({ crdPaths: [crdFolder], now: '2024-01-15T10:00:30Z', cluster: { controllers: { job: false } } });
    setupCronJobController(env.manager);
    await env.startManager();
  });

  afterAll(async () => {
    await env?.stop();
  });

  const context = () => ({ controller: 'cronjob', reconcileID: 'test', log: env.manager.logger, clock: env.manager.clock });

  function cronJob(name: string): CronJob {
    return {
      apiVersion: 'batch.tutorial.kubebuilder.io/v1',
      kind: 'CronJob',
      metadata: { name, namespace: 'default' },
      spec: { schedule: '*/1 * * * *', jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'OnFailure' } } } } },
    };
  }

  it('reports the observed state and asks to be woken at the next scheduled time', async () => {
    await env.client.create(cronJob(key.name));
    await env.settle();

    const reconciler = new CronJobReconciler(env.manager);
    const result = await reconciler.reconcile(key, context());
    expect(result).toEqual({ requeueAfter: 30_000 });

    const stored = await env.manager.apiReader().get(CronJobKind, key);
    expect(stored.status?.conditions?.map((c) => [c.type, c.status, c.reason]).sort()).toEqual([
      ['Available', 'True', 'AllJobsCompleted'],
      ['Progressing', 'False', 'NoJobsActive'],
    ]);
  });

  it('ignores a CronJob that does not exist', async () => {
    const reconciler = new CronJobReconciler(env.manager);
    const result = await reconciler.reconcile({ ...key, name: 'missing' }, context());
    expect(result).toEqual({});
  });

  it('marks the CronJob Degraded/JobCreationFailed and retries when the Job name is taken', async () => {
    await env.client.create({ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'taken-1705312860', namespace: 'default' }, spec: cronJob('x').spec.jobTemplate.spec! });
    await env.client.create(cronJob('taken'));
    await env.settle();
    await env.stepTo('2024-01-15T10:01:00Z');
    const reconciler = new CronJobReconciler(env.manager);
    await expect(reconciler.reconcile({ namespace: 'default', name: 'taken' }, context())).rejects.toThrow('already exists');
    const stored = await env.manager.apiReader().get(CronJobKind, { namespace: 'default', name: 'taken' });
    expect(stored.status?.conditions?.find((c) => c.type === 'Degraded')).toMatchObject({
      status: 'True',
      reason: 'JobCreationFailed',
      message: 'Failed to create job: jobs.batch "taken-1705312860" already exists',
    });
  });
});
