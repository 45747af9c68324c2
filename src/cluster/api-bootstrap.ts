/**
 * API objects kube-apiserver 1.32 creates at start besides namespaces and RBAC: the two system
 * PriorityClasses, and API Priority and Fairness' mandatory and suggested FlowSchemas and
 * PriorityLevelConfigurations (each FlowSchema's `Dangling` status as the APF controller reports it).
 */
import type { ObjectOperations } from './registry/object-operations.js';
import type { ResourceCatalog } from './registry/resource-catalog.js';

const flowcontrol = 'flowcontrol.apiserver.k8s.io';
const autoUpdate = { 'apf.kubernetes.io/autoupdate-spec': 'true' };

const queued = (shares: number, lendable: number, queues: number, handSize: number) => ({
  type: 'Limited',
  limited: { nominalConcurrencyShares: shares, lendablePercent: lendable, limitResponse: { type: 'Queue', queuing: { queues, handSize, queueLengthLimit: 50 } } },
});

const priorityLevels: Record<string, Record<string, unknown>> = {
  'exempt': { type: 'Exempt', exempt: { nominalConcurrencyShares: 0, lendablePercent: 0 } },
  'catch-all': { type: 'Limited', limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } } },
  'global-default': queued(20, 50, 128, 6),
  'leader-election': queued(10, 0, 16, 4),
  'node-high': queued(40, 25, 64, 6),
  'system': queued(30, 33, 64, 6),
  'workload-high': queued(40, 50, 128, 6),
  'workload-low': queued(100, 90, 128, 6),
};

const group = (name: string) => ({ kind: 'Group', group: { name } });
const user = (name: string) => ({ kind: 'User', user: { name } });
const serviceAccount = (namespace: string, name: string) => ({ kind: 'ServiceAccount', serviceAccount: { namespace, name } });
const everything = {
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
};
const leases = { resourceRules: [{ verbs: ['get', 'create', 'update'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] }] };

type Flow = [name: string, level: string, precedence: number, distinguisher: string | undefined, rules: Record<string, unknown>[]];

const flowSchemas: Flow[] = [
  ['exempt', 'exempt', 1, undefined, [{ subjects: [group('system:masters')], ...everything }]],
  ['probes', 'exempt', 2, undefined, [{ subjects: [group('system:unauthenticated'), group('system:authenticated')], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/readyz', '/livez'] }] }]],
  ['system-leader-election', 'leader-election', 100, 'ByUser', [{ subjects: [user('system:kube-controller-manager'), user('system:kube-scheduler'), serviceAccount('kube-system', '*')], ...leases }]],
  ['endpoint-controller', 'workload-high', 150, 'ByUser', [{ subjects: [user('system:kube-controller-manager'), serviceAccount('kube-system', 'endpoint-controller')], resourceRules: [{ verbs: ['get', 'create', 'update'], apiGroups: [''], resources: ['endpoints'], namespaces: ['*'] }] }]],
  ['workload-leader-election', 'leader-election', 200, 'ByUser', [{ subjects: [serviceAccount('*', '*')], ...leases }]],
  ['system-node-high', 'node-high', 400, 'ByUser', [{ subjects: [group('system:nodes')], resourceRules: [{ verbs: ['*'], apiGroups: [''], resources: ['nodes', 'nodes/status'], clusterScope: true }, { verbs: ['*'], apiGroups: ['coordination.k8s.io'], resources: ['leases'], namespaces: ['*'] }] }]],
  ['system-nodes', 'system', 500, 'ByUser', [{ subjects: [group('system:nodes')], ...everything }]],
  ['kube-controller-manager', 'workload-high', 800, 'ByNamespace', [{ subjects: [user('system:kube-controller-manager')], ...everything }]],
  ['kube-scheduler', 'workload-high', 800, 'ByNamespace', [{ subjects: [user('system:kube-scheduler')], ...everything }]],
  ['kube-system-service-accounts', 'workload-high', 900, 'ByNamespace', [{ subjects: [serviceAccount('kube-system', '*')], ...everything }]],
  ['service-accounts', 'workload-low', 9000, 'ByUser', [{ subjects: [group('system:serviceaccounts')], ...everything }]],
  ['global-default', 'global-default', 9900, 'ByUser', [{ subjects: [group('system:unauthenticated'), group('system:authenticated')], ...everything }]],
  ['catch-all', 'catch-all', 10000, 'ByUser', [{ subjects: [group('system:unauthenticated'), group('system:authenticated')], ...everything }]],
];

const priorityClasses: Array<[string, number, string]> = [
  ['system-cluster-critical', 2000000000, 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.'],
  ['system-node-critical', 2000001000, 'Used for system critical pods that must not be moved from their current node.'],
];

export function bootstrapApiObjects(catalog: ResourceCatalog, operations: ObjectOperations): void {
  const written = { fieldManager: 'kube-apiserver' };
  const pcs = catalog.find('scheduling.k8s.io', 'v1', 'priorityclasses');
  for (const [name, value, description] of pcs ? priorityClasses : []) {
    operations.create(pcs!, undefined, { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, description, preemptionPolicy: 'PreemptLowerPriority' }, written);
  }
  const levels = catalog.find(flowcontrol, 'v1', 'prioritylevelconfigurations');
  const schemas = catalog.find(flowcontrol, 'v1', 'flowschemas');
  if (!levels || !schemas) return;
  for (const [name, spec] of Object.entries(priorityLevels)) {
    operations.create(levels, undefined, { apiVersion: `${flowcontrol}/v1`, kind: 'PriorityLevelConfiguration', metadata: { name, annotations: autoUpdate }, spec }, written);
  }
  for (const [name, level, matchingPrecedence, distinguisher, rules] of flowSchemas) {
    const spec = { priorityLevelConfiguration: { name: level }, matchingPrecedence, ...(distinguisher ? { distinguisherMethod: { type: distinguisher } } : {}), rules };
    const created = operations.create(schemas, undefined, { apiVersion: `${flowcontrol}/v1`, kind: 'FlowSchema', metadata: { name, annotations: autoUpdate }, spec }, written).object;
    const dangling = { type: 'Dangling', status: 'False', lastTransitionTime: created.metadata.creationTimestamp, reason: 'Found', message: `This FlowSchema references the PriorityLevelConfiguration object named "${level}" and it exists` };
    operations.update(schemas, undefined, name, { ...created, status: { conditions: [dangling] } }, { ...written, subresource: 'status' });
  }
}
