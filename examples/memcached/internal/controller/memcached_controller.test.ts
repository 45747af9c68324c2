/*
Copyright 2026 The memcached Authors.

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
 * The Memcached controller against kubeforge's local cluster (on a virtual clock), with the CRDs that
 * `make manifests` wrote to config/crd/bases. The reconciler is called by hand, as kubebuilder's envtest
 * suite does; the manager runs no controller.
 */
import { fileURLToPath } from 'node:url';
import { BuiltinKinds, findStatusCondition, type ReconcileContext } from 'kubeforge/runtime';
import { startTestEnv, type TestEnv } from 'kubeforge/testing';
import { MemcachedKind, type Memcached } from '../../api/v1alpha1/memcached_types.js';
import { MemcachedReconciler, typeAvailableMemcached } from './memcached_controller.js';

const crdFolder = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));

describe('Memcached controller', () => {
  const memcachedName = 'test-memcached';
  const key = { namespace: memcachedName, name: memcachedName };
  let env: TestEnv;
  let context: ReconcileContext;

  beforeAll(async () => {
    env = await startTestEnv({ crdPaths: [crdFolder] });
    await env.startManager();
    context = { controller: 'memcached', reconcileID: 'test', log: env.manager.logger, clock: env.manager.clock };
  });

  afterAll(async () => {
    await env?.stop();
  });

  beforeEach(async () => {
    // Creating the Namespace to perform the tests
    await env.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: memcachedName } });
    // Setting the Image ENV VAR which stores the Operand image
    process.env.MEMCACHED_IMAGE = 'example.com/image:test';
    // Let's mock our custom resource at the same way that we would apply on the cluster the manifest under config/samples
    const memcached: Memcached = {
      apiVersion: 'cache.example.com/v1alpha1',
      kind: 'Memcached',
      metadata: { name: memcachedName, namespace: memcachedName },
      spec: { size: 1, containerPort: 11211 },
    };
    await env.client.create(memcached);
  });

  afterEach(() => {
    // TODO(user): Attention if you improve this code by adding other context test you MUST
    // be aware of the current delete namespace limitations.
    // More info: https://book.kubebuilder.io/reference/envtest.html#testing-considerations
    // Removing the Image ENV VAR which stores the Operand image
    delete process.env.MEMCACHED_IMAGE;
  });

  it('should successfully reconcile a custom resource for Memcached', async () => {
    // Checking if the custom resource was successfully created
    await env.client.get(MemcachedKind, key);

    // Reconciling the custom resource created
    const reconciler = new MemcachedReconciler(env.manager);
    await reconciler.reconcile(key, context);

    // Checking if Deployment was successfully created in the reconciliation
    const deployment = await env.client.get(BuiltinKinds.Deployment, key);
    expect(deployment.spec?.template.spec?.containers[0]?.image).toBe('example.com/image:test');

    // Reconciling the custom resource again
    await reconciler.reconcile(key, context);

    // Checking the latest Status Condition added to the Memcached instance
    const memcached = await env.client.get(MemcachedKind, key);
    const conditions = (memcached.status?.conditions ?? []).filter((c) => c.type === typeAvailableMemcached);
    expect(conditions).toHaveLength(1);
    expect(findStatusCondition(conditions, typeAvailableMemcached)).toMatchObject({ status: 'True', reason: 'Reconciling' });
  });
});
