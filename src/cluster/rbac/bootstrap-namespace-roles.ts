/**
 * The 1.32 bootstrap Roles and RoleBindings of kube-system and kube-public (namespace_policy.go in
 * plugin/pkg/auth/authorizer/rbac/bootstrappolicy): extension-apiserver-authentication-reader (which
 * aggregated API servers and delegated-authentication webhooks bind to), the leader-locking roles of
 * kube-controller-manager and kube-scheduler (1.32's ConfigMap lock rules), and the bootstrap-signer,
 * cloud-provider and token-cleaner controller roles.
 */
import { type PolicyRule, core, eventsRule, rule } from './policy-rules.js';

type Subject = { kind: 'User'; name: string } | { kind: 'ServiceAccount'; name: string; namespace: string };

export interface NamespacedRole {
  namespace: string;
  name: string;
  rules: PolicyRule[];
}

export interface NamespacedBinding {
  namespace: string;
  name: string;
  role: string;
  subjects: Subject[];
}

const kubeSystem = 'kube-system';
const sa = (name: string): Subject => ({ kind: 'ServiceAccount', name, namespace: kubeSystem });
const leaderLocking = (component: string): PolicyRule[] => [rule('watch', core, 'configmaps'), rule('get update', core, 'configmaps', component)];

/** In the order of testdata/namespace-roles.yaml. */
export const namespacedRoles: NamespacedRole[] = [
  { namespace: 'kube-public', name: 'system:controller:bootstrap-signer', rules: [rule('get list watch', core, 'configmaps'), rule('update', core, 'configmaps', 'cluster-info'), eventsRule] },
  { namespace: kubeSystem, name: 'extension-apiserver-authentication-reader', rules: [rule('get list watch', core, 'configmaps', 'extension-apiserver-authentication')] },
  { namespace: kubeSystem, name: 'system::leader-locking-kube-controller-manager', rules: leaderLocking('kube-controller-manager') },
  { namespace: kubeSystem, name: 'system::leader-locking-kube-scheduler', rules: leaderLocking('kube-scheduler') },
  { namespace: kubeSystem, name: 'system:controller:bootstrap-signer', rules: [rule('get list watch', core, 'secrets')] },
  { namespace: kubeSystem, name: 'system:controller:cloud-provider', rules: [rule('create get list watch', core, 'configmaps')] },
  { namespace: kubeSystem, name: 'system:controller:token-cleaner', rules: [rule('delete get list watch', core, 'secrets'), eventsRule] },
];

/** In the order of testdata/namespace-role-bindings.yaml. */
export const namespacedBindings: NamespacedBinding[] = [
  { namespace: 'kube-public', name: 'system:controller:bootstrap-signer', role: 'system:controller:bootstrap-signer', subjects: [sa('bootstrap-signer')] },
  {
    namespace: kubeSystem, name: 'system::extension-apiserver-authentication-reader', role: 'extension-apiserver-authentication-reader',
    subjects: [{ kind: 'User', name: 'system:kube-controller-manager' }, { kind: 'User', name: 'system:kube-scheduler' }],
  },
  { namespace: kubeSystem, name: 'system::leader-locking-kube-controller-manager', role: 'system::leader-locking-kube-controller-manager', subjects: [sa('kube-controller-manager')] },
  { namespace: kubeSystem, name: 'system::leader-locking-kube-scheduler', role: 'system::leader-locking-kube-scheduler', subjects: [sa('kube-scheduler')] },
  { namespace: kubeSystem, name: 'system:controller:bootstrap-signer', role: 'system:controller:bootstrap-signer', subjects: [sa('bootstrap-signer')] },
  { namespace: kubeSystem, name: 'system:controller:cloud-provider', role: 'system:controller:cloud-provider', subjects: [sa('cloud-provider')] },
  { namespace: kubeSystem, name: 'system:controller:token-cleaner', role: 'system:controller:token-cleaner', subjects: [sa('token-cleaner')] },
];
