/**
 * The resource quota controller (kube-controller-manager's `resourcequota`): for every ResourceQuota it
 * keeps `status.hard` equal to `spec.hard` and recalculates `status.used` from the objects of its
 * namespace whenever one of them changes — so usage falls back when pods finish or objects are deleted,
 * and corrects what admission charged for a write that did not happen.
 */
import type { ResourceQuota } from 'kubernetes-types/core/v1.js';
import { asStored } from '../store/kube-object.js';
import type { StoreEvent } from '../store/object-store.js';
import type { ResourceCatalog } from '../registry/resource-catalog.js';
import type { ObjectStore } from '../store/object-store.js';
import { formatQuantity } from '../admission/resource-quantities.js';
import { namespaceUsage } from '../admission/quota-usage.js';
import { deepEqual } from '../registry/system-metadata.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController } from './controller-scheduler.js';

const quotaBucket = 'resourcequotas';

export class ResourceQuotaController implements BuiltinController {
  readonly name = 'resourcequota-controller';

  constructor(
    private readonly client: ControllerClient,
    private readonly store: ObjectStore,
    private readonly catalog: ResourceCatalog,
  ) {}

  initialKeys(): string[] {
    return [...new Set(this.store.listShared(quotaBucket).map((q) => q.metadata.namespace as string))];
  }

  keysFor(event: StoreEvent): string[] {
    const namespace = event.object.metadata.namespace;
    if (!namespace) return [];
    if (event.bucket === quotaBucket) return [namespace];
    return this.store.listShared(quotaBucket, namespace).length > 0 ? [namespace] : [];
  }

  reconcile(namespace: string): void {
    const lookup = {
      typeOf: (group: string, resource: string) => this.catalog.versionsOf(group, resource)[0],
      list: (bucket: string, ns: string) => this.store.listShared(bucket, ns),
    };
    for (const quota of this.client.list('resourcequotas', namespace)) {
      if (quota.metadata.deletionTimestamp) continue;
      const used = namespaceUsage(quota, namespace, lookup);
      const hard = { ...(asStored<ResourceQuota>(quota).spec?.hard ?? {}) };
      const status = { hard, used: Object.fromEntries(Object.entries(used).map(([k, q]) => [k, formatQuantity(q)])) };
      if (deepEqual(quota.status ?? {}, status)) continue;
      this.client.updateStatus('resourcequotas', { ...quota, status });
    }
  }
}
