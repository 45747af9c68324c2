/**
 * The LimitRanger admission plugin: on pod creation, the namespace's LimitRanges fill in default
 * requests and limits of containers and init containers (annotating the pod `kubernetes.io/limit-ranger`),
 * then every Container, Pod and PersistentVolumeClaim limit is enforced — min, max and
 * maxLimitRequestRatio — with the 403 messages of 1.32 ("maximum cpu usage per Container is 1, but limit is 2.").
 * Pod updates are not checked (containers' resources cannot change), as in 1.32.
 */
import type { Container, LimitRange, LimitRangeItem, PersistentVolumeClaim, Pod } from 'kubernetes-types/core/v1.js';
import { asStored } from '../../store/kube-object.js';
import type { KubeObject } from '../../store/object-store.js';
import type { AdmissionPlugin, AdmissionRequest, AdmissionServices } from '../admission-chain.js';
import { Quantity, formatQuantity, maxQuantity, quantityOf } from '../resource-quantities.js';
import { admissionForbidden } from './admission-errors.js';

type Quantities = Record<string, Quantity>;

const annotation = 'kubernetes.io/limit-ranger';

function quantities(list: unknown): Quantities {
  const out: Quantities = {};
  if (list && typeof list === 'object') {
    for (const [k, v] of Object.entries(list)) {
      const q = quantityOf(v);
      if (q) out[k] = q;
    }
  }
  return out;
}

/** Value in milli-units for comparisons (requestLimitEnforcedValues). */
function milli(q: Quantity): bigint {
  return roundedUp(q, -3);
}

function minConstraint(type: string, resource: string, enforced: Quantity, requests: Quantities, limits: Quantities): string | undefined {
  const req = requests[resource];
  const lim = limits[resource];
  if (!req) return `minimum ${resource} usage per ${type} is ${formatQuantity(enforced)}.  No request is specified.`;
  if (milli(req) < milli(enforced)) return `minimum ${resource} usage per ${type} is ${formatQuantity(enforced)}, but request is ${formatQuantity(req)}.`;
  if (lim && milli(lim) < milli(enforced)) return `minimum ${resource} usage per ${type} is ${formatQuantity(enforced)}, but limit is ${formatQuantity(lim)}.`;
  return undefined;
}

function maxConstraint(type: string, resource: string, enforced: Quantity, requests: Quantities, limits: Quantities): string | undefined {
  const req = requests[resource];
  const lim = limits[resource];
  if (!lim) return `maximum ${resource} usage per ${type} is ${formatQuantity(enforced)}.  No limit is specified.`;
  if (milli(lim) > milli(enforced)) return `maximum ${resource} usage per ${type} is ${formatQuantity(enforced)}, but limit is ${formatQuantity(lim)}.`;
  if (req && milli(req) > milli(enforced)) return `maximum ${resource} usage per ${type} is ${formatQuantity(enforced)}, but request is ${formatQuantity(req)}.`;
  return undefined;
}

/** For PersistentVolumeClaims: only the request is bounded by max. */
function maxRequestConstraint(type: string, resource: string, enforced: Quantity, requests: Quantities): string | undefined {
  const req = requests[resource];
  if (!req) return `maximum ${resource} usage per ${type} is ${formatQuantity(enforced)}.  No request is specified.`;
  if (milli(req) > milli(enforced)) return `maximum ${resource} usage per ${type} is ${formatQuantity(enforced)}, but request is ${formatQuantity(req)}.`;
  return undefined;
}

function ratioConstraint(type: string, resource: string, enforced: Quantity, requests: Quantities, limits: Quantities): string | undefined {
  const req = requests[resource];
  const lim = limits[resource];
  if (!req || req.num === 0n) return `${resource} max limit to request ratio per ${type} is ${formatQuantity(enforced)}, but no request is specified or request is 0.`;
  if (!lim || lim.num === 0n) return `${resource} max limit to request ratio per ${type} is ${formatQuantity(enforced)}, but no limit is specified or limit is 0.`;
  const observed = Number(milli(lim)) / Number(milli(req));
  if (observed * 1000 > Number(milli(enforced))) {
    return `${resource} max limit to request ratio per ${type} is ${formatQuantity(enforced)}, but provided ratio is ${observed.toFixed(6)}.`;
  }
  return undefined;
}

/**
 * Sum over every input; a key missing from any input is left out (limitranger's `sum`). The sum is a
 * decimal quantity: cpu in milli-units, anything else in whole units rounded up (as Value() does).
 */
function sumAll(inputs: Quantities[]): Quantities {
  if (inputs.length === 0) return {};
  const out: Quantities = {};
  for (const key of Object.keys(inputs[0]!)) {
    if (!inputs.every((i) => i[key])) continue;
    const shift = key === 'cpu' ? -3 : 0;
    const total = inputs.map((i) => roundedUp(i[key]!, shift)).reduce((a, b) => a + b, 0n);
    out[key] = new Quantity(total, shift, '');
  }
  return out;
}

/** The value of `q` in units of 10^shift, rounded up (MilliValue()/Value()). */
function roundedUp(q: Quantity, shift: number): bigint {
  const exp = q.exp - shift;
  if (exp >= 0) return q.num * 10n ** BigInt(exp);
  const d = 10n ** BigInt(-exp);
  return q.num >= 0n ? (q.num + d - 1n) / d : q.num / d;
}

/** Pod-level requests or limits: the containers' sum, raised to any single init container's value. */
function podTotal(pod: KubeObject, field: 'requests' | 'limits'): Quantities {
  const spec = asStored<Pod>(pod).spec;
  const total = sumAll((spec?.containers ?? []).map((c: Container | undefined) => quantities(c?.resources?.[field])));
  for (const c of spec?.initContainers ?? []) {
    for (const [k, v] of Object.entries(quantities(c?.resources?.[field]))) total[k] = total[k] ? maxQuantity(total[k]!, v) : v;
  }
  return total;
}

const sortedEntries = (q: Quantities): Array<[string, Quantity]> => Object.entries(q).sort(([a], [b]) => a.localeCompare(b));

export class LimitRanger implements AdmissionPlugin {
  constructor(private readonly services: AdmissionServices) {}

  private limitRanges(namespace: string | undefined): KubeObject[] {
    return namespace ? this.services.store.listShared('limitranges', namespace) : [];
  }

  private handles(request: AdmissionRequest): 'pod' | 'pvc' | undefined {
    if (request.subresource || request.rt.group !== '' || !request.object) return undefined;
    if (request.rt.resource === 'pods' && request.operation === 'CREATE') return 'pod';
    if (request.rt.resource === 'persistentvolumeclaims' && request.operation !== 'DELETE') return 'pvc';
    return undefined;
  }

  admit(request: AdmissionRequest): void {
    if (this.handles(request) !== 'pod') return;
    const ranges = this.limitRanges(request.namespace);
    if (ranges.length === 0) return;
    const pod = request.object!;
    for (const range of ranges) {
      const defaults = { limits: {} as Record<string, string>, requests: {} as Record<string, string> };
      for (const item of asStored<LimitRange>(range).spec?.limits ?? []) {
        if (item?.type !== 'Container') continue;
        Object.assign(defaults.limits, item.default ?? {});
        Object.assign(defaults.requests, item.defaultRequest ?? {});
      }
      if (Object.keys(defaults.limits).length === 0 && Object.keys(defaults.requests).length === 0) continue;
      const notes: string[] = [];
      for (const c of asStored<Pod>(pod).spec?.containers ?? []) notes.push(...mergeDefaults(c, defaults, 'container'));
      for (const c of asStored<Pod>(pod).spec?.initContainers ?? []) notes.push(...mergeDefaults(c, defaults, 'init container'));
      if (notes.length) {
        pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [annotation]: `LimitRanger plugin set: ${notes.join('; ')}` };
      }
    }
  }

  validate(request: AdmissionRequest): void {
    const kind = this.handles(request);
    if (!kind) return;
    const errors: string[] = [];
    for (const range of this.limitRanges(request.namespace)) {
      for (const item of asStored<LimitRange>(range).spec?.limits ?? []) {
        if (kind === 'pod') errors.push(...podErrors(request.object!, item));
        else errors.push(...claimErrors(request.object!, item));
      }
    }
    if (errors.length) throw admissionForbidden(request, errors);
  }
}

/** Fills missing limits, then missing requests (a limit without a request also sets the request, as pod defaulting does). */
function mergeDefaults(container: Container | undefined, defaults: { limits: Record<string, string>; requests: Record<string, string> }, prefix: string): string[] {
  if (!container || typeof container !== 'object') return [];
  container.resources ??= {};
  const resources = container.resources;
  // SetDefaults_Pod ran before admission on a real server: requests default to the container's own limits
  for (const [k, v] of Object.entries(resources.limits ?? {})) {
    resources.requests ??= {};
    if (!(k in resources.requests)) resources.requests[k] = v;
  }
  const setLimits: string[] = [];
  const setRequests: string[] = [];
  for (const [k, v] of Object.entries(defaults.limits)) {
    resources.limits ??= {};
    if (!(k in resources.limits)) {
      resources.limits[k] = v;
      setLimits.push(k);
    }
  }
  for (const [k, v] of Object.entries(defaults.requests)) {
    resources.requests ??= {};
    if (!(k in resources.requests)) {
      resources.requests[k] = v;
      setRequests.push(k);
    }
  }
  const notes: string[] = [];
  if (setRequests.length) notes.push(`${setRequests.sort().join(', ')} request for ${prefix} ${container.name}`);
  if (setLimits.length) notes.push(`${setLimits.sort().join(', ')} limit for ${prefix} ${container.name}`);
  return notes;
}

function checkItem(item: Pick<LimitRangeItem, 'min' | 'max' | 'maxLimitRequestRatio'>, type: string, requests: Quantities, limits: Quantities, maxOnRequest = false): string[] {
  const errors: string[] = [];
  for (const [k, v] of sortedEntries(quantities(item.min))) {
    const e = minConstraint(type, k, v, requests, limits);
    if (e) errors.push(e);
  }
  for (const [k, v] of sortedEntries(quantities(item.max))) {
    const e = maxOnRequest ? maxRequestConstraint(type, k, v, requests) : maxConstraint(type, k, v, requests, limits);
    if (e) errors.push(e);
  }
  for (const [k, v] of sortedEntries(quantities(item.maxLimitRequestRatio))) {
    const e = ratioConstraint(type, k, v, requests, limits);
    if (e) errors.push(e);
  }
  return errors;
}

function podErrors(pod: KubeObject, item: LimitRangeItem | undefined): string[] {
  if (item?.type === 'Container') {
    const { spec } = asStored<Pod>(pod);
    const containers = [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])];
    return containers.flatMap((c) => checkItem(item, 'Container', quantities(c?.resources?.requests), quantities(c?.resources?.limits)));
  }
  if (item?.type === 'Pod') return checkItem(item, 'Pod', podTotal(pod, 'requests'), podTotal(pod, 'limits'));
  return [];
}

function claimErrors(claim: KubeObject, item: LimitRangeItem | undefined): string[] {
  if (item?.type !== 'PersistentVolumeClaim') return [];
  // a claim's resources.limits is not user input here: min is checked against the requests only
  return checkItem({ min: item.min, max: item.max }, 'PersistentVolumeClaim', quantities(asStored<PersistentVolumeClaim>(claim).spec?.resources?.requests), {}, true);
}
