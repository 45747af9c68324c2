/**
 * RBAC escalation prevention (§8.6, the real server's default): a Role/ClusterRole may only grant
 * rules its writer already holds (unless the writer may `escalate` it), and a binding may only
 * point at a role whose rules its writer holds (unless the writer may `bind` it); system:masters
 * is exempt. Refusals carry kube-apiserver's Forbidden message.
 */
import { ApiError, notFound } from '../errors/status-errors.js';
import type { UserInfo } from '../http/authentication.js';
import { isAllowed, rulesFor } from '../http/rbac-authorizer.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { ClusterRole, ClusterRoleBinding } from 'kubernetes-types/rbac/v1.js';
import type { KubeObject, ObjectStore, Stored } from '../store/object-store.js';

const rbac = 'rbac.authorization.k8s.io';

interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** One verb on one group/resource(/name), or one verb on one non-resource URL. */
interface AtomicRule {
  verb: string;
  group?: string;
  resource?: string;
  resourceName?: string;
  url?: string;
}

function breakdown(rule: PolicyRule): AtomicRule[] {
  const out: AtomicRule[] = [];
  for (const verb of rule.verbs ?? []) {
    for (const url of rule.nonResourceURLs ?? []) out.push({ verb, url });
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        const names = rule.resourceNames ?? [];
        if (names.length === 0) out.push({ verb, group, resource });
        for (const resourceName of names) out.push({ verb, group, resource, resourceName });
      }
    }
  }
  return out;
}

function covers(owner: PolicyRule, wanted: AtomicRule): boolean {
  const verbs = owner.verbs ?? [];
  if (!verbs.includes('*') && !verbs.includes(wanted.verb)) return false;
  if (wanted.url !== undefined) {
    return (owner.nonResourceURLs ?? []).some((u) => u === '*' || u === wanted.url || (u.endsWith('*') && wanted.url!.startsWith(u.slice(0, -1))));
  }
  const groups = owner.apiGroups ?? [];
  if (!groups.includes('*') && !groups.includes(wanted.group!)) return false;
  const resource = wanted.resource!;
  const sub = resource.includes('/') ? resource.slice(resource.indexOf('/') + 1) : undefined;
  const resources = owner.resources ?? [];
  if (!resources.some((r) => r === '*' || r === resource || (sub !== undefined && r === `*/${sub}`))) return false;
  const names = owner.resourceNames ?? [];
  return names.length === 0 || (wanted.resourceName !== undefined && names.includes(wanted.resourceName));
}

/** Go's `%q` of a string slice: `["a" "b"]`. */
const quoted = (values: string[]): string => `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;

/** The missing rights, merged per group/resource/name as the real server's CompactRules does, in its text form. */
function describeMissing(missing: AtomicRule[]): string[] {
  const merged = new Map<string, { rule: AtomicRule; verbs: string[] }>();
  for (const m of missing) {
    const key = JSON.stringify([m.group, m.resource, m.resourceName, m.url]);
    const entry = merged.get(key) ?? { rule: m, verbs: [] };
    if (!entry.verbs.includes(m.verb)) entry.verbs.push(m.verb);
    merged.set(key, entry);
  }
  const lines = [...merged.values()].map(({ rule, verbs }) => {
    const parts: string[] = [];
    if (rule.group !== undefined) parts.push(`APIGroups:${quoted([rule.group])}`);
    if (rule.resource !== undefined) parts.push(`Resources:${quoted([rule.resource])}`);
    if (rule.url !== undefined) parts.push(`NonResourceURLs:${quoted([rule.url])}`);
    if (rule.resourceName !== undefined) parts.push(`ResourceNames:${quoted([rule.resourceName])}`);
    parts.push(`Verbs:${quoted(verbs)}`);
    return `{${parts.join(', ')}}`;
  });
  return [...new Set(lines)].sort();
}

function forbidden(rt: ResourceType, name: string, message: string): ApiError {
  return new ApiError(403, 'Forbidden', `${rt.resource}.${rt.group} "${name}" is forbidden: ${message}`, { name, group: rt.group, kind: rt.resource });
}

/** Throws the real 403 when `user` would grant rules it does not hold (namespace: where they apply). */
function confirmNoEscalation(store: ObjectStore, user: UserInfo, namespace: string | undefined, rules: PolicyRule[], rt: ResourceType, name: string): void {
  const held = rulesFor(store, user, namespace) as PolicyRule[];
  const missing = rules.flatMap(breakdown).filter((w) => !held.some((h) => covers(h, w)));
  if (missing.length === 0) return;
  throw forbidden(rt, name, `user ${JSON.stringify(user.username)} (groups=${quoted(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${describeMissing(missing).join('\n')}`);
}

const may = (store: ObjectStore, user: UserInfo, verb: string, resource: string, name: string, namespace: string | undefined): boolean =>
  isAllowed(store, user, { kind: 'resource', verb, group: rbac, version: 'v1', resource, name, watch: false, ...(namespace ? { namespace } : {}) });

/**
 * Checks a Role, ClusterRole, RoleBinding or ClusterRoleBinding about to be written by `user`
 * (the object as it would be stored); other kinds pass.
 */
export function checkRbacEscalation(store: ObjectStore, user: UserInfo, rt: ResourceType, object: KubeObject, old?: KubeObject): void {
  if (rt.group !== rbac || user.groups.includes('system:masters')) return;
  const name = object.metadata?.name ?? '';
  const namespace = rt.namespaced ? object.metadata?.namespace : undefined;
  if (rt.resource === 'roles' || rt.resource === 'clusterroles') {
    if (may(store, user, 'escalate', rt.resource, name, namespace)) return;
    // a Role is a ClusterRole without aggregationRule
    const role: Stored<ClusterRole> = object;
    const oldRole: Stored<ClusterRole> | undefined = old;
    if (rt.resource === 'clusterroles' && (role.aggregationRule || oldRole?.aggregationRule)) {
      throw forbidden(rt, name, 'must have cluster-admin privileges to use the aggregationRule');
    }
    confirmNoEscalation(store, user, namespace, role.rules ?? [], rt, name);
    return;
  }
  if (rt.resource === 'rolebindings' || rt.resource === 'clusterrolebindings') {
    // a RoleBinding has a ClusterRoleBinding's fields; not validated yet, so roleRef may be missing
    const binding: Stored<Partial<ClusterRoleBinding>> = object;
    const ref: Partial<ClusterRoleBinding['roleRef']> = binding.roleRef ?? {};
    const refResource = ref.kind === 'Role' ? 'roles' : 'clusterroles';
    if (may(store, user, 'bind', refResource, ref.name ?? '', namespace)) return;
    const role: Stored<ClusterRole> | undefined = ref.kind === 'Role' ? store.get(`roles.${rbac}`, namespace, ref.name ?? '') : store.get(`clusterroles.${rbac}`, undefined, ref.name ?? '');
    if (!role) throw notFound({ group: rbac, resource: refResource }, ref.name ?? '');
    confirmNoEscalation(store, user, namespace, role.rules ?? [], rt, name);
  }
}
