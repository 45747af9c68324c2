/**
 * RBAC as on a real cluster, through real kubectl: the bootstrap policy (cluster-admin, the
 * aggregated admin/edit/view, system:discovery/basic-user/public-info-viewer), ClusterRole
 * aggregation that follows the selected roles, escalation prevention with the real Forbidden text
 * and its `escalate`/`bind` exceptions, and the least-privilege report.
 */
import { useClusterSuite } from './cluster-suite.js';
import type { Kubectl } from './kubectl-runner.js';

const suite = useClusterSuite();
const admin = suite.kubectl;
const as = (user: string, groups: string[] = []): Kubectl => suite.kubectlAs(user, groups);

beforeAll(async () => {
  await admin.ok(['create', 'namespace', 'team']);
});

// state the tests check, read in-process (no kubectl start: kubectl's own output is checked where it is the point)
const json = (args: string[]): Promise<any> => suite.getJson(args);

test('the bootstrap ClusterRoles and ClusterRoleBindings exist with their labels and aggregation rules', async () => {
  const names = (await admin.ok(['get', 'clusterroles', '-o', 'name'])).split('\n');
  for (const n of ['cluster-admin', 'admin', 'edit', 'view', 'system:aggregate-to-admin', 'system:aggregate-to-edit', 'system:aggregate-to-view', 'system:discovery', 'system:basic-user', 'system:public-info-viewer']) {
    expect(names).toContain(`clusterrole.rbac.authorization.k8s.io/${n}`);
  }
  const clusterAdmin = await json(['get', 'clusterrole', 'cluster-admin']);
  expect(clusterAdmin.rules).toEqual([{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], nonResourceURLs: ['*'] }]);
  expect(clusterAdmin.metadata.labels).toEqual({ 'kubernetes.io/bootstrapping': 'rbac-defaults' });
  const edit = await json(['get', 'clusterrole', 'edit']);
  expect(edit.aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } }] });
  expect(edit.metadata.labels['rbac.authorization.k8s.io/aggregate-to-admin']).toBe('true');
  // edit holds view's rules (view is labelled aggregate-to-edit) and its own; admin holds both
  const view = await json(['get', 'clusterrole', 'view']);
  expect(view.rules).toContainEqual({ verbs: ['get', 'list', 'watch'], apiGroups: ['batch'], resources: ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status'] });
  for (const r of view.rules) expect(edit.rules).toContainEqual(r);
  const adminRole = await json(['get', 'clusterrole', 'admin']);
  for (const r of edit.rules) expect(adminRole.rules).toContainEqual(r);
  expect(adminRole.rules).toContainEqual({ verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings', 'roles'] });

  const crbs = (await admin.ok(['get', 'clusterrolebindings', '-o', 'wide'])).split('\n');
  expect(crbs.find((l) => l.startsWith('cluster-admin '))).toMatch(/ClusterRole\/cluster-admin\s.*system:masters/);
  expect(crbs.find((l) => l.startsWith('system:public-info-viewer '))).toContain('system:authenticated, system:unauthenticated');
  expect(crbs.find((l) => l.startsWith('system:discovery '))).toContain('system:authenticated');
  expect(crbs.find((l) => l.startsWith('system:basic-user '))).toContain('system:authenticated');
});

test('a user with no bindings still has discovery and self-reviews through the bootstrap bindings, nothing else', async () => {
  const nobody = as('nobody');
  expect((await nobody.ok(['auth', 'can-i', '--list'])).split('\n').some((l) => l.startsWith('selfsubjectaccessreviews.authorization.k8s.io'))).toBe(true);
  expect(await nobody.ok(['api-resources', '--api-group=batch', '-o', 'name'])).toContain('jobs.batch');
  expect((await nobody.run(['get', 'pods', '-n', 'team'])).stderr).toContain('pods is forbidden: User "nobody" cannot list resource "pods" in API group "" in the namespace "team"');
});

test('view, edit and admin bound in a namespace grant what their aggregated rules say', async () => {
  await admin.ok(['create', 'rolebinding', 'viewer', '--clusterrole=view', '--user=vera', '-n', 'team']);
  await admin.ok(['create', 'rolebinding', 'editor', '--clusterrole=edit', '--user=ed', '-n', 'team']);
  const vera = as('vera');
  const ed = as('ed');
  expect((await vera.run(['auth', 'can-i', 'list', 'jobs.batch', '-n', 'team'])).stdout.trim()).toBe('yes');
  expect((await vera.run(['auth', 'can-i', 'create', 'configmaps', '-n', 'team'])).stdout.trim()).toBe('no');
  expect((await vera.run(['auth', 'can-i', 'list', 'jobs.batch', '-n', 'default'])).stdout.trim()).toBe('no');
  expect(await ed.ok(['create', 'configmap', 'c1', '-n', 'team', '--from-literal=a=1'])).toContain('configmap/c1 created');
  expect((await ed.run(['create', 'role', 'r', '--verb=get', '--resource=pods', '-n', 'team'])).stderr).toContain(
    'roles.rbac.authorization.k8s.io is forbidden: User "ed" cannot create resource "roles" in API group "rbac.authorization.k8s.io" in the namespace "team"',
  );
});

test('ClusterRole aggregation follows labelled roles as they are created, changed and deleted', async () => {
  const widgetReader = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'widgets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
    rules: [{ apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list', 'watch'] }],
  };
  await admin.ok(['apply', '-f', '-'], JSON.stringify(widgetReader));
  await suite.cluster.settle();
  const rule = { apiGroups: ['example.com'], resources: ['widgets'], verbs: ['get', 'list', 'watch'] };
  for (const role of ['view', 'edit', 'admin']) expect((await json(['get', 'clusterrole', role])).rules).toContainEqual(rule);
  const vera = as('vera-widgets');
  await admin.ok(['create', 'rolebinding', 'vera-widgets', '--clusterrole=view', '--user=vera-widgets', '-n', 'team']);
  // kubectl auth can-i cannot name a resource discovery does not list; ask with a SelfSubjectAccessReview
  const canList = async (namespace: string): Promise<boolean> => {
    const review = { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { namespace, verb: 'list', group: 'example.com', resource: 'widgets' } } };
    return JSON.parse(await vera.ok(['create', '-f', '-', '-o', 'json'], JSON.stringify(review))).status.allowed;
  };
  expect(await canList('team')).toBe(true);
  expect(await canList('default')).toBe(false);

  await admin.ok(['patch', 'clusterrole', 'widgets-view', '--type=json', '-p', '[{"op":"replace","path":"/rules/0/verbs","value":["get"]}]']);
  await suite.cluster.settle();
  const viewRules = (await json(['get', 'clusterrole', 'view'])).rules;
  expect(viewRules).toContainEqual({ ...rule, verbs: ['get'] });
  expect(viewRules).not.toContainEqual(rule);

  // a custom aggregated role of one's own
  await admin.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'widgets-all' },
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }, { matchExpressions: [{ key: 'none', operator: 'Exists' }] }] },
  }));
  await suite.cluster.settle();
  expect((await json(['get', 'clusterrole', 'widgets-all'])).rules).toEqual(viewRules);

  await admin.ok(['delete', 'clusterrole', 'widgets-view']);
  await suite.cluster.settle();
  for (const role of ['view', 'edit', 'admin', 'widgets-all']) {
    expect(JSON.stringify((await json(['get', 'clusterrole', role])).rules)).not.toContain('widgets');
  }
});

test('escalation prevention: a namespace admin can only grant what she holds, with the real Forbidden text', async () => {
  await admin.ok(['create', 'rolebinding', 'alice-admin', '--clusterrole=admin', '--user=alice', '-n', 'team']);
  const alice = as('alice', ['devs']);
  // within her rights
  expect(await alice.ok(['create', 'role', 'cm-reader', '--verb=get,list', '--resource=configmaps', '-n', 'team'])).toContain('role.rbac.authorization.k8s.io/cm-reader created');
  expect(await alice.ok(['create', 'rolebinding', 'bob-view', '--clusterrole=view', '--user=bob', '-n', 'team'])).toContain('created');
  // beyond them: a Role granting nodes, and a binding to cluster-admin
  const role = await alice.run(['create', 'role', 'node-reader', '--verb=get,list', '--resource=nodes', '-n', 'team']);
  expect(role.code).not.toBe(0);
  expect(role.stderr).toBe(
    'Error from server (Forbidden): roles.rbac.authorization.k8s.io "node-reader" is forbidden: user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
      '{APIGroups:[""], Resources:["nodes"], Verbs:["get" "list"]}\n',
  );
  const binding = await alice.run(['create', 'rolebinding', 'bob-root', '--clusterrole=cluster-admin', '--user=bob', '-n', 'team']);
  expect(binding.stderr).toContain('rolebindings.rbac.authorization.k8s.io "bob-root" is forbidden: user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}');
  // updates are checked too (JSON patch adding a verb she lacks on a resource she lacks)
  const patched = await alice.run(['patch', 'role', 'cm-reader', '-n', 'team', '--type=json', '-p', '[{"op":"add","path":"/rules/-","value":{"apiGroups":[""],"resources":["nodes"],"verbs":["delete"]}}]']);
  expect(patched.stderr).toContain('Error from server (Forbidden): roles.rbac.authorization.k8s.io "cm-reader" is forbidden: user "alice" (groups=["devs" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["nodes"], Verbs:["delete"]}');
  expect((await json(['get', 'role', 'cm-reader', '-n', 'team'])).rules).toHaveLength(1);

  // `bind` on exactly cluster-admin lets her bind it; `escalate` on roles lets her write any Role
  await admin.ok(['create', 'clusterrole', 'bind-root', '--verb=bind', '--resource=clusterroles', '--resource-name=cluster-admin']);
  await admin.ok(['create', 'clusterrole', 'escalate-roles', '--verb=escalate', '--resource=roles']);
  await admin.ok(['create', 'rolebinding', 'alice-bind', '--clusterrole=bind-root', '--user=alice', '-n', 'team']);
  await admin.ok(['create', 'rolebinding', 'alice-escalate', '--clusterrole=escalate-roles', '--user=alice', '-n', 'team']);
  expect(await alice.ok(['create', 'rolebinding', 'bob-root', '--clusterrole=cluster-admin', '--user=bob', '-n', 'team'])).toContain('created');
  expect(await alice.ok(['create', 'role', 'node-reader', '--verb=get,list', '--resource=nodes', '-n', 'team'])).toContain('created');
  // the admin (system:masters) is never checked
  expect(await admin.ok(['create', 'clusterrole', 'anything', '--verb=*', '--resource=*'])).toContain('created');
});

test('only cluster-admin-like writers may set an aggregationRule', async () => {
  await admin.ok(['create', 'clusterrole', 'role-writer', '--verb=create,get,update', '--resource=clusterroles']);
  await admin.ok(['create', 'clusterrolebinding', 'carol-role-writer', '--clusterrole=role-writer', '--user=carol']);
  const carol = as('carol');
  const r = await carol.run(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'carol-agg' },
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] },
  }));
  expect(r.stderr).toContain('clusterroles.rbac.authorization.k8s.io "carol-agg" is forbidden: must have cluster-admin privileges to use the aggregationRule');
});

test('the least-privilege report lists what an identity did, its unused granted rules, and its refusals', async () => {
  await admin.ok(['create', 'namespace', 'lp']);
  await admin.ok(['create', 'role', 'cm-rw', '--verb=get,list,create,delete', '--resource=configmaps', '-n', 'lp']);
  await admin.ok(['create', 'role', 'secret-names', '--verb=get', '--resource=secrets', '--resource-name=token', '-n', 'lp']);
  await admin.ok(['create', 'rolebinding', 'dave-cm', '--role=cm-rw', '--user=dave', '-n', 'lp']);
  await admin.ok(['create', 'rolebinding', 'dave-secret', '--role=secret-names', '--user=dave', '-n', 'lp']);
  const dave = as('dave');
  await dave.ok(['create', 'configmap', 'x', '-n', 'lp']);
  await dave.ok(['get', 'configmaps', '-n', 'lp']);
  await dave.ok(['get', 'configmap', 'x', '-n', 'lp']);
  expect((await dave.run(['get', 'pods', '-n', 'lp'])).code).not.toBe(0);
  expect((await dave.run(['delete', 'secret', 'other', '-n', 'lp'])).code).not.toBe(0);

  const report = suite.cluster.leastPrivilegeReport({ user: 'dave' });
  expect(report.user).toBe('dave');
  expect(report.used).toEqual(expect.arrayContaining(['create configmaps', 'list configmaps', 'get configmaps']));
  expect(report.used.filter((u) => u.includes('secrets') || u.includes('pods'))).toEqual([]);
  expect(report.denied).toEqual(['delete secrets', 'list pods']);
  // granted but never used: delete configmaps, and the named secret get; the baseline discovery and
  // self-review rules every identity holds are not reported as grants of this identity
  expect(report.unusedGrants).toEqual([
    { verbs: ['delete'], apiGroups: [''], resources: ['configmaps'] },
    { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['token'] },
  ]);
  // whole rules none of whose verbs was needed: the named-secret rule (the configmaps rule was used)
  expect(report.unusedRules.map((r) => r.resources)).toEqual([['secrets']]);
});
