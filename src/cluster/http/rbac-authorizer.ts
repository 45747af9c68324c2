/**
 * Authorization: `alwaysAllow`, or RBAC over the stored Roles/ClusterRoles and their bindings plus
 * the bootstrap policy (system:masters is superuser; discovery, health and self-reviews are open to
 * every authenticated user), with the real 403 message (§8.4).
 */
import type { RoleBinding, RoleRef, Subject } from 'kubernetes-types/rbac/v1.js';
import { ApiError } from '../errors/status-errors.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, ObjectStore } from '../store/object-store.js';
import type { UserInfo } from './authentication.js';
import type { Authorizer } from './api-server.js';
import type { RequestInfo } from './request-info.js';
import { everyoneGroups } from '../rbac/bootstrap-policy.js';
import { copyObject } from '../store/copy-object.js';

const discoveryPaths = ['/api', '/api/*', '/apis', '/apis/*', '/openapi', '/openapi/*', '/version', '/version/', '/healthz', '/livez', '/readyz'];
const selfReviews = new Set(['selfsubjectaccessreviews', 'selfsubjectrulesreviews', 'selfsubjectreviews']);

interface Rule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

function subjectMatches(subject: Subject | undefined, user: UserInfo, bindingNamespace: string | undefined): boolean {
  if (subject?.kind === 'User') return subject.name === user.username;
  if (subject?.kind === 'Group') return user.groups.includes(subject.name);
  if (subject?.kind === 'ServiceAccount') {
    const ns = subject.namespace || bindingNamespace;
    return user.username === `system:serviceaccount:${ns}:${subject.name}`;
  }
  return false;
}

function ruleAllows(rule: Rule, info: RequestInfo): boolean {
  const verbs = rule.verbs ?? [];
  if (!verbs.includes('*') && !verbs.includes(info.verb)) return false;
  if (info.kind === 'nonresource') {
    return (rule.nonResourceURLs ?? []).some((u) => u === '*' || u === info.path || (u.endsWith('*') && info.path.startsWith(u.slice(0, -1))));
  }
  const groups = rule.apiGroups ?? [];
  if (!groups.includes('*') && !groups.includes(info.group)) return false;
  const target = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  const resources = rule.resources ?? [];
  const resourceOk = resources.some((r) => r === '*' || r === target || (info.subresource && r === `*/${info.subresource}`));
  if (!resourceOk) return false;
  const names = rule.resourceNames ?? [];
  return names.length === 0 || (info.name !== undefined && names.includes(info.name));
}

/**
 * Every rule granted to `user` that applies in `namespace` (cluster-wide rules always apply).
 * `excludeBaseline` leaves out bindings that match the user only through a group every identity
 * has (`system:authenticated`, `system:unauthenticated`, `system:serviceaccounts`: the bootstrap
 * discovery/basic-user/issuer-discovery policy).
 */
export function rulesFor(store: ObjectStore, user: UserInfo, namespace: string | undefined, options: { excludeBaseline?: boolean } = {}): Rule[] {
  return copyObject(storedRulesFor(store, user, namespace, options)) as Rule[];
}

/** rulesFor's rules as stored (shared: read only), for the check every request makes. */
function storedRulesFor(store: ObjectStore, user: UserInfo, namespace: string | undefined, options: { excludeBaseline?: boolean } = {}): ReadonlyArray<Readonly<Rule>> {
  const rules: Rule[] = [];
  const roleRules = (ref: RoleRef | undefined, ns: string | undefined): Rule[] => {
    if (ref?.kind === 'ClusterRole') return (store.peek('clusterroles.rbac.authorization.k8s.io', undefined, ref.name)?.rules as Rule[]) ?? [];
    if (ref?.kind === 'Role' && ns) return (store.peek('roles.rbac.authorization.k8s.io', ns, ref.name)?.rules as Rule[]) ?? [];
    return [];
  };
  const grants = (b: KubeObject, ns: string | undefined): boolean => {
    const matching = (asStored<RoleBinding>(b).subjects ?? []).filter((s) => subjectMatches(s, user, ns));
    if (options.excludeBaseline) return matching.some((s) => !(s.kind === 'Group' && everyoneGroups.has(s.name)));
    return matching.length > 0;
  };
  for (const b of store.listShared('clusterrolebindings.rbac.authorization.k8s.io')) {
    if (grants(b, undefined)) rules.push(...roleRules(asStored<RoleBinding>(b).roleRef, undefined));
  }
  if (namespace) {
    for (const b of store.listShared('rolebindings.rbac.authorization.k8s.io', namespace)) {
      if (grants(b, namespace)) rules.push(...roleRules(asStored<RoleBinding>(b).roleRef, namespace));
    }
  }
  return rules;
}

/** Whether RBAC (with the bootstrap policy) allows the request. */
export function isAllowed(store: ObjectStore, user: UserInfo, info: RequestInfo): boolean {
  if (user.groups.includes('system:masters')) return true;
  const authenticated = user.groups.includes('system:authenticated');
  if (info.kind === 'nonresource') {
    const open = ['/healthz', '/livez', '/readyz', '/version', '/version/'].includes(info.path);
    if (open && info.verb === 'get') return true;
    if (authenticated && info.verb === 'get' && discoveryPaths.some((p) => p === info.path || (p.endsWith('*') && info.path.startsWith(p.slice(0, -1))))) return true;
  } else if (authenticated && info.verb === 'create' && selfReviews.has(info.resource)) return true;
  const namespace = info.kind === 'resource' ? info.namespace : undefined;
  return storedRulesFor(store, user, namespace).some((r) => ruleAllows(r, info));
}

export function forbiddenMessage(user: UserInfo, info: RequestInfo): ApiError {
  if (info.kind === 'nonresource') {
    return new ApiError(403, 'Forbidden', `forbidden: User "${user.username}" cannot ${info.verb} path "${info.path}"`, {});
  }
  const qr = info.group ? `${info.resource}.${info.group}` : info.resource;
  const res = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
  const scope = info.namespace ? `in the namespace "${info.namespace}"` : 'at the cluster scope';
  const subject = info.name ? `${qr} "${info.name}" is forbidden` : `${qr} is forbidden`;
  return new ApiError(403, 'Forbidden', `${subject}: User "${user.username}" cannot ${info.verb} resource "${res}" in API group "${info.group}" ${scope}`, {
    ...(info.name ? { name: info.name } : {}),
    group: info.group,
    kind: info.resource,
  });
}

export function createAuthorizer(mode: 'rbac' | 'alwaysAllow', store: ObjectStore): Authorizer {
  if (mode === 'alwaysAllow') return () => undefined;
  return (user, info) => (isAllowed(store, user, info) ? undefined : forbiddenMessage(user, info));
}

