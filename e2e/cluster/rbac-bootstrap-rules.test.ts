/**
 * The aggregate-to-admin/edit/view rule lists as Kubernetes 1.32's bootstrap policy has them, checked
 * through real `kubectl auth can-i --as` for users bound to view, edit and admin in a namespace.
 */
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const admin = suite.kubectl;

beforeAll(async () => {
  await admin.ok(['create', 'namespace', 'team']);
  for (const role of ['view', 'edit', 'admin']) await admin.ok(['create', 'rolebinding', `${role}-binding`, `--clusterrole=${role}`, `--user=${role}-user`, '-n', 'team']);
  await suite.cluster.settle();
});

async function can(user: string, args: string[]): Promise<string> {
  const r = await admin.run(['auth', 'can-i', ...args, `--as=${user}`, '-n', 'team']);
  return r.stdout.trim();
}

test.each([
  // [user, can-i arguments, answer]
  ['view-user', ['get', 'pods'], 'yes'],
  ['view-user', ['get', 'pods', '--subresource=log'], 'yes'],
  ['view-user', ['list', 'events'], 'yes'],
  ['view-user', ['get', 'namespaces/team'], 'yes'],
  ['view-user', ['get', 'secrets'], 'no'], // secrets are escalating: not in view
  ['view-user', ['create', 'configmaps'], 'no'],
  ['view-user', ['watch', 'cronjobs.batch'], 'yes'],
  ['edit-user', ['get', 'secrets'], 'yes'], // edit reads the escalating resources
  ['edit-user', ['create', 'secrets'], 'yes'],
  ['edit-user', ['create', 'pods', '--subresource=eviction'], 'yes'],
  ['edit-user', ['create', 'serviceaccounts', '--subresource=token'], 'yes'],
  ['edit-user', ['impersonate', 'serviceaccounts'], 'yes'],
  ['edit-user', ['create', 'events'], 'no'], // events are only read
  ['edit-user', ['deletecollection', 'jobs.batch'], 'yes'],
  ['edit-user', ['patch', 'deployments.apps', '--subresource=scale'], 'yes'],
  ['edit-user', ['update', 'jobs.batch', '--subresource=status'], 'no'], // status is the system's
  ['edit-user', ['create', 'rolebindings.rbac.authorization.k8s.io'], 'no'],
  ['edit-user', ['create', 'localsubjectaccessreviews.authorization.k8s.io'], 'no'],
  ['admin-user', ['create', 'rolebindings.rbac.authorization.k8s.io'], 'yes'],
  ['admin-user', ['create', 'localsubjectaccessreviews.authorization.k8s.io'], 'yes'],
  ['admin-user', ['get', 'secrets'], 'yes'],
  ['admin-user', ['create', 'resourcequotas'], 'no'], // quota and limits control the namespace: not admin's
])('%s: can-i %j → %s', async (user, args, answer) => {
  expect(await can(user, args)).toBe(answer);
});

test('system:aggregate-to-edit carries the 1.32 rules for the resources the cluster serves', async () => {
  const rules = JSON.parse(await admin.ok(['get', 'clusterrole', 'system:aggregate-to-edit', '-o', 'json'])).rules;
  expect(rules).toContainEqual({ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy'] });
  expect(rules).toContainEqual({ verbs: ['create'], apiGroups: [''], resources: ['serviceaccounts/token'] });
  expect(rules).toContainEqual({ verbs: ['create', 'delete', 'deletecollection', 'patch', 'update'], apiGroups: ['batch'], resources: ['cronjobs', 'jobs'] });
  // no rule writes events or endpoints (edit lost endpoints in 1.22, CVE-2021-25740)
  for (const r of rules.filter((x: any) => x.apiGroups.includes(''))) {
    if (r.verbs.includes('create')) expect(r.resources).not.toEqual(expect.arrayContaining(['events']));
    expect(r.resources).not.toContain('endpoints');
  }
});
