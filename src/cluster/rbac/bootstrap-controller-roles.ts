/**
 * The rule tables of the 1.32 `system:controller:<name>` ClusterRoles kube-controller-manager's
 * controllers run under (one ServiceAccount kube-system/<name> each, bound by a ClusterRoleBinding of
 * the same name) — buildControllerRoles() in plugin/pkg/auth/authorizer/rbac/bootstrappolicy/
 * controller_policy.go with 1.32's default feature gates (as its testdata/controller-roles.yaml), so
 * without the alpha/beta-off ones: resource-claim-controller, service-cidrs-controller,
 * selinux-warning-controller, storage-version-garbage-collector and the later device-taint-eviction and
 * volumeattributesclass-protection controllers.
 */
import { type PolicyRule, core, eventsRule, rule } from './policy-rules.js';

const read = 'get list watch';
const readWrite = 'create delete get list patch update watch';
const appsAndExtensions = ['apps', 'extensions'];
/** A workload controller that owns pods: reads and updates its kind, writes its status and finalizers, manages pods. */
const podOwner = (groups: string[], resource: string, ownVerbs = 'get list update watch'): PolicyRule[] => [
  rule(ownVerbs, groups, resource),
  rule('update', groups, `${resource}/status`),
  rule('update', groups, `${resource}/finalizers`),
  rule('create delete list patch watch', core, 'pods'),
  eventsRule,
];

/** Controller name (the ServiceAccount in kube-system) → rules, in name order. */
export const controllerRoleRules: Record<string, PolicyRule[]> = {
  'attachdetach-controller': [
    rule('list watch', core, 'persistentvolumeclaims persistentvolumes'),
    rule(read, core, 'nodes'),
    rule('patch update', core, 'nodes/status'),
    rule('list watch', core, 'pods'),
    eventsRule,
    rule('create delete get list watch', ['storage.k8s.io'], 'volumeattachments'),
    rule(read, ['storage.k8s.io'], 'csidrivers'),
    rule(read, ['storage.k8s.io'], 'csinodes'),
  ],
  'certificate-controller': [
    rule('delete get list watch', ['certificates.k8s.io'], 'certificatesigningrequests'),
    rule('update', ['certificates.k8s.io'], 'certificatesigningrequests/approval certificatesigningrequests/status'),
    rule('approve', ['certificates.k8s.io'], 'signers', 'kubernetes.io/kube-apiserver-client-kubelet'),
    rule('sign', ['certificates.k8s.io'], 'signers', 'kubernetes.io/kube-apiserver-client kubernetes.io/kube-apiserver-client-kubelet kubernetes.io/kubelet-serving kubernetes.io/legacy-unknown'),
    rule('create', ['authorization.k8s.io'], 'subjectaccessreviews'),
    eventsRule,
  ],
  'clusterrole-aggregation-controller': [rule('escalate get list patch update watch', ['rbac.authorization.k8s.io'], 'clusterroles')],
  'cronjob-controller': [
    rule('get list update watch', ['batch'], 'cronjobs'),
    rule(readWrite, ['batch'], 'jobs'),
    rule('update', ['batch'], 'cronjobs/status'),
    rule('update', ['batch'], 'cronjobs/finalizers'),
    rule('delete list watch', core, 'pods'),
    eventsRule,
  ],
  'daemon-set-controller': [
    rule(read, appsAndExtensions, 'daemonsets'),
    rule('update', appsAndExtensions, 'daemonsets/status'),
    rule('update', appsAndExtensions, 'daemonsets/finalizers'),
    rule('list watch', core, 'nodes'),
    rule('create delete list patch watch', core, 'pods'),
    rule('create', core, 'pods/binding'),
    rule(readWrite, ['apps'], 'controllerrevisions'),
    eventsRule,
  ],
  'deployment-controller': [
    rule('get list update watch', appsAndExtensions, 'deployments'),
    rule('update', appsAndExtensions, 'deployments/status'),
    rule('update', appsAndExtensions, 'deployments/finalizers'),
    rule(readWrite, appsAndExtensions, 'replicasets'),
    rule('get list update watch', core, 'pods'),
    eventsRule,
  ],
  'disruption-controller': [
    rule(read, appsAndExtensions, 'deployments'),
    rule(read, appsAndExtensions, 'replicasets'),
    rule(read, core, 'replicationcontrollers'),
    rule(read, ['policy'], 'poddisruptionbudgets'),
    rule(read, ['apps'], 'statefulsets'),
    rule('update', ['policy'], 'poddisruptionbudgets/status'),
    rule('patch update', core, 'pods/status'),
    rule('get', ['*'], '*/scale'),
    eventsRule,
  ],
  'endpoint-controller': [
    rule(read, core, 'pods services'),
    rule('create delete get list update watch', core, 'endpoints'),
    rule('create', core, 'endpoints/restricted'),
    eventsRule,
  ],
  'endpointslice-controller': [
    rule(read, core, 'nodes pods services'),
    rule('update', core, 'services/finalizers'),
    rule('create delete get list update watch', ['discovery.k8s.io'], 'endpointslices'),
    eventsRule,
  ],
  'endpointslicemirroring-controller': [
    rule(read, core, 'endpoints services'),
    rule('update', core, 'services/finalizers'),
    rule('update', core, 'endpoints/finalizers'),
    rule('create delete get list update watch', ['discovery.k8s.io'], 'endpointslices'),
    eventsRule,
  ],
  'ephemeral-volume-controller': [
    rule(read, core, 'pods'),
    rule('update', core, 'pods/finalizers'),
    rule('create get list watch', core, 'persistentvolumeclaims'),
    eventsRule,
  ],
  'expand-controller': [
    rule('get list patch update watch', core, 'persistentvolumes'),
    rule('patch update', core, 'persistentvolumeclaims/status'),
    rule(read, core, 'persistentvolumeclaims'),
    eventsRule,
  ],
  'generic-garbage-collector': [rule('delete get list patch update watch', ['*'], '*'), eventsRule],
  'horizontal-pod-autoscaler': [
    rule(read, ['autoscaling'], 'horizontalpodautoscalers'),
    rule('update', ['autoscaling'], 'horizontalpodautoscalers/status'),
    rule('get update', ['*'], '*/scale'),
    rule('list watch', core, 'pods'),
    rule('list watch', ['metrics.k8s.io'], 'pods'),
    rule(read, ['custom.metrics.k8s.io'], '*'),
    rule(read, ['external.metrics.k8s.io'], '*'),
    eventsRule,
  ],
  'job-controller': podOwner(['batch'], 'jobs', 'get list patch update watch'),
  'legacy-service-account-token-cleaner': [
    rule('get', core, 'configmaps', 'kube-apiserver-legacy-service-account-token-tracking'),
    rule('delete patch', core, 'secrets'),
  ],
  'namespace-controller': [
    rule('delete get list watch', core, 'namespaces'),
    rule('update', core, 'namespaces/finalize namespaces/status'),
    rule('delete deletecollection get list watch', ['*'], '*'),
  ],
  'node-controller': [
    rule('delete get list patch update watch', core, 'nodes'),
    rule('patch update', core, 'nodes/status'),
    rule('patch update', core, 'pods/status'),
    rule('delete get list watch', core, 'pods'),
    eventsRule,
  ],
  'persistent-volume-binder': [
    rule('create delete get list update watch', core, 'persistentvolumes'),
    rule('update', core, 'persistentvolumes/status'),
    rule('get list update watch', core, 'persistentvolumeclaims'),
    rule('update', core, 'persistentvolumeclaims/status'),
    rule('create delete get list watch', core, 'pods'),
    rule(read, ['storage.k8s.io'], 'storageclasses'),
    rule('list watch', core, 'nodes'),
    eventsRule,
    rule('watch', core, 'events'),
  ],
  'pod-garbage-collector': [rule('delete list watch', core, 'pods'), rule(read, core, 'nodes'), rule('patch', core, 'pods/status')],
  'pv-protection-controller': [rule('get list update watch', core, 'persistentvolumes'), eventsRule],
  'pvc-protection-controller': [
    rule('get list update watch', core, 'persistentvolumeclaims'),
    rule('update', core, 'persistentvolumeclaims/status'),
    rule(read, core, 'pods'),
    eventsRule,
  ],
  'replicaset-controller': podOwner(appsAndExtensions, 'replicasets'),
  'replication-controller': podOwner(core, 'replicationcontrollers'),
  'resourcequota-controller': [rule('list watch', ['*'], '*'), rule('update', core, 'resourcequotas/status'), eventsRule],
  'root-ca-cert-publisher': [rule('create update', core, 'configmaps'), eventsRule],
  'route-controller': [rule('list watch', core, 'nodes'), rule('patch', core, 'nodes/status'), eventsRule],
  'service-account-controller': [rule('create', core, 'serviceaccounts'), eventsRule],
  'service-controller': [rule(read, core, 'services'), rule('patch update', core, 'services/status'), rule('list watch', core, 'nodes'), eventsRule],
  'statefulset-controller': [
    rule('list watch', core, 'pods'),
    rule(read, ['apps'], 'statefulsets'),
    rule('update', ['apps'], 'statefulsets/status'),
    rule('update', ['apps'], 'statefulsets/finalizers'),
    rule('create delete get patch update', core, 'pods'),
    rule(readWrite, ['apps'], 'controllerrevisions'),
    rule('create get list watch', core, 'persistentvolumeclaims'),
    rule('delete update', core, 'persistentvolumeclaims'),
    rule('update', core, 'pods/finalizers'),
    eventsRule,
  ],
  'ttl-after-finished-controller': [rule('delete get list watch', ['batch'], 'jobs'), eventsRule],
  'ttl-controller': [rule('list patch update watch', core, 'nodes'), eventsRule],
  'validatingadmissionpolicy-status-controller': [
    rule(read, ['admissionregistration.k8s.io'], 'validatingadmissionpolicies'),
    rule('get patch update', ['admissionregistration.k8s.io'], 'validatingadmissionpolicies/status'),
    eventsRule,
  ],
};
