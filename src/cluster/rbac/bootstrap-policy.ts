/**
 * The RBAC bootstrap policy every cluster starts with (§8.4), the whole 1.32 set: cluster-admin, the
 * aggregated admin/edit/view roles and the `system:aggregate-to-*` roles that feed them,
 * system:discovery, system:basic-user, system:public-info-viewer, the component roles
 * (bootstrap-system-roles.ts), the `system:controller:*` roles (bootstrap-controller-roles.ts), their
 * ClusterRoleBindings, and the Roles and RoleBindings of kube-system and kube-public (bootstrap-namespace-roles.ts) — each labelled kubernetes.io/bootstrapping=rbac-defaults and annotated
 * rbac.authorization.kubernetes.io/autoupdate=true (the aggregate-to-* rule lists are the data of
 * kubernetes' bootstrappolicy/policy.go, each rule's verbs and resources sorted as its RuleOrDie() sorts them).
 */
import type { KubeObject } from '../store/object-store.js';
import { type PolicyRule, rule as policyRule } from './policy-rules.js';
import { systemRoleRules } from './bootstrap-system-roles.js';
import { controllerRoleRules } from './bootstrap-controller-roles.js';
import { namespacedBindings, namespacedRoles } from './bootstrap-namespace-roles.js';

const rbac = 'rbac.authorization.k8s.io';
const bootstrapLabels = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const autoupdate = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };
const read = ['get', 'list', 'watch'];
const write = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const all = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export const aggregateLabel = (role: 'admin' | 'edit' | 'view'): string => `rbac.authorization.k8s.io/aggregate-to-${role}`;

const rule = (verbs: string[], apiGroups: string[], resources: string[]): PolicyRule => policyRule(verbs.join(' '), apiGroups, resources.join(' '));

function clusterRole(name: string, rules: PolicyRule[], extra: { labels?: Record<string, string>; aggregateFrom?: string } = {}): KubeObject {
  return {
    apiVersion: `${rbac}/v1`,
    kind: 'ClusterRole',
    metadata: { name, labels: { ...bootstrapLabels, ...extra.labels }, annotations: { ...autoupdate } },
    ...(extra.aggregateFrom ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [extra.aggregateFrom]: 'true' } }] } } : {}),
    rules,
  } as KubeObject;
}

type Subject = { kind: 'Group' | 'User'; name: string } | { kind: 'ServiceAccount'; name: string; namespace: string };

/** A bootstrap binding: ClusterRoleBinding to a ClusterRole, or (with a namespace) RoleBinding to a Role. */
function binding(name: string, subjects: Subject[], where: { namespace: string; role: string } | undefined = undefined): KubeObject {
  return {
    apiVersion: `${rbac}/v1`,
    kind: where ? 'RoleBinding' : 'ClusterRoleBinding',
    metadata: { name, ...(where ? { namespace: where.namespace } : {}), labels: { ...bootstrapLabels }, annotations: { ...autoupdate } },
    roleRef: { apiGroup: rbac, kind: where ? 'Role' : 'ClusterRole', name: where?.role ?? name },
    ...(subjects.length ? { subjects: subjects.map((s) => (s.kind === 'ServiceAccount' ? s : { apiGroup: rbac, ...s })) } : {}),
  } as KubeObject;
}
const clusterRoleBinding = (name: string, subjects: Subject[]): KubeObject => binding(name, subjects);

const groups = (...names: string[]): Subject[] => names.map((name) => ({ kind: 'Group', name }));
const user = (name: string): Subject[] => [{ kind: 'User', name }];
/** The prefix of every controller role and binding (saRolePrefix). */
export const controllerRolePrefix = 'system:controller:';

const healthPaths = ['/healthz', '/livez', '/readyz', '/version', '/version/'];
const discoveryPaths = ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'];

/** ClusterRoles in creation order (the aggregated ones start empty; aggregation fills them). */
export function bootstrapClusterRoles(): KubeObject[] {
  return [
    clusterRole('cluster-admin', [rule(['*'], ['*'], ['*']), { verbs: ['*'], nonResourceURLs: ['*'] }]),
    clusterRole('admin', [], { aggregateFrom: aggregateLabel('admin') }),
    clusterRole('edit', [], { aggregateFrom: aggregateLabel('edit'), labels: { [aggregateLabel('admin')]: 'true' } }),
    clusterRole('view', [], { aggregateFrom: aggregateLabel('view'), labels: { [aggregateLabel('edit')]: 'true' } }),
    clusterRole(
      'system:aggregate-to-admin',
      [rule(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']), rule(all, [rbac], ['rolebindings', 'roles'])],
      { labels: { [aggregateLabel('admin')]: 'true' } },
    ),
    clusterRole(
      'system:aggregate-to-edit',
      [
        // read on the escalating resources
        rule(read, [''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']),
        rule(['impersonate'], [''], ['serviceaccounts']),
        rule(write, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
        rule(['create'], [''], ['pods/eviction']),
        rule(write, [''], ['configmaps', 'persistentvolumeclaims', 'replicationcontrollers', 'replicationcontrollers/scale', 'secrets', 'serviceaccounts', 'services', 'services/proxy']),
        rule(['create'], [''], ['serviceaccounts/token']),
        rule(write, ['apps'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale']),
        rule(write, ['autoscaling'], ['horizontalpodautoscalers']),
        rule(write, ['batch'], ['cronjobs', 'jobs']),
        rule(write, ['extensions'], ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'ingresses', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicationcontrollers/scale']),
        rule(write, ['policy'], ['poddisruptionbudgets']),
        rule(write, ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
      ],
      { labels: { [aggregateLabel('edit')]: 'true' } },
    ),
    clusterRole(
      'system:aggregate-to-view',
      [
        rule(read, [''], ['configmaps', 'endpoints', 'persistentvolumeclaims', 'persistentvolumeclaims/status', 'pods', 'replicationcontrollers', 'replicationcontrollers/scale', 'serviceaccounts', 'services', 'services/status']),
        rule(read, [''], ['bindings', 'events', 'limitranges', 'namespaces/status', 'pods/log', 'pods/status', 'replicationcontrollers/status', 'resourcequotas', 'resourcequotas/status']),
        // read on namespaces at namespace scope: this namespace
        rule(read, [''], ['namespaces']),
        rule(read, ['discovery.k8s.io'], ['endpointslices']),
        rule(read, ['apps'], ['controllerrevisions', 'daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'replicasets', 'replicasets/scale', 'replicasets/status', 'statefulsets', 'statefulsets/scale', 'statefulsets/status']),
        rule(read, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
        rule(read, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
        rule(read, ['extensions'], ['daemonsets', 'daemonsets/status', 'deployments', 'deployments/scale', 'deployments/status', 'ingresses', 'ingresses/status', 'networkpolicies', 'replicasets', 'replicasets/scale', 'replicasets/status', 'replicationcontrollers/scale']),
        rule(read, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
        rule(read, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
      ],
      { labels: { [aggregateLabel('view')]: 'true' } },
    ),
    clusterRole('system:discovery', [{ verbs: ['get'], nonResourceURLs: discoveryPaths }]),
    clusterRole('system:basic-user', [
      rule(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
      rule(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
    ]),
    clusterRole('system:public-info-viewer', [{ verbs: ['get'], nonResourceURLs: healthPaths }]),
    ...Object.entries(systemRoleRules).map(([name, rules]) => clusterRole(name, rules)),
    ...Object.entries(controllerRoleRules).map(([name, rules]) => clusterRole(`${controllerRolePrefix}${name}`, rules)),
  ];
}

/** The 1.32 ClusterRoleBindings (ClusterRoleBindings() in policy.go, and one per controller role). */
export function bootstrapClusterRoleBindings(): KubeObject[] {
  return [
    clusterRoleBinding('cluster-admin', groups('system:masters')),
    clusterRoleBinding('system:monitoring', groups('system:monitoring')),
    clusterRoleBinding('system:discovery', groups('system:authenticated')),
    clusterRoleBinding('system:basic-user', groups('system:authenticated')),
    clusterRoleBinding('system:public-info-viewer', groups('system:authenticated', 'system:unauthenticated')),
    // system:node is bound to nobody since 1.8 (the Node authorizer grants kubelets their access)
    clusterRoleBinding('system:node', []),
    clusterRoleBinding('system:node-proxier', user('system:kube-proxy')),
    clusterRoleBinding('system:kube-controller-manager', user('system:kube-controller-manager')),
    clusterRoleBinding('system:kube-dns', [{ kind: 'ServiceAccount', name: 'kube-dns', namespace: 'kube-system' }]),
    clusterRoleBinding('system:kube-scheduler', user('system:kube-scheduler')),
    clusterRoleBinding('system:volume-scheduler', user('system:kube-scheduler')),
    clusterRoleBinding('system:service-account-issuer-discovery', groups('system:serviceaccounts')),
    ...Object.keys(controllerRoleRules).map((name) =>
      clusterRoleBinding(`${controllerRolePrefix}${name}`, [{ kind: 'ServiceAccount', name, namespace: 'kube-system' }]),
    ),
  ];
}

/** The bootstrap Roles of kube-system and kube-public. */
export function bootstrapRoles(): KubeObject[] {
  return namespacedRoles.map(({ namespace, name, rules }) => ({
    apiVersion: `${rbac}/v1`,
    kind: 'Role',
    metadata: { name, namespace, labels: { ...bootstrapLabels }, annotations: { ...autoupdate } },
    rules,
  }) as KubeObject);
}

/** The bootstrap RoleBindings of kube-system and kube-public. */
export function bootstrapRoleBindings(): KubeObject[] {
  return namespacedBindings.map(({ namespace, name, role, subjects }) => binding(name, subjects, { namespace, role }));
}

/**
 * Groups every identity (or every service account: system:service-account-issuer-discovery) has:
 * bindings to them are the baseline policy, not grants to one identity.
 */
export const everyoneGroups = new Set(['system:authenticated', 'system:unauthenticated', 'system:serviceaccounts']);
