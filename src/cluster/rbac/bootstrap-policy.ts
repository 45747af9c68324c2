/**
 * The RBAC bootstrap policy every cluster starts with (§8.4): cluster-admin, the aggregated
 * admin/edit/view roles and the `system:aggregate-to-*` roles that feed them, system:discovery,
 * system:basic-user, system:public-info-viewer, and their ClusterRoleBindings — shaped as 1.32's
 * (the aggregate-to-* rule lists are the data of kubernetes' bootstrappolicy/policy.go, each rule's
 * verbs and resources sorted as its RuleOrDie() sorts them).
 */
import type { KubeObject } from '../store/object-store.js';

const rbac = 'rbac.authorization.k8s.io';
const bootstrapLabels = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const autoupdate = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };
const read = ['get', 'list', 'watch'];
const write = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const all = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export const aggregateLabel = (role: 'admin' | 'edit' | 'view'): string => `rbac.authorization.k8s.io/aggregate-to-${role}`;

interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  nonResourceURLs?: string[];
}

const rule = (verbs: string[], apiGroups: string[], resources: string[]): PolicyRule => ({ verbs, apiGroups, resources });

function clusterRole(name: string, rules: PolicyRule[], extra: { labels?: Record<string, string>; aggregateFrom?: string } = {}): KubeObject {
  return {
    apiVersion: `${rbac}/v1`,
    kind: 'ClusterRole',
    metadata: { name, labels: { ...bootstrapLabels, ...extra.labels }, annotations: { ...autoupdate } },
    ...(extra.aggregateFrom ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [extra.aggregateFrom]: 'true' } }] } } : {}),
    rules,
  } as KubeObject;
}

function clusterRoleBinding(name: string, groups: string[]): KubeObject {
  return {
    apiVersion: `${rbac}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name, labels: { ...bootstrapLabels }, annotations: { ...autoupdate } },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name },
    subjects: groups.map((g) => ({ apiGroup: rbac, kind: 'Group', name: g })),
  } as KubeObject;
}

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
  ];
}

export function bootstrapClusterRoleBindings(): KubeObject[] {
  return [
    clusterRoleBinding('cluster-admin', ['system:masters']),
    clusterRoleBinding('system:discovery', ['system:authenticated']),
    clusterRoleBinding('system:basic-user', ['system:authenticated']),
    clusterRoleBinding('system:public-info-viewer', ['system:authenticated', 'system:unauthenticated']),
  ];
}

/** Groups every identity has: bindings to them are the baseline policy, not grants to one identity. */
export const everyoneGroups = new Set(['system:authenticated', 'system:unauthenticated']);
