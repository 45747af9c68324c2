/**
 * The set of resources the cluster serves right now: built-in kinds plus the CRD-defined kinds that
 * are currently established. Routing, discovery and OpenAPI read it; the CRD controller changes it.
 */
import type { ResourceType } from './resource-type.js';

import { builtinGroupPriority as builtinGroupOrder } from './builtin/api-resources.js';

export interface GroupVersions {
  group: string;
  /** Preferred first. */
  versions: string[];
}

export class ResourceCatalog {
  private readonly types: ResourceType[] = [];
  private readonly listeners = new Set<() => void>();
  private revision = 0;

  constructor(builtins: ResourceType[]) {
    this.types.push(...builtins);
  }

  /** Increases whenever the served set changes (caches key on it). */
  get version(): number {
    return this.revision;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  all(): ResourceType[] {
    return [...this.types];
  }

  find(group: string, version: string, resource: string): ResourceType | undefined {
    return this.types.find((t) => t.group === group && t.version === version && t.resource === resource);
  }

  /** Every served version of a group/resource (e.g. all versions of one CRD). */
  versionsOf(group: string, resource: string): ResourceType[] {
    return this.types.filter((t) => t.group === group && t.resource === resource);
  }

  servesGroupVersion(group: string, version: string): boolean {
    return this.types.some((t) => t.group === group && t.version === version);
  }

  inGroupVersion(group: string, version: string): ResourceType[] {
    return this.types.filter((t) => t.group === group && t.version === version);
  }

  /** Groups with their versions, built-ins in kube-apiserver's order, then CRD groups by name. */
  groups(): GroupVersions[] {
    const byGroup = new Map<string, string[]>();
    for (const t of this.types) {
      const versions = byGroup.get(t.group) ?? [];
      if (!versions.includes(t.version)) versions.push(t.version);
      byGroup.set(t.group, versions);
    }
    const rank = (g: string): number => {
      const i = builtinGroupOrder.indexOf(g);
      return i === -1 ? builtinGroupOrder.length : i;
    };
    return [...byGroup.entries()]
      .sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
      .map(([group, versions]) => ({ group, versions: sortVersions(versions) }));
  }

  /** Replaces every type of `group/resource` (a CRD's versions) with `next` (empty removes them). */
  replace(group: string, resource: string, next: ResourceType[]): void {
    for (let i = this.types.length - 1; i >= 0; i--) {
      const t = this.types[i]!;
      if (t.group === group && t.resource === resource) this.types.splice(i, 1);
    }
    this.types.push(...next);
    this.revision++;
    for (const l of [...this.listeners]) l();
  }
}

/** Kubernetes version priority: GA > beta > alpha, higher numbers first, then other strings alphabetically. */
export function sortVersions(versions: string[]): string[] {
  const parse = (v: string): [number, number, number, string] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [3, 0, 0, v];
    const stage = m[2] === undefined ? 0 : m[2] === 'beta' ? 1 : 2;
    return [stage, -Number(m[1]), -Number(m[3] ?? 0), v];
  };
  return [...versions].sort((a, b) => {
    const pa = parse(a);
    const pb = parse(b);
    for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return (pa[i] as number) - (pb[i] as number);
    return pa[3] < pb[3] ? -1 : pa[3] > pb[3] ? 1 : 0;
  });
}
