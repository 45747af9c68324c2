/**
 * Discovery documents built from the resource catalog: aggregated (apidiscovery.k8s.io/v2, chosen by
 * clients only from the exact response Content-Type) and legacy (APIVersions, APIGroupList,
 * APIGroup, APIResourceList) — both always served (embedded-apiserver.md §2.2).
 */
import type { ResourceCatalog } from '../registry/resource-catalog.js';
import { type ResourceType, groupVersion } from '../registry/resource-type.js';

export const aggregatedDiscoveryContentType = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

const scaleKind = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

function subresourcesOf(rt: ResourceType): Array<{ name: string; kind: { group: string; version: string; kind: string }; verbs: string[] }> {
  const own = { group: rt.group, version: rt.version, kind: rt.kind };
  const subs: Array<{ name: string; kind: { group: string; version: string; kind: string }; verbs: string[] }> = [];
  if (rt.statusSubresource) subs.push({ name: 'status', kind: own, verbs: ['get', 'patch', 'update'] });
  if (rt.scale) subs.push({ name: 'scale', kind: scaleKind, verbs: ['get', 'patch', 'update'] });
  for (const s of rt.otherSubresources) {
    if (s === 'finalize') subs.push({ name: 'finalize', kind: own, verbs: ['update'] });
    if (s === 'token') subs.push({ name: 'token', kind: { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }, verbs: ['create'] });
    if (s === 'log') subs.push({ name: 'log', kind: { group: '', version: 'v1', kind: 'Pod' }, verbs: ['get'] });
    if (s === 'binding') subs.push({ name: 'binding', kind: { group: '', version: 'v1', kind: 'Binding' }, verbs: ['create'] });
    if (s === 'eviction') subs.push({ name: 'eviction', kind: { group: 'policy', version: 'v1', kind: 'Eviction' }, verbs: ['create'] });
  }
  return subs.sort((a, b) => (a.name < b.name ? -1 : 1));
}

function aggregatedResource(rt: ResourceType): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    resource: rt.resource,
    responseKind: { group: rt.group, version: rt.version, kind: rt.kind },
    scope: rt.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: rt.singular,
    verbs: rt.verbs,
  };
  if (rt.shortNames.length) entry.shortNames = rt.shortNames;
  if (rt.categories.length) entry.categories = rt.categories;
  const subs = subresourcesOf(rt);
  if (subs.length) entry.subresources = subs.map((s) => ({ subresource: s.name, responseKind: s.kind, verbs: s.verbs }));
  return entry;
}

const byResource = (a: ResourceType, b: ResourceType): number => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0);

/** `/api` (core only) or `/apis` (named groups) in aggregated form. */
export function aggregatedDiscovery(catalog: ResourceCatalog, core: boolean): Record<string, unknown> {
  const items = catalog
    .groups()
    .filter((g) => (g.group === '') === core)
    .map((g) => ({
      metadata: { name: g.group, creationTimestamp: null },
      versions: g.versions.map((v) => ({
        version: v,
        resources: catalog.inGroupVersion(g.group, v).sort(byResource).map(aggregatedResource),
        freshness: 'Current',
      })),
    }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items };
}

export function legacyApiVersions(serverAddress: string): Record<string, unknown> {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function apiGroup(group: string, versions: string[]): Record<string, unknown> {
  const gv = versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { name: group, versions: gv, preferredVersion: gv[0] };
}

export function legacyApiGroupList(catalog: ResourceCatalog): Record<string, unknown> {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: catalog.groups().filter((g) => g.group !== '').map((g) => apiGroup(g.group, g.versions)) };
}

export function legacyApiGroup(catalog: ResourceCatalog, group: string): Record<string, unknown> | undefined {
  const g = catalog.groups().find((x) => x.group === group && group !== '');
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g.group, g.versions) } : undefined;
}

export function legacyResourceList(catalog: ResourceCatalog, group: string, version: string): Record<string, unknown> | undefined {
  const types = catalog.inGroupVersion(group, version).sort(byResource);
  if (types.length === 0) return undefined;
  const resources: Record<string, unknown>[] = [];
  for (const rt of types) {
    const entry: Record<string, unknown> = { name: rt.resource, singularName: rt.singular, namespaced: rt.namespaced, kind: rt.kind, verbs: rt.verbs };
    if (rt.shortNames.length) entry.shortNames = rt.shortNames;
    if (rt.categories.length) entry.categories = rt.categories;
    resources.push(entry);
    for (const s of subresourcesOf(rt)) {
      const sub: Record<string, unknown> = { name: `${rt.resource}/${s.name}`, singularName: '', namespaced: rt.namespaced, kind: s.kind.kind, verbs: s.verbs };
      if (s.kind.group !== rt.group || s.kind.version !== rt.version) {
        sub.group = s.kind.group;
        sub.version = s.kind.version;
      }
      resources.push(sub);
    }
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersion({ group, version }), resources };
}
