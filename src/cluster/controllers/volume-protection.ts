/**
 * The PVC and PV protection controllers (pkg/controller/volume/pvcprotection, pvprotection): a claim
 * being deleted keeps its `kubernetes.io/pvc-protection` finalizer while a scheduled, unfinished pod
 * still uses it; a volume being deleted keeps `kubernetes.io/pv-protection` while it is Bound.
 * (The finalizers themselves are added on create by the StorageObjectInUseProtection admission step
 * in storage-kinds.ts.)
 */
import type { PersistentVolume, Pod, Volume } from 'kubernetes-types/core/v1.js';
import { asStored } from '../store/kube-object.js';
import { pvProtectionFinalizer, pvcProtectionFinalizer } from '../registry/builtin/storage-kinds.js';
import type { Stored, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController } from './controller-scheduler.js';

/** Names of the claims a pod's volumes use. */
export function claimNamesOf(pod: Stored<Pod>): string[] {
  return (pod.spec?.volumes ?? [])
    .map((v: Volume | undefined) => v?.persistentVolumeClaim?.claimName ?? (v?.ephemeral ? `${pod.metadata.name}-${v.name}` : undefined))
    .filter((n: unknown): n is string => typeof n === 'string');
}

const finished = (pod: Stored<Pod>): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/** Whether a pod keeps `claim` in use (scheduled to a node and not finished). */
export function podUsesClaim(pod: Stored<Pod>, claimName: string): boolean {
  return Boolean(pod.spec?.nodeName) && !finished(pod) && claimNamesOf(pod).includes(claimName);
}

export class PvcProtectionController implements BuiltinController {
  readonly name = 'pvc-protection-controller';

  constructor(private readonly client: ControllerClient) {}

  initialKeys(): string[] {
    return this.client.list('persistentvolumeclaims').filter((c) => c.metadata.deletionTimestamp).map((c) => `${c.metadata.namespace}/${c.metadata.name}`);
  }

  keysFor(event: StoreEvent): string[] {
    const o = event.object;
    if (event.bucket === 'persistentvolumeclaims') return event.type !== 'DELETED' && o.metadata.deletionTimestamp ? [`${o.metadata.namespace}/${o.metadata.name}`] : [];
    if (event.bucket !== 'pods') return [];
    // a pod going away (or finishing) may release its claims
    if (event.type !== 'DELETED' && !finished(o) && !o.metadata.deletionTimestamp) return [];
    return claimNamesOf(o).map((n) => `${o.metadata.namespace}/${n}`);
  }

  reconcile(key: string): void {
    const [namespace, name] = key.split('/') as [string, string];
    const claim = this.client.get('persistentvolumeclaims', namespace, name);
    if (!claim?.metadata.deletionTimestamp || !(claim.metadata.finalizers ?? []).includes(pvcProtectionFinalizer)) return;
    if (this.client.list('pods', namespace).some((p) => podUsesClaim(p, name))) return;
    const finalizers = (claim.metadata.finalizers as string[]).filter((f) => f !== pvcProtectionFinalizer);
    this.client.update('persistentvolumeclaims', { ...claim, metadata: { ...claim.metadata, finalizers } });
  }
}

export class PvProtectionController implements BuiltinController {
  readonly name = 'pv-protection-controller';

  constructor(private readonly client: ControllerClient) {}

  initialKeys(): string[] {
    return this.client.list('persistentvolumes').filter((v) => v.metadata.deletionTimestamp).map((v) => v.metadata.name);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.bucket !== 'persistentvolumes' || event.type === 'DELETED' || !event.object.metadata.deletionTimestamp) return [];
    return [event.object.metadata.name];
  }

  reconcile(name: string): void {
    const pv = this.client.get('persistentvolumes', undefined, name);
    if (!pv?.metadata.deletionTimestamp || !(pv.metadata.finalizers ?? []).includes(pvProtectionFinalizer)) return;
    if (asStored<PersistentVolume>(pv).status?.phase === 'Bound') return;
    const finalizers = (pv.metadata.finalizers as string[]).filter((f) => f !== pvProtectionFinalizer);
    this.client.update('persistentvolumes', { ...pv, metadata: { ...pv.metadata, finalizers } });
  }
}
