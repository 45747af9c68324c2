/**
 * Puts the built-in kinds together: for every row of the 1.32 resource table, the specific kind(s) of
 * its group/resource when some module implements it (all of their versions win), else the generic
 * data-driven kind. Discovery facts (short names, categories, verbs, listed subresources) always come
 * from the table, so `kubectl api-resources` shows 1.32's list whoever implements a kind.
 */
import type { ResourceType } from '../resource-type.js';
import { type ApiResourceRow, apiResources } from './api-resources.js';

function withTableFacts(rt: ResourceType, row: ApiResourceRow): ResourceType {
  const listed = row.subresources.filter((s) => s !== 'status' && s !== 'scale');
  return {
    ...rt,
    shortNames: row.shortNames,
    categories: row.categories,
    verbs: row.verbs,
    otherSubresources: [...new Set([...rt.otherSubresources, ...listed])],
  };
}

/** Table order (preferred version first); specific kinds outside the table follow in their own order. */
export function composeBuiltinKinds(specific: ResourceType[], generic: ResourceType[]): ResourceType[] {
  const key = (rt: Pick<ResourceType, 'group' | 'resource'>): string => `${rt.group}/${rt.resource}`;
  const bySpecific = new Map<string, ResourceType[]>();
  for (const rt of specific) bySpecific.set(key(rt), [...(bySpecific.get(key(rt)) ?? []), rt]);
  const out: ResourceType[] = [];
  for (const row of apiResources) {
    const own = bySpecific.get(key(row));
    const kinds = own ?? generic.filter((g) => key(g) === key(row));
    const ordered = [...kinds].sort((a, b) => rank(row, a.version) - rank(row, b.version));
    out.push(...ordered.map((rt) => withTableFacts(rt, row)));
    bySpecific.delete(key(row));
  }
  for (const rest of bySpecific.values()) out.push(...rest);
  return out;
}

function rank(row: ApiResourceRow, version: string): number {
  const i = row.versions.indexOf(version);
  return i === -1 ? row.versions.length : i;
}
