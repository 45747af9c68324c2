/**
 * The rule tables of the 1.32 bootstrap ClusterRoles for components and users (ClusterRoles() in
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go, as its testdata/cluster-roles.yaml
 * lists them with the default feature gates): system:auth-delegator, system:heapster,
 * system:kube-controller-manager, system:kube-scheduler, system:node, system:monitoring,
 * system:service-account-issuer-discovery, the certificates.k8s.io approver roles, … — each rule's
 * verbs and resources sorted as RuleOrDie() sorts them. The aggregated admin/edit/view family and the
 * discovery roles live in bootstrap-policy.ts.
 */
import { type PolicyRule, core, eventsRule, rule, urls } from './policy-rules.js';

const read = 'get list watch';
const leaderElection = (name: string): PolicyRule[] => [
  rule('create', ['coordination.k8s.io'], 'leases'),
  rule('get update', ['coordination.k8s.io'], 'leases', name),
];
const delegatedAuth = [rule('create', ['authentication.k8s.io'], 'tokenreviews'), rule('create', ['authorization.k8s.io'], 'subjectaccessreviews')];
const approver = (signer: string): PolicyRule[] => [rule('approve', ['certificates.k8s.io'], 'signers', signer)];

/** name → rules, in the order of testdata/cluster-roles.yaml. */
export const systemRoleRules: Record<string, PolicyRule[]> = {
  'system:auth-delegator': delegatedAuth,
  'system:certificates.k8s.io:certificatesigningrequests:nodeclient': [rule('create', ['certificates.k8s.io'], 'certificatesigningrequests/nodeclient')],
  'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient': [rule('create', ['certificates.k8s.io'], 'certificatesigningrequests/selfnodeclient')],
  'system:certificates.k8s.io:kube-apiserver-client-approver': approver('kubernetes.io/kube-apiserver-client'),
  'system:certificates.k8s.io:kube-apiserver-client-kubelet-approver': approver('kubernetes.io/kube-apiserver-client-kubelet'),
  'system:certificates.k8s.io:kubelet-serving-approver': approver('kubernetes.io/kubelet-serving'),
  'system:certificates.k8s.io:legacy-unknown-approver': approver('kubernetes.io/legacy-unknown'),
  'system:heapster': [rule(read, core, 'events namespaces nodes pods'), rule(read, ['extensions'], 'deployments')],
  'system:kube-aggregator': [rule(read, core, 'endpoints services')],
  'system:kube-controller-manager': [
    eventsRule,
    ...leaderElection('kube-controller-manager'),
    rule('create', core, 'secrets serviceaccounts'),
    rule('delete', core, 'secrets'),
    rule('get', core, 'configmaps namespaces secrets serviceaccounts'),
    rule('update', core, 'secrets serviceaccounts'),
    ...delegatedAuth,
    rule('list watch', ['*'], '*'),
    rule('create', core, 'serviceaccounts/token'),
  ],
  'system:kube-dns': [rule('list watch', core, 'endpoints services')],
  'system:kube-scheduler': [
    eventsRule,
    ...leaderElection('kube-scheduler'),
    rule(read, core, 'nodes'),
    rule('delete get list watch', core, 'pods'),
    rule('create', core, 'bindings pods/binding'),
    rule('patch update', core, 'pods/status'),
    rule(read, core, 'replicationcontrollers services'),
    rule(read, ['apps', 'extensions'], 'replicasets'),
    rule(read, ['apps'], 'statefulsets'),
    rule(read, ['policy'], 'poddisruptionbudgets'),
    rule(read, core, 'persistentvolumeclaims persistentvolumes'),
    ...delegatedAuth,
    rule(read, ['storage.k8s.io'], 'csinodes'),
    rule(read, core, 'namespaces'),
    rule(read, ['storage.k8s.io'], 'csidrivers'),
    rule(read, ['storage.k8s.io'], 'csistoragecapacities'),
  ],
  'system:kubelet-api-admin': [rule(read, core, 'nodes'), rule('proxy', core, 'nodes'), rule('*', core, 'nodes/log nodes/metrics nodes/proxy nodes/stats')],
  'system:monitoring': [urls('get', '/healthz /healthz/* /livez /livez/* /metrics /metrics/slis /readyz /readyz/*')],
  'system:node': [
    rule('create', ['authentication.k8s.io'], 'tokenreviews'),
    rule('create', ['authorization.k8s.io'], 'localsubjectaccessreviews subjectaccessreviews'),
    rule(read, core, 'services'),
    rule('create get list watch', core, 'nodes'),
    rule('patch update', core, 'nodes/status'),
    rule('patch update', core, 'nodes'),
    rule('create patch update', core, 'events'),
    rule(read, core, 'pods'),
    rule('create delete', core, 'pods'),
    rule('patch update', core, 'pods/status'),
    rule('create', core, 'pods/eviction'),
    rule(read, core, 'configmaps secrets'),
    rule('get', core, 'persistentvolumeclaims persistentvolumes'),
    rule('get', core, 'endpoints'),
    rule('create get list watch', ['certificates.k8s.io'], 'certificatesigningrequests'),
    rule('create delete get patch update', ['coordination.k8s.io'], 'leases'),
    rule('get', ['storage.k8s.io'], 'volumeattachments'),
    rule('create', core, 'serviceaccounts/token'),
    rule('get patch update', core, 'persistentvolumeclaims/status'),
    rule(read, ['storage.k8s.io'], 'csidrivers'),
    rule('create delete get patch update', ['storage.k8s.io'], 'csinodes'),
    rule(read, ['node.k8s.io'], 'runtimeclasses'),
  ],
  'system:node-bootstrapper': [rule('create get list watch', ['certificates.k8s.io'], 'certificatesigningrequests')],
  'system:node-problem-detector': [rule('get', core, 'nodes'), rule('patch', core, 'nodes/status'), eventsRule],
  'system:node-proxier': [rule('list watch', core, 'endpoints services'), rule(read, core, 'nodes'), eventsRule, rule('list watch', ['discovery.k8s.io'], 'endpointslices')],
  'system:persistent-volume-provisioner': [
    rule('create delete get list watch', core, 'persistentvolumes'),
    rule('get list update watch', core, 'persistentvolumeclaims'),
    rule(read, ['storage.k8s.io'], 'storageclasses'),
    rule('watch', core, 'events'),
    eventsRule,
  ],
  'system:service-account-issuer-discovery': [urls('get', '/.well-known/openid-configuration /openid/v1/jwks')],
  'system:volume-scheduler': [
    rule('get list patch update watch', core, 'persistentvolumes'),
    rule(read, ['storage.k8s.io'], 'storageclasses'),
    rule('get list patch update watch', core, 'persistentvolumeclaims'),
  ],
};
