/*
Copyright 2026 The eventjob Authors.

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
 * The EventJob controller against kubeforge's local cluster (on a virtual clock), with the CRDs that
 * `make manifests` wrote to config/crd/bases.
 */
import { fileURLToPath } from 'node:url';
import type { Event as CoreEvent } from 'kubernetes-types/core/v1.js';
import { BuiltinKinds } from 'kubeforge/runtime';
import { startTestEnv, type TestEnv } from 'kubeforge/testing';
import { EventJobKind, type EventJob } from '../../api/v1/eventjob_types.js';
import { EventJobReconciler, setupEventJobController } from './eventjob_controller.js';

const crdFolder = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));

describe('EventJob controller', () => {
  let env: TestEnv;
  const key = { namespace: 'default', name: 'test-resource' };
  const context = () => ({ controller: 'eventjob', reconcileID: 'test', log: env.manager.logger, clock: env.manager.clock });

  beforeAll(async () => {
    env = await startTestEnv({ now: '2024-01-15T10:00:00Z', crdPaths: [crdFolder], authz: 'alwaysAllow', cluster: { controllers: { job: false, cronJob: false } } });
    setupEventJobController(env.manager);
    await env.startManager();
  });

  afterAll(async () => {
    await env?.stop();
  });

  it('answers an existing matching Event with one Job and moves the watermark to it', async () => {
    await env.client.create<CoreEvent>({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { namespace: 'default', name: 'hello.1' },
      involvedObject: { apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', namespace: 'default' },
      reason: 'SawCompletedJob',
      message: 'Saw completed job: hello-28421881, status: Complete',
      type: 'Normal',
      source: { component: 'cronjob-controller' },
      count: 1,
    });
    const resource: EventJob = {
      apiVersion: 'batch.kitagry.github.io/v1',
      kind: 'EventJob',
      metadata: { name: key.name, namespace: key.namespace },
      spec: { trigger: { apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', type: 'Complete' }, jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } } },
    };
    await env.client.create(resource);
    await env.settle();

    const reconciler = new EventJobReconciler(env.manager);
    expect(await reconciler.reconcile(key, context())).toEqual({});
    expect(await reconciler.reconcile(key, context())).toEqual({}); // the watermark stops a second Job

    const stored = await env.manager.apiReader().get(EventJobKind, key);
    expect(stored.status).toEqual({ last_scheduled_time: '2024-01-15T10:00:00Z' });
    const jobs = await env.manager.apiReader().list(BuiltinKinds.Job, { namespace: 'default' });
    expect(jobs.map((j) => j.metadata?.name)).toEqual([expect.stringMatching(/^test-resource-[a-z0-9]{5}$/)]);
  });

  it('ignores a EventJob that does not exist', async () => {
    const reconciler = new EventJobReconciler(env.manager);
    const result = await reconciler.reconcile({ ...key, name: 'missing' }, context());
    expect(result).toEqual({});
  });
});
