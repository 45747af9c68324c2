/**
 * OwnerReferencesPermissionEnforcement, switched on by name (kube-apiserver's --enable-admission-plugins; off
 * by default there and in kind, on in OpenShift), through real kubectl: setting ownerReferences needs `delete`
 * on the object, newly blocking owner deletion needs `update` on the owner's `finalizers` subresource — with
 * 1.32's 403 texts — and the least-privilege report counts those checks as uses of the grants.
 */
import { useClusterSuite } from './cluster-suite.js';
import type { Kubectl } from './kubectl-runner.js';

const suite = useClusterSuite({ enabledAdmissionPlugins: ['OwnerReferencesPermissionEnforcement'] });
const admin = suite.kubectl;
let worker: Kubectl;

let ownerUid = '';

beforeAll(async () => {
  worker = suite.kubectlAs('worker');
  await admin.ok(['create', 'namespace', 'owned']);
  await admin.ok(['create', 'configmap', 'owner', '-n', 'owned']);
  ownerUid = (await admin.ok(['get', 'configmap', 'owner', '-n', 'owned', '-o', 'jsonpath={.metadata.uid}'])).trim();
  await admin.ok(['create', 'role', 'secret-maker', '--verb=create,get', '--resource=secrets', '-n', 'owned']);
  await admin.ok(['create', 'rolebinding', 'worker-secrets', '--role=secret-maker', '--user=worker', '-n', 'owned']);
});

const ownedSecret = (name: string, blockOwnerDeletion: boolean): string =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: 'owned', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: ownerUid, controller: true, blockOwnerDeletion }] },
  });

test('the plugin runs after Priority, as in kube-apiserver, only when enabled', () => {
  expect(suite.cluster.internals.operations.admission?.names()).toEqual([
    'LimitRanger', 'ServiceAccount', 'PodSecurity', 'Priority', 'OwnerReferencesPermissionEnforcement', 'ValidatingAdmissionPolicy', 'ResourceQuota',
  ]);
});

test('setting an ownerReference needs delete on the object: 403 with 1.32 text', async () => {
  const refused = await worker.run(['create', '-f', '-'], ownedSecret('no-delete', false));
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`Error from server (Forbidden): error when creating "STDIN": secrets "no-delete" is forbidden: cannot set an ownerRef on a resource you can't delete: , <nil>`);
  // a Secret without owner references needs no more than create
  await worker.ok(['create', 'secret', 'generic', 'plain', '-n', 'owned']);
});

test('blockOwnerDeletion needs update on the owner\'s finalizers; with it the write and the report agree', async () => {
  await admin.ok(['create', 'role', 'secret-deleter', '--verb=delete', '--resource=secrets', '-n', 'owned']);
  await admin.ok(['create', 'rolebinding', 'worker-deletes', '--role=secret-deleter', '--user=worker', '-n', 'owned']);
  // delete on the object is now granted: a non-blocking reference is accepted
  await worker.ok(['create', '-f', '-'], ownedSecret('not-blocking', false));
  const refused = await worker.run(['create', '-f', '-'], ownedSecret('blocking', true));
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`secrets "blocking" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can't set finalizers on: , <nil>`);

  await admin.ok(['create', 'role', 'owner-finalizers', '--verb=update', '--resource=configmaps/finalizers', '--resource-name=owner', '-n', 'owned']);
  await admin.ok(['create', 'rolebinding', 'worker-finalizers', '--role=owner-finalizers', '--user=worker', '-n', 'owned']);
  await worker.ok(['create', '-f', '-'], ownedSecret('blocking', true));

  // the checks made on the worker's behalf are uses of its grants: no rule of the three roles went unused
  const report = suite.cluster.leastPrivilegeReport({ user: 'worker' });
  expect(report.used).toEqual(expect.arrayContaining(['delete secrets', 'update configmaps/finalizers', 'create secrets']));
  expect(report.unusedRules).toEqual([]);
  expect(report.unusedGrants).toEqual([{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }]);
});

test('an owner of a kind the server does not serve cannot block deletion', async () => {
  const refused = await admin.run(['create', '-f', '-'], JSON.stringify({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'ghost-owned', namespace: 'owned', ownerReferences: [{ apiVersion: 'example.com/v1', kind: 'Ghost', name: 'g', uid: 'u-1', blockOwnerDeletion: true }] },
  }));
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('secrets "ghost-owned" is forbidden: cannot set blockOwnerDeletion in this case because cannot find RESTMapping for APIVersion example.com/v1 Kind Ghost: no matches for kind "Ghost" in version "example.com/v1"');
});
