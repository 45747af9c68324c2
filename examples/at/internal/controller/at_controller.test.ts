/*
Copyright 2026 The at Authors.

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
 * The AT controller against kubeforge's local cluster (on a virtual clock), with the CRDs that
 * `make manifests` wrote to config/crd/bases.
 */
import { fileURLToPath } from 'node:url';
import { startTestEnv, type TestEnv } from 'kubeforge/testing';
import { ATKind, type AT } from '../../api/v1/at_types.js';
import { ATReconciler } from './at_controller.js';

const crdFolder = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));

describe('AT controller', () => {
  let env: TestEnv;
  const key = { namespace: 'default', name: 'test-resource' };
  const context = () => ({ controller: 'at', reconcileID: 'test', log: env.manager.logger, clock: env.manager.clock });

  beforeAll(async () => {
    // The manager is not started: the reconciler is called by hand and reads straight from the server.
    env = await startTestEnv({ now: '2024-01-15T10:00:00Z', crdPaths: [crdFolder], authz: 'alwaysAllow', cluster: { controllers: { job: false } } });
  });

  afterAll(async () => {
    await env?.stop();
  });

  it('reports Pending and asks to be woken at the schedule instant', async () => {
    const resource: AT = {
      apiVersion: 'batch.my.domain/v1',
      kind: 'AT',
      metadata: { name: key.name, namespace: key.namespace },
      spec: { schedule: '2024-01-15T10:05:00Z', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } } },
    };
    await env.client.create(resource);

    const reconciler = new ATReconciler(env.manager);
    const result = await reconciler.reconcile(key, context());
    expect(result).toEqual({ requeueAfter: 5 * 60 * 1000 });

    const stored = await env.client.get(ATKind, key);
    expect(stored.status).toEqual({ status: 'Pending' });
  });

  it('ignores a AT that does not exist', async () => {
    const reconciler = new ATReconciler(env.manager);
    const result = await reconciler.reconcile({ ...key, name: 'missing' }, context());
    expect(result).toEqual({});
  });
});
