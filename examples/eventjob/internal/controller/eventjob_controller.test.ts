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
import { startTestEnv, type TestEnv } from 'kubeforge/testing';
import { EventJobKind, type EventJob } from '../../api/v1/eventjob_types.js';
import { EventJobReconciler, setupEventJobController } from './eventjob_controller.js';

const crdFolder = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));

describe('EventJob controller', () => {
  let env: TestEnv;
  const key = { namespace: 'default', name: 'test-resource' };

  beforeAll(async () => {
    env = await startTestEnv({ crdPaths: [crdFolder] });
    setupEventJobController(env.manager);
    await env.startManager();
  });

  afterAll(async () => {
    await env?.stop();
  });

  it('reconciles a new EventJob without error', async () => {
    const resource: EventJob = {
      apiVersion: 'batch.kitagry.github.io/v1',
      kind: 'EventJob',
      metadata: { name: key.name, namespace: key.namespace },
      spec: { foo: 'bar' },
    };
    await env.client.create(resource);
    await env.settle();

    const reconciler = new EventJobReconciler(env.manager);
    const result = await reconciler.reconcile(key, { controller: 'eventjob', reconcileID: 'test', log: env.manager.logger, clock: env.manager.clock });
    expect(result).toEqual({});

    const stored = await env.client.get(EventJobKind, key);
    expect(stored.spec.foo).toBe('bar');
    // TODO(user): assert what your reconciler does (status conditions, owned objects, events).
  });

  it('ignores a EventJob that does not exist', async () => {
    const reconciler = new EventJobReconciler(env.manager);
    const result = await reconciler.reconcile({ ...key, name: 'missing' }, { controller: 'eventjob', reconcileID: 'test', log: env.manager.logger, clock: env.manager.clock });
    expect(result).toEqual({});
  });
});
