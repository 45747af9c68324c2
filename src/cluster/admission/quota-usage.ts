/**
 * What one object counts against a ResourceQuota, by resource name — the quota evaluators of 1.32 as
 * data: every object counts `count/<resource>[.<group>]`; the legacy object-count names (`pods`,
 * `services`, `configmaps`, `secrets`, `persistentvolumeclaims`, `replicationcontrollers`,
 * `resourcequotas`) count their kind; kinds with more to count (pods: cpu/memory requests and limits;
 * services: node ports and load balancers; claims: storage) have an entry in `kindUsage` — a kind
 * added later (e.g. by another part of the cluster) appends one entry there. Also: which scopes a pod
 * matches (Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass via scopeSelector).
 */
import type { PersistentVolumeClaim, Pod, ResourceQuota, ScopedResourceSelectorRequirement, Service, WeightedPodAffinityTerm } from 'kubernetes-types/core/v1.js';
import type { ResourceType } from '../registry/resource-type.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject } from '../store/object-store.js';
import { type Quantity, addQuantities, maxQuantity, quantityOf } from './resource-quantities.js';

export type Usage = Record<string, Quantity>;

const one = (): Quantity => quantityOf('1')!;

/** Legacy object-count names: resource → quota name (core group only). */
export const legacyObjectCounts: Record<string, string> = {
  pods: 'pods',
  services: 'services',
  configmaps: 'configmaps',
  secrets: 'secrets',
  persistentvolumeclaims: 'persistentvolumeclaims',
  replicationcontrollers: 'replicationcontrollers',
  resourcequotas: 'resourcequotas',
};

/** The `count/…` name of a resource: `count/pods`, `count/deployments.apps`. */
export function objectCountName(rt: Pick<ResourceType, 'group' | 'resource'>): string {
  return rt.group ? `count/${rt.resource}.${rt.group}` : `count/${rt.resource}`;
}

/** Whether a pod still consumes compute quota (not Succeeded/Failed). */
export function podIsActive(pod: KubeObject): boolean {
  const phase = asStored<Pod>(pod).status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed';
}

function resourceSums(pod: KubeObject, field: 'requests' | 'limits'): Usage {
  const { spec } = asStored<Pod>(pod);
  const total: Usage = {};
  for (const c of spec?.containers ?? []) {
    for (const [k, v] of Object.entries(c?.resources?.[field] ?? {})) {
      const q = quantityOf(v);
      if (q) total[k] = total[k] ? addQuantities(total[k]!, q) : q;
    }
  }
  for (const c of spec?.initContainers ?? []) {
    for (const [k, v] of Object.entries(c?.resources?.[field] ?? {})) {
      const q = quantityOf(v);
      if (q) total[k] = total[k] ? maxQuantity(total[k]!, q) : q;
    }
  }
  for (const [k, v] of Object.entries(spec?.overhead ?? {})) {
    const q = quantityOf(v);
    if (q && total[k]) total[k] = addQuantities(total[k]!, q);
  }
  return total;
}

/** podComputeUsageHelper: `pods` plus requests (also under the bare name) and limits of the compute resources. */
export function computeUsage(requests: Usage, limits: Usage): Usage {
  const usage: Usage = { pods: one() };
  for (const [k, v] of Object.entries(requests)) {
    if (k === 'cpu' || k === 'memory' || k === 'ephemeral-storage') {
      usage[k] = v;
      usage[`requests.${k}`] = v;
    } else if (k.startsWith('hugepages-')) usage[`requests.${k}`] = v;
    else if (k.includes('/')) usage[`requests.${k}`] = v;
  }
  for (const [k, v] of Object.entries(limits)) {
    if (k === 'cpu' || k === 'memory' || k === 'ephemeral-storage') usage[`limits.${k}`] = v;
  }
  return usage;
}

function podUsage(pod: KubeObject): Usage {
  if (!podIsActive(pod)) return {};
  return computeUsage(resourceSums(pod, 'requests'), resourceSums(pod, 'limits'));
}

function serviceUsage(service: KubeObject): Usage {
  const usage: Usage = {};
  const { spec } = asStored<Service>(service);
  const type = spec?.type ?? 'ClusterIP';
  if (type === 'LoadBalancer') usage['services.loadbalancers'] = one();
  if (type === 'NodePort' || type === 'LoadBalancer') {
    const ports = (spec?.ports ?? []).length;
    usage['services.nodeports'] = quantityOf(String(ports))!;
  }
  return usage;
}

function claimUsage(claim: KubeObject): Usage {
  const usage: Usage = {};
  const { spec } = asStored<PersistentVolumeClaim>(claim);
  const storage = quantityOf(spec?.resources?.requests?.storage);
  const className = spec?.storageClassName;
  if (storage) usage['requests.storage'] = storage;
  if (className) {
    usage[`${className}.storageclass.storage.k8s.io/persistentvolumeclaims`] = one();
    if (storage) usage[`${className}.storageclass.storage.k8s.io/requests.storage`] = storage;
  }
  return usage;
}

/** Usage beyond the object counts, per core resource. */
export const kindUsage: Record<string, (object: KubeObject) => Usage> = {
  pods: podUsage,
  services: serviceUsage,
  persistentvolumeclaims: claimUsage,
};

/** Everything one object counts (every name any quota could ask for). */
export function usageOf(rt: Pick<ResourceType, 'group' | 'resource'>, object: KubeObject): Usage {
  const usage: Usage = { [objectCountName(rt)]: one() };
  if (!rt.group) {
    const legacy = legacyObjectCounts[rt.resource];
    if (legacy && (rt.resource !== 'pods' || podIsActive(object))) usage[legacy] = one();
    Object.assign(usage, kindUsage[rt.resource]?.(object) ?? {});
  }
  return usage;
}

/** The compute resource names a pod's containers must each set when a quota limits them (pod evaluator Constraints). */
export const containerConstrainedResources = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];

/** Which `resource`s (of the core group or `<resource>.<group>`) a quota resource name counts. */
export function resourceCounted(name: string): { group: string; resource: string } | undefined {
  if (name.startsWith('count/')) {
    const rest = name.slice('count/'.length);
    const dot = rest.indexOf('.');
    return dot < 0 ? { group: '', resource: rest } : { group: rest.slice(dot + 1), resource: rest.slice(0, dot) };
  }
  const legacy = Object.entries(legacyObjectCounts).find(([, n]) => n === name);
  if (legacy) return { group: '', resource: legacy[0] };
  if (name.startsWith('services.')) return { group: '', resource: 'services' };
  if (name === 'requests.storage' || name.includes('.storageclass.storage.k8s.io/')) return { group: '', resource: 'persistentvolumeclaims' };
  return { group: '', resource: 'pods' };
}

// ---- scopes ----

const isBestEffort = (pod: KubeObject): boolean =>
  [...(asStored<Pod>(pod).spec?.containers ?? []), ...(asStored<Pod>(pod).spec?.initContainers ?? [])].every((c) => Object.keys(c?.resources?.requests ?? {}).length === 0 && Object.keys(c?.resources?.limits ?? {}).length === 0);

const isTerminating = (pod: KubeObject): boolean => {
  const { spec } = asStored<Pod>(pod);
  return typeof spec?.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds >= 0;
};

function scopeMatches(scope: string | undefined, operator: string, values: string[], pod: KubeObject): boolean {
  let matched: boolean;
  switch (scope) {
    case 'Terminating':
      matched = isTerminating(pod);
      break;
    case 'NotTerminating':
      matched = !isTerminating(pod);
      break;
    case 'BestEffort':
      matched = isBestEffort(pod);
      break;
    case 'NotBestEffort':
      matched = !isBestEffort(pod);
      break;
    case 'PriorityClass': {
      const pc = asStored<Pod>(pod).spec?.priorityClassName;
      if (operator === 'Exists') return Boolean(pc);
      if (operator === 'DoesNotExist') return !pc;
      if (operator === 'In') return Boolean(pc) && values.includes(pc!);
      if (operator === 'NotIn') return !pc || !values.includes(pc);
      return Boolean(pc);
    }
    case 'CrossNamespacePodAffinity': {
      const affinity = asStored<Pod>(pod).spec?.affinity;
      const terms = [
        ...(affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
        ...(affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((t: WeightedPodAffinityTerm | undefined) => t?.podAffinityTerm),
        ...(affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
        ...(affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map((t: WeightedPodAffinityTerm | undefined) => t?.podAffinityTerm),
      ];
      matched = terms.some((t) => (t?.namespaces ?? []).length > 0 || t?.namespaceSelector !== undefined);
      break;
    }
    default:
      return false;
  }
  return operator === 'DoesNotExist' || operator === 'NotIn' ? !matched : matched;
}

/** Whether a quota applies to an object: an unscoped quota to everything; a scoped one only to pods matching every scope. */
export function quotaMatches(quota: KubeObject, rt: Pick<ResourceType, 'group' | 'resource'>, object: KubeObject): boolean {
  const { spec } = asStored<ResourceQuota>(quota);
  const scopes: string[] = spec?.scopes ?? [];
  const expressions: Array<ScopedResourceSelectorRequirement | undefined> = spec?.scopeSelector?.matchExpressions ?? [];
  if (scopes.length === 0 && expressions.length === 0) return true;
  if (rt.group !== '' || rt.resource !== 'pods') return false;
  return scopes.every((s) => scopeMatches(s, 'Exists', [], object)) && expressions.every((e) => scopeMatches(e?.scopeName, e?.operator ?? 'Exists', e?.values ?? [], object));
}

/** What the objects of a namespace use of each resource a quota limits (the quota controller's recalculation). */
export function namespaceUsage(
  quota: KubeObject,
  namespace: string,
  lookup: { typeOf(group: string, resource: string): Pick<ResourceType, 'group' | 'resource' | 'bucket'> | undefined; list(bucket: string, namespace: string): KubeObject[] },
): Usage {
  const used: Usage = {};
  const listed = new Map<string, Array<{ rt: Pick<ResourceType, 'group' | 'resource'>; object: KubeObject }>>();
  for (const name of Object.keys(asStored<ResourceQuota>(quota).spec?.hard ?? {})) {
    used[name] = quantityOf('0')!;
    const counted = resourceCounted(name);
    const rt = counted && lookup.typeOf(counted.group, counted.resource);
    if (!rt) continue;
    let objects = listed.get(rt.bucket);
    if (!objects) {
      objects = lookup.list(rt.bucket, namespace).filter((o) => quotaMatches(quota, rt, o)).map((object) => ({ rt, object }));
      listed.set(rt.bucket, objects);
    }
    for (const { rt: type, object } of objects) {
      const q = usageOf(type, object)[name];
      if (q) used[name] = addQuantities(used[name]!, q);
    }
  }
  return used;
}
