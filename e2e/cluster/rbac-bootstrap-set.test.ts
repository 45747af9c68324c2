/**
 * The whole 1.32 RBAC bootstrap policy, through real kubectl: the names of the ClusterRoles and
 * ClusterRoleBindings labelled kubernetes.io/bootstrapping=rbac-defaults, their autoupdate
 * annotation, a sample of rules compared whole, and what the bindings grant (`kubectl auth can-i`).
 */
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;

// Written down from kubernetes v1.32 plugin/pkg/auth/authorizer/rbac/bootstrappolicy (policy.go
// ClusterRoles(), controller_policy.go buildControllerRoles() with the default feature gates) — what
// `kubectl get clusterroles -l kubernetes.io/bootstrapping=rbac-defaults -o name` prints on kind 1.32.
const controllers = [
  'attachdetach-controller', 'certificate-controller', 'clusterrole-aggregation-controller', 'cronjob-controller',
  'daemon-set-controller', 'deployment-controller', 'disruption-controller', 'endpoint-controller',
  'endpointslice-controller', 'endpointslicemirroring-controller', 'ephemeral-volume-controller', 'expand-controller',
  'generic-garbage-collector', 'horizontal-pod-autoscaler', 'job-controller', 'legacy-service-account-token-cleaner',
  'namespace-controller', 'node-controller', 'persistent-volume-binder', 'pod-garbage-collector',
  'pv-protection-controller', 'pvc-protection-controller', 'replicaset-controller', 'replication-controller',
  'resourcequota-controller', 'root-ca-cert-publisher', 'route-controller', 'service-account-controller',
  'service-controller', 'statefulset-controller', 'ttl-after-finished-controller', 'ttl-controller',
  'validatingadmissionpolicy-status-controller',
];
const clusterRoles132 = [
  'admin', 'cluster-admin', 'edit',
  'system:aggregate-to-admin', 'system:aggregate-to-edit', 'system:aggregate-to-view', 'system:auth-delegator', 'system:basic-user',
  'system:certificates.k8s.io:certificatesigningrequests:nodeclient', 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient',
  'system:certificates.k8s.io:kube-apiserver-client-approver', 'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver',
  'system:certificates.k8s.io:kubelet-serving-approver', 'system:certificates.k8s.io:legacy-unknown-approver',
  ...controllers.map((c) => `system:controller:${c}`),
  'system:discovery', 'system:heapster', 'system:kube-aggregator', 'system:kube-controller-manager', 'system:kube-dns',
  'system:kube-scheduler', 'system:kubelet-api-admin', 'system:monitoring', 'system:node', 'system:node-bootstrapper',
  'system:node-problem-detector', 'system:node-proxier', 'system:persistent-volume-provisioner', 'system:public-info-viewer',
  'system:service-account-issuer-discovery', 'system:volume-scheduler', 'view',
];
const clusterRoleBindings132 = [
  'cluster-admin', 'system:basic-user', ...controllers.map((c) => `system:controller:${c}`), 'system:discovery',
  'system:kube-controller-manager', 'system:kube-dns', 'system:kube-scheduler', 'system:monitoring', 'system:node',
  'system:node-proxier', 'system:public-info-viewer', 'system:service-account-issuer-discovery', 'system:volume-scheduler',
];

const names = async (resource: string): Promise<string[]> =>
  (await kubectl.ok(['get', resource, '-l', 'kubernetes.io/bootstrapping=rbac-defaults', '-o', 'name'])).trim().split('\n').map((n) => n.slice(n.indexOf('/') + 1));

test('the labelled ClusterRoles and ClusterRoleBindings are exactly 1.32\'s', async () => {
  expect(await names('clusterroles')).toEqual(clusterRoles132);
  expect(await names('clusterrolebindings')).toEqual(clusterRoleBindings132);
});

test('every bootstrap object carries the autoupdate annotation', async () => {
  for (const resource of ['clusterroles', 'clusterrolebindings']) {
    const items = (await suite.getJson(['get', resource, '-l', 'kubernetes.io/bootstrapping=rbac-defaults'])).items;
    expect(items.length).toBeGreaterThan(40);
    expect(items.filter((i: any) => i.metadata.annotations?.['rbac.authorization.kubernetes.io/autoupdate'] !== 'true')).toEqual([]);
  }
});

const rulesOf = async (name: string): Promise<unknown> => (await suite.getJson(['get', 'clusterrole', name])).rules;
const events = { apiGroups: ['', 'events.k8s.io'], resources: ['events'], verbs: ['create', 'patch', 'update'] };

test.each([
  ['system:auth-delegator', [
    { apiGroups: ['authentication.k8s.io'], resources: ['tokenreviews'], verbs: ['create'] },
    { apiGroups: ['authorization.k8s.io'], resources: ['subjectaccessreviews'], verbs: ['create'] },
  ]],
  ['system:service-account-issuer-discovery', [{ nonResourceURLs: ['/.well-known/openid-configuration', '/openid/v1/jwks'], verbs: ['get'] }]],
  ['system:monitoring', [{ nonResourceURLs: ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'], verbs: ['get'] }]],
  ['system:heapster', [
    { apiGroups: [''], resources: ['events', 'namespaces', 'nodes', 'pods'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: ['extensions'], resources: ['deployments'], verbs: ['get', 'list', 'watch'] },
  ]],
  ['system:certificates.k8s.io:kubelet-serving-approver', [
    { apiGroups: ['certificates.k8s.io'], resourceNames: ['kubernetes.io/kubelet-serving'], resources: ['signers'], verbs: ['approve'] },
  ]],
  ['system:controller:deployment-controller', [
    { apiGroups: ['apps', 'extensions'], resources: ['deployments'], verbs: ['get', 'list', 'update', 'watch'] },
    { apiGroups: ['apps', 'extensions'], resources: ['deployments/status'], verbs: ['update'] },
    { apiGroups: ['apps', 'extensions'], resources: ['deployments/finalizers'], verbs: ['update'] },
    { apiGroups: ['apps', 'extensions'], resources: ['replicasets'], verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'update', 'watch'] },
    events,
  ]],
  ['system:controller:endpoint-controller', [
    { apiGroups: [''], resources: ['pods', 'services'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: [''], resources: ['endpoints'], verbs: ['create', 'delete', 'get', 'list', 'update', 'watch'] },
    { apiGroups: [''], resources: ['endpoints/restricted'], verbs: ['create'] },
    events,
  ]],
  ['system:controller:pvc-protection-controller', [
    { apiGroups: [''], resources: ['persistentvolumeclaims'], verbs: ['get', 'list', 'update', 'watch'] },
    { apiGroups: [''], resources: ['persistentvolumeclaims/status'], verbs: ['update'] },
    { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
    events,
  ]],
])('%s has the 1.32 rules', async (name, rules) => {
  expect(await rulesOf(name)).toEqual(rules);
});

test('the bindings grant what 1.32 grants', async () => {
  const binding = await suite.getJson(['get', 'clusterrolebinding', 'system:controller:statefulset-controller']);
  expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'statefulset-controller', namespace: 'kube-system' }]);
  expect((await suite.getJson(['get', 'clusterrolebinding', 'system:node'])).subjects).toBeUndefined();
  const can = async (as: string[], args: string[]): Promise<string> => (await kubectl.run(['auth', 'can-i', ...args, ...as])).stdout.trim();
  expect(await can(['--as=system:serviceaccount:kube-system:replicaset-controller'], ['create', 'pods', '-n', 'team'])).toBe('yes');
  expect(await can(['--as=system:serviceaccount:kube-system:replicaset-controller'], ['create', 'deployments.apps', '-n', 'team'])).toBe('no');
  expect(await can(['--as=system:serviceaccount:kube-system:job-controller'], ['update', 'jobs.batch', '--subresource=status', '-n', 'team'])).toBe('yes');
  expect(await can(['--as=system:serviceaccount:kube-system:job-controller'], ['update', 'cronjobs.batch', '--subresource=status', '-n', 'team'])).toBe('no');
  expect(await can(['--as=system:serviceaccount:kube-system:namespace-controller'], ['deletecollection', 'configmaps', '-n', 'team'])).toBe('yes');
  expect(await can(['--as=system:serviceaccount:team:builder'], ['get', '/openid/v1/jwks'])).toBe('yes');
  expect(await can(['--as=alice'], ['get', '/openid/v1/jwks'])).toBe('no');
  expect(await can(['--as=alice', '--as-group=system:monitoring'], ['get', '/metrics'])).toBe('yes');
  expect(await can(['--as=alice'], ['get', '/metrics'])).toBe('no');
  expect(await can(['--as=system:kube-scheduler'], ['create', 'pods', '--subresource=binding', '-n', 'team'])).toBe('yes');
  expect(await can(['--as=system:kube-scheduler'], ['create', 'pods'])).toBe('no');
});

test('kube-system and kube-public carry the 1.32 bootstrap Roles and RoleBindings', async () => {
  const listed = async (resource: string): Promise<string[]> =>
    (await kubectl.ok(['get', resource, '-A', '-l', 'kubernetes.io/bootstrapping=rbac-defaults', '-o', 'jsonpath={range .items[*]}{.metadata.namespace}/{.metadata.name}{"\\n"}{end}'])).trim().split('\n');
  expect(await listed('roles')).toEqual([
    'kube-public/system:controller:bootstrap-signer',
    'kube-system/extension-apiserver-authentication-reader',
    'kube-system/system::leader-locking-kube-controller-manager',
    'kube-system/system::leader-locking-kube-scheduler',
    'kube-system/system:controller:bootstrap-signer',
    'kube-system/system:controller:cloud-provider',
    'kube-system/system:controller:token-cleaner',
  ]);
  expect(await listed('rolebindings')).toEqual([
    'kube-public/system:controller:bootstrap-signer',
    'kube-system/system::extension-apiserver-authentication-reader',
    'kube-system/system::leader-locking-kube-controller-manager',
    'kube-system/system::leader-locking-kube-scheduler',
    'kube-system/system:controller:bootstrap-signer',
    'kube-system/system:controller:cloud-provider',
    'kube-system/system:controller:token-cleaner',
  ]);
  const reader = await suite.getJson(['get', 'role', 'extension-apiserver-authentication-reader', '-n', 'kube-system']);
  expect(reader.rules).toEqual([{ apiGroups: [''], resourceNames: ['extension-apiserver-authentication'], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }]);
  // an aggregated API server's identity is granted the reader role the way operators bind it
  await kubectl.ok(['create', 'rolebinding', 'my-apiserver-auth-reader', '-n', 'kube-system', '--role=extension-apiserver-authentication-reader', '--serviceaccount=apps:my-apiserver']);
  const can = (name: string) => kubectl.run(['auth', 'can-i', 'get', `configmaps/${name}`, '-n', 'kube-system', '--as=system:serviceaccount:apps:my-apiserver']);
  expect((await can('extension-apiserver-authentication')).stdout.trim()).toBe('yes');
  expect((await can('other')).stdout.trim()).toBe('no');
});

test('a service account\'s least-privilege report leaves the issuer-discovery baseline out', async () => {
  await kubectl.ok(['create', 'clusterrole', 'cm-reader', '--verb=get', '--resource=configmaps']);
  await kubectl.ok(['create', 'clusterrolebinding', 'robot-reads', '--clusterrole=cm-reader', '--serviceaccount=default:robot']);
  const robot = suite.kubectlAs('system:serviceaccount:default:robot', ['system:serviceaccounts', 'system:serviceaccounts:default']);
  await robot.ok(['get', '--raw', '/api/v1/namespaces/default/configmaps/kube-root-ca.crt']);
  const report = suite.cluster.leastPrivilegeReport({ user: 'system:serviceaccount:default:robot', groups: ['system:serviceaccounts', 'system:serviceaccounts:default'] });
  expect(report.used).toEqual(['get configmaps']);
  expect(report.unusedRules).toEqual([]);
});
