/**
 * Namespace lifecycle (§3.8, §7.2): a namespace with a deletionTimestamp has all its content deleted,
 * reports what remains in its status conditions, and loses the `kubernetes` finalizer (then goes
 * away) once nothing is left — or stays Terminating for as long as some content keeps a finalizer.
 */
import type { Namespace, NamespaceCondition } from 'kubernetes-types/core/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import type { ResourceCatalog } from '../registry/resource-catalog.js';
import type { ResourceType } from '../registry/resource-type.js';
import { rfc3339 } from '../registry/system-metadata.js';
import { asStored } from '../store/kube-object.js';
import type { StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController, ReconcileResult } from './controller-scheduler.js';

/** A namespace with remaining content looks again after 1 s, doubling to 5 min (deletions wake it sooner). */
const firstRetryMs = 1000;
const maxRetryMs = 300_000;

export interface Remaining {
  /** `<resource>.<group>` → count. */
  resources: Map<string, number>;
  /** finalizer → count of objects carrying it. */
  finalizers: Map<string, number>;
}

export class NamespaceController implements BuiltinController {
  readonly name = 'namespace-controller';
  private readonly retries = new Map<string, number>();

  /**
   * `writeConditions`: publish the deletion conditions (`NamespaceDeletionContentFailure`,
   * `NamespaceContentRemaining`, `NamespaceFinalizersRemaining`, ...) in the namespace status.
   */
  constructor(private readonly client: ControllerClient, private readonly catalog: ResourceCatalog, private readonly clock: ClusterClock, private readonly writeConditions = true) {}

  initialKeys(): string[] {
    return this.client.list('namespaces').filter((n) => n.metadata.deletionTimestamp).map((n) => n.metadata.name);
  }

  keysFor(event: StoreEvent): string[] {
    const o = event.object;
    if (event.bucket === 'namespaces') return event.type !== 'DELETED' && o.metadata.deletionTimestamp ? [o.metadata.name] : [];
    const ns: string | undefined = o.metadata.namespace;
    if (!ns) return [];
    const removedFinalizer = (event.oldObject?.metadata.finalizers ?? []).length > (o.metadata.finalizers ?? []).length;
    if (event.type !== 'DELETED' && !removedFinalizer) return [];
    const namespace = this.client.get('namespaces', undefined, ns);
    return namespace?.metadata.deletionTimestamp ? [ns] : [];
  }

  reconcile(name: string): ReconcileResult | void {
    const stored = this.client.get('namespaces', undefined, name);
    const namespace = stored && asStored<Namespace>(stored);
    if (!namespace?.metadata.deletionTimestamp) return;
    const remaining = this.deleteContent(name);
    if (this.writeConditions) {
      const conditions = namespaceConditions(remaining, namespace.status?.conditions ?? [], this.clock.now());
      this.client.updateStatus('namespaces', { ...namespace, status: { ...(namespace.status ?? {}), phase: 'Terminating', conditions } });
    }
    if (remaining.resources.size > 0) {
      const delay = this.retries.get(name) ?? firstRetryMs;
      this.retries.set(name, Math.min(delay * 2, maxRetryMs));
      return { requeueAfterMs: delay };
    }
    this.retries.delete(name);
    const finalizers: string[] = namespace.spec?.finalizers ?? [];
    if (finalizers.includes('kubernetes')) this.client.finalizeNamespace(name, finalizers.filter((f) => f !== 'kubernetes'));
  }

  /** Namespaced types, one per storage bucket (every served version of a kind shares its objects). */
  private contentTypes(): ResourceType[] {
    const seen = new Set<string>();
    const out: ResourceType[] = [];
    for (const rt of this.catalog.all()) {
      if (!rt.namespaced || seen.has(rt.bucket)) continue;
      seen.add(rt.bucket);
      out.push(rt);
    }
    return out.sort((a, b) => (qualifiedName(a) < qualifiedName(b) ? -1 : 1));
  }

  /** Deletes what is left in `namespace` and reports what remains. */
  deleteContent(namespace: string): Remaining {
    const remaining: Remaining = { resources: new Map(), finalizers: new Map() };
    for (const rt of this.contentTypes()) {
      for (const object of this.client.list(rt, namespace)) {
        if (!object.metadata.deletionTimestamp) this.client.delete(rt, namespace, object.metadata.name, { propagationPolicy: 'Background', preconditions: { uid: object.metadata.uid } });
      }
      const left = this.client.list(rt, namespace);
      if (left.length === 0) continue;
      remaining.resources.set(qualifiedName(rt), left.length);
      for (const object of left) {
        for (const f of object.metadata.finalizers ?? []) remaining.finalizers.set(f, (remaining.finalizers.get(f) ?? 0) + 1);
      }
    }
    return remaining;
  }
}

/** The conditions the namespace controller reports while deleting content (§7.2). */
export function namespaceConditions(remaining: Remaining, previous: NamespaceCondition[], nowMs: number): NamespaceCondition[] {
  const now = rfc3339(nowMs);
  const resources = [...remaining.resources.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([r, n]) => `${r} has ${n} resource instances`);
  const finalizers = [...remaining.finalizers.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([f, n]) => `${f} in ${n} resource instances`);
  const wanted: Array<[string, string, string, string]> = [
    ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'],
    ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
    ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
    resources.length
      ? ['NamespaceContentRemaining', 'True', 'SomeResourcesRemain', `Some resources are remaining: ${resources.join(', ')}`]
      : ['NamespaceContentRemaining', 'False', 'ContentRemoved', 'All content successfully removed'],
    finalizers.length
      ? ['NamespaceFinalizersRemaining', 'True', 'SomeFinalizersRemain', `Some content in the namespace has finalizers remaining: ${finalizers.join(', ')}`]
      : ['NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
  ];
  return wanted.map(([type, status, reason, message]) => {
    const old = previous.find((c) => c.type === type);
    const same = old && old.status === status && old.reason === reason && old.message === message;
    return same ? old : { type, status, lastTransitionTime: old?.status === status ? old.lastTransitionTime : now, reason, message };
  });
}

/** `pods`, `jobs.batch`, `widgets.example.com` — how the namespace controller names resources. */
function qualifiedName(rt: ResourceType): string {
  return rt.group ? `${rt.resource}.${rt.group}` : rt.resource;
}
