/**
 * Owner handlers against the local cluster: a cluster-scoped owner (a ClusterRole) of ConfigMaps in two
 * namespaces is reconciled under one key with no namespace; a namespaced owner (a ServiceAccount) under
 * its own namespace.
 */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { startTestEnv, type TestEnv } from '../../testing/test-env.js';
import { BuiltinKinds } from '../client/kinds.js';
import type { KubeObject, Request } from '../client/object.js';
import { setControllerReference } from '../helpers/owner-references.js';

let env: TestEnv;
const clusterRoleRequests: Request[] = [];
const serviceAccountRequests: Request[] = [];

beforeAll(async () => {
  env = await startTestEnv({ now: '2024-01-15T10:00:00Z', authz: 'alwaysAllow' });
  env.manager
    .controllerFor(BuiltinKinds.ClusterRole)
    .owns(BuiltinKinds.ConfigMap)
    .complete(async (req: Request) => void clusterRoleRequests.push(req));
  env.manager
    .controllerFor(BuiltinKinds.ServiceAccount)
    .owns(BuiltinKinds.ConfigMap)
    .complete(async (req: Request) => void serviceAccountRequests.push(req));
  for (const name of ['team-a', 'team-b']) await env.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  await env.startManager();
});

afterAll(async () => {
  await env?.stop();
});

async function childOf(owner: KubeObject, namespace: string): Promise<void> {
  const child: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name: 'acme' }, data: { k: 'v' } };
  setControllerReference(owner, child);
  await env.client.create(child);
}

test('a cluster-scoped owner of children in team-a and team-b is queued as one key with no namespace', async () => {
  const owner = await env.client.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'acme' }, rules: [] } as KubeObject);
  await env.settle();
  clusterRoleRequests.length = 0;
  await childOf(owner, 'team-a');
  await childOf(owner, 'team-b');
  await env.settle();
  expect(clusterRoleRequests.length).toBeGreaterThan(0);
  expect(clusterRoleRequests.filter((r) => r.name === 'acme').every((r) => r.namespace === '')).toBe(true);
  expect(new Set(clusterRoleRequests.map((r) => `${r.namespace}/${r.name}`))).toEqual(new Set(['/acme']));
});

test("a namespaced owner's child is queued under the owner's namespace", async () => {
  const owner = await env.client.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { namespace: 'team-a', name: 'builder' } } as KubeObject);
  await env.settle();
  serviceAccountRequests.length = 0;
  const child: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'team-a', name: 'builder-config' } };
  setControllerReference(owner, child);
  await env.client.create(child);
  await env.settle();
  expect(serviceAccountRequests).toEqual([{ namespace: 'team-a', name: 'builder' }]);
});
