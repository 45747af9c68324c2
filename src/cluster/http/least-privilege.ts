/**
 * The least-privilege report of an identity, from its activity (the request history's per-identity
 * counters, exact however many entries left the log's ring) and its RBAC grants: what it did, which of the
 * rules granted to it were never needed, and what it was refused (§8.7).
 */
import type { ObjectStore } from '../store/object-store.js';
import type { UserInfo } from './authentication.js';
import { rulesFor } from './rbac-authorizer.js';
import type { Activity } from './request-history.js';

export interface GrantedRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface LeastPrivilegeReport {
  user: string;
  /** Distinct `verb group/resource[/subresource]` the identity used successfully. */
  used: string[];
  /** Distinct requests that were refused (403). */
  denied: string[];
  /** Granted rules (as written in the roles) of which no verb was needed: each could be deleted. */
  unusedRules: GrantedRule[];
  /** Per verb, the grants no allowed request (nor admission check on its behalf) matched: where a rule may narrow. */
  unusedGrants: GrantedRule[];
}

const describe = (e: Activity): string =>
  e.resource === undefined ? `${e.verb} ${e.path}` : `${e.verb} ${e.group ? `${e.group}/` : ''}${e.resource}${e.subresource ? `/${e.subresource}` : ''}`;

function matches(rule: GrantedRule, verb: string, e: Activity): boolean {
  if (!rule.verbs.includes('*') && !rule.verbs.includes(verb)) return false;
  if (e.resource === undefined) {
    const path = e.path ?? '';
    return (rule.nonResourceURLs ?? []).some((u) => u === '*' || u === path || (u.endsWith('*') && path.startsWith(u.slice(0, -1))));
  }
  const groups = rule.apiGroups ?? [];
  if (!groups.includes('*') && !groups.includes(e.group ?? '')) return false;
  const target = e.subresource ? `${e.resource}/${e.subresource}` : e.resource;
  if (!(rule.resources ?? []).some((r) => r === '*' || r === target || (e.subresource !== undefined && r === `*/${e.subresource}`))) return false;
  const names = rule.resourceNames ?? [];
  // past the kept names the activity may have touched any of them: the rule counts as used
  return names.length === 0 || (e.names.size > 0 && e.namesOverflow) || names.some((n) => e.names.has(n));
}

export function leastPrivilegeReport(store: ObjectStore, mine: Activity[], user: UserInfo): LeastPrivilegeReport {
  const allowed = mine.filter((e) => e.outcome === 'allowed');
  const denied = [...new Set(mine.filter((e) => e.outcome === 'denied').map(describe))].sort();
  const used = [...new Set(allowed.map(describe))].sort();
  const unusedRules: GrantedRule[] = [];
  const unusedGrants: GrantedRule[] = [];
  const namespaces = [...new Set(allowed.map((e) => e.namespace).filter((n): n is string => Boolean(n)))];
  const rules = new Map<string, GrantedRule>();
  for (const ns of [undefined, ...namespaces]) for (const r of rulesFor(store, user, ns, { excludeBaseline: true })) rules.set(JSON.stringify(r), r as GrantedRule);
  for (const rule of rules.values()) {
    const unusedVerbs = rule.verbs.filter((verb) => !allowed.some((e) => matches({ ...rule, verbs: [verb] }, e.verb, e)));
    unusedGrants.push(...unusedVerbs.map((verb) => ({ ...rule, verbs: [verb] })));
    if (unusedVerbs.length === rule.verbs.length) unusedRules.push(rule);
  }
  return { user: user.username, used, denied, unusedRules, unusedGrants };
}
