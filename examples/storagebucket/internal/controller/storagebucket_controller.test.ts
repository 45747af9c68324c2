/*
Copyright 2026 The storagebucket Authors.

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
 * The StorageBucket controller against kubeforge's local cluster (on a virtual clock), with the CRDs that
 * `make manifests` wrote to config/crd/bases.
 */
import { fileURLToPath } from 'node:url';
import { minimalObject, startTestEnv, type TestEnv } from 'kubeforge/testing';
import { StorageBucketKind } from '../../api/v1alpha1/storagebucket_types.js';
import { StorageBucketReconciler, setupStorageBucketController } from './storagebucket_controller.js';

const crdFolder = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));

describe('StorageBucket controller', () => {
  let env: TestEnv;
  const key = { namespace: 'default', name: 'test-resource' };

  beforeAll(async () => {
    env = await startTestEnv({ crdPaths: [crdFolder] });
    setupStorageBucketController(env.manager);
    await env.startManager();
  });

  afterAll(async () => {
    await env?.stop();
  });

  it('creates a StorageBucket from its required fields, reads it back and reconciles it', async () => {
    // Every required field filled from the CRD (the minimum, the first enum value, the default…), so this
    // test keeps passing when you replace the placeholder spec with your own fields.
    // TODO(user): set the fields your reconciler needs, e.g. resource.spec.schedule = '*/1 * * * *'.
    const resource = minimalObject(StorageBucketKind, { crdPaths: [crdFolder], ...key });
    await env.client.create(resource);
    await env.settle();

    const stored = await env.client.get(StorageBucketKind, key);
    expect(stored.metadata?.uid).toBeTruthy();
    expect(stored.spec).toMatchObject(resource.spec);

    const reconciler = new StorageBucketReconciler(env.manager);
    const result = await reconciler.reconcile(key, { controller: 'storagebucket', reconcileID: 'test', log: env.manager.logger, clock: env.manager.clock });
    expect(result).toEqual({});
    // TODO(user): assert what your reconciler does (status conditions, owned objects, events).
  });

  it('ignores a StorageBucket that does not exist', async () => {
    const reconciler = new StorageBucketReconciler(env.manager);
    const context = { controller: 'storagebucket', reconcileID: 'test', log: env.manager.logger, clock: env.manager.clock };
    const result = await reconciler.reconcile({ ...key, name: 'missing' }, context);
    expect(result).toEqual({});
  });
});
