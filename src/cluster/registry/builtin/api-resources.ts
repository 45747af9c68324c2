/**
 * Every resource a default Kubernetes 1.32 kube-apiserver serves (kind 1.32, no add-ons), as data: group,
 * versions (preferred first), kind, scope, short names, categories, verbs and subresources — what
 * `kubectl api-resources -o wide` and discovery show. Transcribed from the 1.32 REST storage of
 * pkg/registry/<group>/<resource>/storage (ShortNames, Categories, the strategies' subresources) and
 * checked against the x-kubernetes-group-version-kind of the 1.32 OpenAPI definitions
 * (src/cluster/schemas/builtin-definitions.generated.ts, api-resources.test.ts). Specific kinds and the
 * generic fallback (generic-kinds.ts) are composed against this table (compose-builtin-kinds.ts).
 */

export interface ApiResourceRow {
  group: string;
  /** Served versions, the preferred (and storage) version first. */
  versions: string[];
  resource: string;
  kind: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  /** Subresources as discovery lists them (status, scale, log, eviction, …). */
  subresources: string[];
}

const all = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const createOnly = ['create'];

type Row = [group: string, versions: string, resource: string, kind: string, namespaced: boolean, shortNames?: string, categories?: string, subresources?: string, verbs?: string[]];

/** group | versions | resource | kind | namespaced | short names | categories | subresources | verbs (default: all eight). */
const rows: Row[] = [
  ['', 'v1', 'bindings', 'Binding', true, '', '', '', createOnly],
  ['', 'v1', 'componentstatuses', 'ComponentStatus', false, 'cs', '', '', ['get', 'list']],
  ['', 'v1', 'configmaps', 'ConfigMap', true, 'cm'],
  ['', 'v1', 'endpoints', 'Endpoints', true, 'ep'],
  ['', 'v1', 'events', 'Event', true, 'ev'],
  ['', 'v1', 'limitranges', 'LimitRange', true, 'limits'],
  ['', 'v1', 'namespaces', 'Namespace', false, 'ns', '', 'finalize,status', ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch']],
  ['', 'v1', 'nodes', 'Node', false, 'no', '', 'proxy,status'],
  ['', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, 'pvc', '', 'status'],
  ['', 'v1', 'persistentvolumes', 'PersistentVolume', false, 'pv', '', 'status'],
  ['', 'v1', 'pods', 'Pod', true, 'po', 'all', 'attach,binding,ephemeralcontainers,eviction,exec,log,portforward,proxy,status'],
  ['', 'v1', 'podtemplates', 'PodTemplate', true],
  ['', 'v1', 'replicationcontrollers', 'ReplicationController', true, 'rc', 'all', 'scale,status'],
  ['', 'v1', 'resourcequotas', 'ResourceQuota', true, 'quota', '', 'status'],
  ['', 'v1', 'secrets', 'Secret', true],
  ['', 'v1', 'serviceaccounts', 'ServiceAccount', true, 'sa', '', 'token'],
  ['', 'v1', 'services', 'Service', true, 'svc', 'all', 'proxy,status'],
  ['admissionregistration.k8s.io', 'v1', 'mutatingwebhookconfigurations', 'MutatingWebhookConfiguration', false, '', 'api-extensions'],
  ['admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicies', 'ValidatingAdmissionPolicy', false, '', 'api-extensions', 'status'],
  ['admissionregistration.k8s.io', 'v1', 'validatingadmissionpolicybindings', 'ValidatingAdmissionPolicyBinding', false, '', 'api-extensions'],
  ['admissionregistration.k8s.io', 'v1', 'validatingwebhookconfigurations', 'ValidatingWebhookConfiguration', false, '', 'api-extensions'],
  ['apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false, 'crd,crds', 'api-extensions', 'status'],
  ['apiregistration.k8s.io', 'v1', 'apiservices', 'APIService', false, '', 'api-extensions', 'status'],
  ['apps', 'v1', 'controllerrevisions', 'ControllerRevision', true],
  ['apps', 'v1', 'daemonsets', 'DaemonSet', true, 'ds', 'all', 'status'],
  ['apps', 'v1', 'deployments', 'Deployment', true, 'deploy', 'all', 'scale,status'],
  ['apps', 'v1', 'replicasets', 'ReplicaSet', true, 'rs', 'all', 'scale,status'],
  ['apps', 'v1', 'statefulsets', 'StatefulSet', true, 'sts', 'all', 'scale,status'],
  ['authentication.k8s.io', 'v1', 'selfsubjectreviews', 'SelfSubjectReview', false, '', '', '', createOnly],
  ['authentication.k8s.io', 'v1', 'tokenreviews', 'TokenReview', false, '', '', '', createOnly],
  ['authorization.k8s.io', 'v1', 'localsubjectaccessreviews', 'LocalSubjectAccessReview', true, '', '', '', createOnly],
  ['authorization.k8s.io', 'v1', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview', false, '', '', '', createOnly],
  ['authorization.k8s.io', 'v1', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview', false, '', '', '', createOnly],
  ['authorization.k8s.io', 'v1', 'subjectaccessreviews', 'SubjectAccessReview', false, '', '', '', createOnly],
  ['autoscaling', 'v2,v1', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, 'hpa', 'all', 'status'],
  ['batch', 'v1', 'cronjobs', 'CronJob', true, 'cj', 'all', 'status'],
  ['batch', 'v1', 'jobs', 'Job', true, '', 'all', 'status'],
  ['certificates.k8s.io', 'v1', 'certificatesigningrequests', 'CertificateSigningRequest', false, 'csr', '', 'approval,status'],
  ['coordination.k8s.io', 'v1', 'leases', 'Lease', true],
  ['discovery.k8s.io', 'v1', 'endpointslices', 'EndpointSlice', true],
  ['events.k8s.io', 'v1', 'events', 'Event', true, 'ev'],
  ['flowcontrol.apiserver.k8s.io', 'v1', 'flowschemas', 'FlowSchema', false, '', '', 'status'],
  ['flowcontrol.apiserver.k8s.io', 'v1', 'prioritylevelconfigurations', 'PriorityLevelConfiguration', false, '', '', 'status'],
  ['networking.k8s.io', 'v1', 'ingressclasses', 'IngressClass', false],
  ['networking.k8s.io', 'v1', 'ingresses', 'Ingress', true, 'ing', '', 'status'],
  ['networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy', true, 'netpol'],
  ['node.k8s.io', 'v1', 'runtimeclasses', 'RuntimeClass', false],
  ['policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget', true, 'pdb', '', 'status'],
  ['rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false],
  ['rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false],
  ['rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding', true],
  ['rbac.authorization.k8s.io', 'v1', 'roles', 'Role', true],
  ['scheduling.k8s.io', 'v1', 'priorityclasses', 'PriorityClass', false, 'pc'],
  ['storage.k8s.io', 'v1', 'csidrivers', 'CSIDriver', false],
  ['storage.k8s.io', 'v1', 'csinodes', 'CSINode', false],
  ['storage.k8s.io', 'v1', 'csistoragecapacities', 'CSIStorageCapacity', true],
  ['storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', false, 'sc'],
  ['storage.k8s.io', 'v1', 'volumeattachments', 'VolumeAttachment', false, '', '', 'status'],
];

const list = (s: string | undefined): string[] => (s ? s.split(',') : []);

export const apiResources: readonly ApiResourceRow[] = rows.map(([group, versions, resource, kind, namespaced, shortNames, categories, subresources, verbs]) => ({
  group,
  versions: list(versions),
  resource,
  kind,
  namespaced,
  shortNames: list(shortNames),
  categories: list(categories),
  verbs: verbs ?? all,
  subresources: list(subresources),
}));

/** The row of `group/resource`, if a default 1.32 server serves it. */
export function apiResourceRow(group: string, resource: string): ApiResourceRow | undefined {
  return apiResources.find((r) => r.group === group && r.resource === resource);
}

/**
 * The priority of the built-in groups in discovery (kube-apiserver 1.32's aggregator priorities:
 * apiregistration 18000, apps 17800, events 17750, … flowcontrol 16100; equal priorities by name).
 */
export const builtinGroupPriority = [
  '', 'apiregistration.k8s.io', 'apps', 'events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'autoscaling', 'batch',
  'certificates.k8s.io', 'networking.k8s.io', 'policy', 'rbac.authorization.k8s.io', 'storage.k8s.io', 'admissionregistration.k8s.io',
  'apiextensions.k8s.io', 'scheduling.k8s.io', 'coordination.k8s.io', 'node.k8s.io', 'discovery.k8s.io', 'flowcontrol.apiserver.k8s.io',
];

/** What discovery says about a subresource: the kind its endpoint takes/returns and its verbs. */
export interface SubresourceFacts {
  kind: { group: string; version: string; kind: string };
  verbs: string[];
}

const connectVerbs = ['create', 'get'];
const proxyVerbs = ['create', 'delete', 'get', 'patch', 'update'];

/** Discovery facts of a subresource of `owner` (its own kind unless the endpoint takes another). */
export function subresourceFacts(owner: { group: string; version: string; kind: string }, name: string): SubresourceFacts {
  const core = (kind: string) => ({ group: '', version: 'v1', kind });
  switch (name) {
    case 'status': case 'approval': case 'ephemeralcontainers': return { kind: owner, verbs: ['get', 'patch', 'update'] };
    case 'scale': return { kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] };
    case 'finalize': return { kind: owner, verbs: ['update'] };
    case 'token': return { kind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }, verbs: ['create'] };
    case 'log': return { kind: core('Pod'), verbs: ['get'] };
    case 'binding': return { kind: core('Binding'), verbs: ['create'] };
    case 'eviction': return { kind: { group: 'policy', version: 'v1', kind: 'Eviction' }, verbs: ['create'] };
    case 'attach': return { kind: core('PodAttachOptions'), verbs: connectVerbs };
    case 'exec': return { kind: core('PodExecOptions'), verbs: connectVerbs };
    case 'portforward': return { kind: core('PodPortForwardOptions'), verbs: connectVerbs };
    case 'proxy': return { kind: core(`${owner.kind}ProxyOptions`), verbs: proxyVerbs };
    default: return { kind: owner, verbs: ['get'] };
  }
}

/**
 * `spec.groupPriorityMinimum`/`versionPriority` of the APIServices kube-apiserver 1.32 registers for its
 * own group versions (pkg/controlplane/apiserver/aggregator.go's priority table).
 */
export const apiServicePriorities: Record<string, [group: number, version: number]> = {
  'v1': [18000, 1], 'apiregistration.k8s.io/v1': [18000, 15], 'apps/v1': [17800, 15], 'events.k8s.io/v1': [17750, 15],
  'authentication.k8s.io/v1': [17700, 15], 'authorization.k8s.io/v1': [17600, 15], 'autoscaling/v2': [17500, 30], 'autoscaling/v1': [17500, 15],
  'batch/v1': [17400, 15], 'certificates.k8s.io/v1': [17300, 15], 'networking.k8s.io/v1': [17200, 15], 'policy/v1': [17100, 15],
  'rbac.authorization.k8s.io/v1': [17000, 15], 'storage.k8s.io/v1': [16800, 15], 'admissionregistration.k8s.io/v1': [16700, 15],
  'apiextensions.k8s.io/v1': [16700, 15], 'scheduling.k8s.io/v1': [16600, 15], 'coordination.k8s.io/v1': [16500, 15],
  'node.k8s.io/v1': [16300, 15], 'discovery.k8s.io/v1': [16200, 15], 'flowcontrol.apiserver.k8s.io/v1': [16100, 21],
};
