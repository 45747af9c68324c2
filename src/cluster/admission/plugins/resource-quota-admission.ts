/**
 * The ResourceQuota admission plugin (last of the validating plugins): a create or update is charged to
 * every ResourceQuota of its namespace that matches it; over a hard limit it is refused with the 1.32
 * 403 ("exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2"), a pod that leaves a
 * quota-limited cpu/memory unset with "failed quota: q: must specify limits.cpu for: c"; otherwise the
 * quotas' status.used grows at once (not on dry runs), and the quota controller reconciles it later.
 */
import type { Pod, ResourceQuota } from 'kubernetes-types/core/v1.js';
import { asStored } from '../../store/kube-object.js';
import type { KubeObject } from '../../store/object-store.js';
import type { AdmissionPlugin, AdmissionRequest, AdmissionServices } from '../admission-chain.js';
import { containerConstrainedResources, quotaMatches, usageOf, type Usage } from '../quota-usage.js';
import { addQuantities, formatQuantity, printResourceList, quantityOf, subtractQuantities } from '../resource-quantities.js';
import { admissionForbidden } from './admission-errors.js';
import { copyObject } from '../../store/copy-object.js';

const bucket = 'resourcequotas';

/** Containers missing a request/limit a quota limits, per resource (pod evaluator Constraints). */
function missingContainerResources(pod: KubeObject, required: string[]): string | undefined {
  const wanted = required.filter((r) => containerConstrainedResources.includes(r));
  if (wanted.length === 0) return undefined;
  const missing = new Map<string, Set<string>>();
  const { spec } = asStored<Pod>(pod);
  for (const c of [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])]) {
    const requests = c?.resources?.requests ?? {};
    const limits = c?.resources?.limits ?? {};
    const has = new Set<string>();
    for (const k of ['cpu', 'memory']) {
      if (k in requests) has.add(k).add(`requests.${k}`);
      if (k in limits) has.add(`limits.${k}`);
    }
    for (const r of wanted) {
      if (has.has(r)) continue;
      const names = missing.get(r) ?? new Set<string>();
      names.add(c?.name ?? '');
      missing.set(r, names);
    }
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()].sort().map((r) => `${r} for: ${[...missing.get(r)!].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

export class ResourceQuotaAdmission implements AdmissionPlugin {
  constructor(private readonly services: AdmissionServices) {}

  validate(request: AdmissionRequest): void {
    if (request.operation === 'DELETE' || !request.namespace || !request.object) return;
    if (request.subresource && !(request.rt.resource === 'pods' && request.subresource === 'resize')) return;
    const quotas = this.services.store.listShared(bucket, request.namespace);
    if (quotas.length === 0) return;
    const rt = request.rt;
    const usage = usageOf(rt, request.object);
    let delta: Usage = usage;
    if (request.operation === 'UPDATE' && request.oldObject) {
      const before = usageOf(rt, request.oldObject);
      delta = {};
      for (const [k, v] of Object.entries(usage)) {
        const d = before[k] ? subtractQuantities(v, before[k]!) : v;
        if (d.num > 0n) delta[k] = d;
      }
      if (Object.keys(delta).length === 0) return;
    }
    const charges: Array<{ quota: KubeObject; used: Record<string, string> }> = [];
    for (const quota of quotas) {
      if (quota.metadata.deletionTimestamp) continue;
      if (!quotaMatches(quota, rt, request.object)) continue;
      const status = asStored<ResourceQuota>(quota).status;
      const hard: Record<string, string> = status?.hard ?? {};
      const limited = Object.keys(hard).filter((k) => k in delta || (rt.group === '' && rt.resource === 'pods' && containerConstrainedResources.includes(k)));
      if (limited.length === 0) continue;
      if (rt.group === '' && rt.resource === 'pods' && request.operation === 'CREATE') {
        const missing = missingContainerResources(request.object, limited);
        if (missing) throw admissionForbidden(request, [`failed quota: ${quota.metadata.name}: ${missing}`]);
      }
      const unknown = limited.filter((k) => k in delta && status?.used?.[k] === undefined);
      if (unknown.length) throw admissionForbidden(request, [`status unknown for quota: ${quota.metadata.name}, resources: ${unknown.sort().join(',')}`]);
      const requested: Usage = {};
      const used: Usage = {};
      const limits: Usage = {};
      const next: Record<string, string> = { ...(status?.used ?? {}) };
      for (const k of limited) {
        if (!(k in delta)) continue;
        const current = quantityOf(status!.used![k]) ?? quantityOf('0')!;
        const total = addQuantities(current, delta[k]!);
        next[k] = formatQuantity(total);
        const cap = quantityOf(hard[k]);
        if (cap && total.compare(cap) > 0) {
          requested[k] = delta[k]!;
          used[k] = current;
          limits[k] = cap;
        }
      }
      if (Object.keys(requested).length) {
        throw admissionForbidden(request, [
          `exceeded quota: ${quota.metadata.name}, requested: ${printResourceList(requested)}, used: ${printResourceList(used)}, limited: ${printResourceList(limits)}`,
        ]);
      }
      charges.push({ quota, used: next });
    }
    if (request.dryRun) return;
    for (const { quota, used } of charges) {
      const updated = copyObject(quota) as KubeObject;
      updated.status = { ...asStored<ResourceQuota>(updated).status, used };
      this.services.store.update(bucket, updated);
    }
  }
}
