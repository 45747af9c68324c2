/**
 * The RBAC generator (controller-gen §13): turns the model's RBAC rule declarations (the controllers'
 * `+kubebuilder:rbac` markers, read by src/reader/controller-declarations.ts) into the manager's
 * ClusterRole and, for rules with a namespace, namespaced Roles — rules split per resource,
 * normalised, merged (verbs, then resources, then groups, then URLs) and sorted exactly as
 * controller-gen v0.21.0 does, so role.yaml is byte-identical.
 */
import { toYaml } from '../yaml/index.js';
import type { RbacRuleDeclaration } from '../../model/index.js';

export const DEFAULT_ROLE_NAME = 'manager-role';

/** One policy rule as written to role.yaml (empty lists are left out). */
export interface PolicyRule {
  apiGroups?: string[];
  nonResourceURLs?: string[];
  resourceNames?: string[];
  resources?: string[];
  verbs: string[];
}

/** A ClusterRole (no namespace) or a Role. */
export interface RoleObject {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'ClusterRole' | 'Role';
  metadata: { name: string; namespace?: string };
  rules: PolicyRule[];
}

/** A rule while merging: every list deduplicated and sorted. */
interface NormalRule {
  groups: string[];
  resources: string[];
  resourceNames: string[];
  urls: string[];
  verbs: string[];
}

export interface RbacOptions {
  /** Name of the generated roles when a marker gives no `roleName` (default `manager-role`). */
  roleName?: string;
}

/** Builds the roles from the model's RBAC rule declarations (`model.controllers.rbacRules`). */
export function buildRbac(declarations: readonly RbacRuleDeclaration[], options: RbacOptions = {}): RoleObject[] {
  const defaultRoleName = options.roleName ?? DEFAULT_ROLE_NAME;
  const byRole = new Map<string, { namespace: string; roleName: string; rules: NormalRule[] }>();
  for (const declaration of declarations) {
    const namespace = declaration.namespace;
    const roleName = declaration.roleName || defaultRoleName;
    const key = `${namespace}\u0000${roleName}`;
    const role = byRole.get(key) ?? { namespace, roleName, rules: [] };
    role.rules.push(...rulesOf(declaration));
    byRole.set(key, role);
  }
  return [...byRole.values()]
    .sort((a, b) => compareStrings(a.namespace, b.namespace) || compareStrings(a.roleName, b.roleName))
    .map((role) => ({ ...role, rules: mergeRules(role.rules) }))
    .filter((role) => role.rules.length > 0)
    .map(({ namespace, roleName, rules }) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1' as const,
      kind: namespace === '' ? ('ClusterRole' as const) : ('Role' as const),
      metadata: namespace === '' ? { name: roleName } : { name: roleName, namespace },
      rules: rules.map(toPolicyRule),
    }));
}

/** The text of config/rbac/role.yaml: each role as its own `---` document ('' when there are none). */
export function emitRoleYaml(roles: RoleObject[], header = ''): string {
  if (roles.length === 0) return '';
  return header + roles.map((role) => `---\n${toYaml(role)}`).join('');
}

/** One rule per resource (a declaration without resources stays one rule). */
function rulesOf(declaration: RbacRuleDeclaration): NormalRule[] {
  const base = {
    groups: normalise(declaration.groups.map((g) => (g === 'core' ? '' : g))),
    resourceNames: normalise(declaration.resourceNames),
    urls: normalise(declaration.urls),
    verbs: normalise(declaration.verbs),
  };
  const resources = declaration.resources;
  if (resources.length === 0) return [{ ...base, resources: [] }];
  return resources.map((resource) => ({ ...base, resources: [resource] }));
}

type ListField = 'groups' | 'resources' | 'resourceNames' | 'urls' | 'verbs';

function mergeRules(rules: NormalRule[]): NormalRule[] {
  let merged = mergeOn(rules, 'verbs');
  merged = mergeOn(merged, 'resources');
  merged = mergeOn(merged, 'groups');
  merged = mergeOn(merged, 'urls');
  for (const rule of merged) if (rule.verbs.includes('*')) rule.verbs = ['*'];
  return merged.sort((a, b) => compareStrings(sortKey(a), sortKey(b)));
}

/** Merges rules that are identical in every list except `field`, unioning that list. */
function mergeOn(rules: NormalRule[], field: ListField): NormalRule[] {
  const others = (['groups', 'resources', 'resourceNames', 'urls', 'verbs'] as ListField[]).filter((f) => f !== field);
  const byKey = new Map<string, NormalRule>();
  for (const rule of rules) {
    const key = others.map((f) => rule[f].join('&')).join(' + ');
    const existing = byKey.get(key);
    if (existing) existing[field] = normalise([...existing[field], ...rule[field]]);
    else byKey.set(key, { ...rule, [field]: [...rule[field]] });
  }
  return [...byKey.values()];
}

/** controller-gen's rule sort key: groups + resources + resourceNames + URLs. */
function sortKey(rule: NormalRule): string {
  return [rule.groups, rule.resources, rule.resourceNames, rule.urls].map((l) => l.join('&')).join(' + ');
}

function toPolicyRule(rule: NormalRule): PolicyRule {
  const out: PolicyRule = { verbs: rule.verbs };
  if (rule.groups.length > 0) out.apiGroups = rule.groups;
  if (rule.urls.length > 0) out.nonResourceURLs = rule.urls;
  if (rule.resourceNames.length > 0) out.resourceNames = rule.resourceNames;
  if (rule.resources.length > 0) out.resources = rule.resources;
  return out;
}

function normalise(values: string[]): string[] {
  return [...new Set(values)].sort(compareStrings);
}

/** Byte-order comparison (Go's string <), not locale order. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
