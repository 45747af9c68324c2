/**
 * The PersistentVolume controller's binder (pkg/controller/volume/persistentvolume, 1.32): binds each
 * unbound claim to the smallest Available volume that fits it (class, access modes, size, volume mode,
 * selector, node affinity to the scheduler's selected node) — at once for Immediate classes, and for
 * WaitForFirstConsumer classes only once the scheduler has annotated the claim with
 * `volume.kubernetes.io/selected-node`; hands claims nothing fits to their class's provisioner
 * (storage-provisioner annotations and the ExternalProvisioning event); keeps volume phases
 * (Pending → Available → Bound → Released) and the bind-completed / bound-by-controller annotations.
 * A released volume whose reclaim policy is Delete is left to its provisioner to remove.
 */
import type { Node, NodeSelectorTerm, PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import type { StorageClass } from 'kubernetes-types/storage/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { rfc3339 } from '../registry/system-metadata.js';
import { parseQuantity, storageClassBucket } from '../registry/builtin/storage-kinds.js';
import { selectorMatches } from '../registry/builtin/workload-kinds.js';
import { asStored } from '../store/kube-object.js';
import type { Stored, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController } from './controller-scheduler.js';
import type { EventRecorder } from './event-recorder.js';

export const selectedNodeAnnotation = 'volume.kubernetes.io/selected-node';
export const bindCompletedAnnotation = 'pv.kubernetes.io/bind-completed';
export const boundByControllerAnnotation = 'pv.kubernetes.io/bound-by-controller';
export const provisionerAnnotation = 'volume.kubernetes.io/storage-provisioner';
export const betaProvisionerAnnotation = 'volume.beta.kubernetes.io/storage-provisioner';
export const provisionedByAnnotation = 'pv.kubernetes.io/provisioned-by';

const claimsResource = 'persistentvolumeclaims';
const volumesResource = 'persistentvolumes';

/** A claim's class ('' = none). */
export const claimClass = (claim: Stored<PersistentVolumeClaim>): string => claim.spec?.storageClassName ?? claim.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';
const volumeClass = (pv: Stored<PersistentVolume>): string => pv.spec?.storageClassName ?? pv.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';

/** Whether a volume's node affinity admits `node` (no affinity: every node). */
export function volumeFitsNode(pv: Stored<PersistentVolume>, node: Stored<Node> | undefined): boolean {
  const terms: NodeSelectorTerm[] = pv.spec?.nodeAffinity?.required?.nodeSelectorTerms ?? [];
  if (terms.length === 0) return true;
  if (!node) return false;
  const labels: Record<string, string> = node.metadata.labels ?? {};
  return terms.some((term) =>
    (term.matchExpressions ?? []).every((r) => {
      const v = labels[r.key];
      if (r.operator === 'In') return v !== undefined && (r.values ?? []).includes(v);
      if (r.operator === 'NotIn') return v === undefined || !(r.values ?? []).includes(v);
      if (r.operator === 'Exists') return v !== undefined;
      if (r.operator === 'DoesNotExist') return v === undefined;
      return false;
    }) && (term.matchFields ?? []).every((r) => r.key === 'metadata.name' && (r.operator === 'In' ? (r.values ?? []).includes(node.metadata.name) : !(r.values ?? []).includes(node.metadata.name))),
  );
}

/** Whether `pv` could serve `claim` (ignoring its phase and claimRef). */
export function volumeFitsClaim(pv: Stored<PersistentVolume>, claim: Stored<PersistentVolumeClaim>, node?: Stored<Node>): boolean {
  if (volumeClass(pv) !== claimClass(claim)) return false;
  if ((pv.spec?.volumeMode ?? 'Filesystem') !== (claim.spec?.volumeMode ?? 'Filesystem')) return false;
  const modes: string[] = pv.spec?.accessModes ?? [];
  if (!(claim.spec?.accessModes ?? []).every((m: string) => modes.includes(m))) return false;
  const capacity = parseQuantity(pv.spec?.capacity?.storage) ?? 0;
  if (capacity < (parseQuantity(claim.spec?.resources?.requests?.storage) ?? 0)) return false;
  if (claim.spec?.selector && !selectorMatches(claim.spec.selector, pv.metadata.labels)) return false;
  if (node && !volumeFitsNode(pv, node)) return false;
  return true;
}

const claimRefersTo = (pv: Stored<PersistentVolume>, claim: Stored<PersistentVolumeClaim>): boolean =>
  pv.spec?.claimRef?.name === claim.metadata.name && pv.spec?.claimRef?.namespace === claim.metadata.namespace && (!pv.spec.claimRef.uid || pv.spec.claimRef.uid === claim.metadata.uid);

export class PersistentVolumeBinder implements BuiltinController {
  readonly name = 'persistentvolume-binder';

  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock, private readonly events: EventRecorder) {}

  initialKeys(): string[] {
    return [
      ...this.client.list(volumesResource).map((v) => `pv:${v.metadata.name}`),
      ...this.client.list(claimsResource).map((c) => `pvc:${c.metadata.namespace}/${c.metadata.name}`),
    ];
  }

  keysFor(event: StoreEvent): string[] {
    const o = event.object;
    if (event.bucket === claimsResource) {
      const keys = event.type === 'DELETED' ? [] : [`pvc:${o.metadata.namespace}/${o.metadata.name}`];
      // the volume bound to a claim follows it (Released when the claim goes)
      const volume = asStored<PersistentVolumeClaim>(o).spec?.volumeName;
      if (volume) keys.push(`pv:${volume}`);
      if (event.type === 'DELETED') for (const pv of this.client.list(volumesResource)) if (claimRefersTo(pv, o)) keys.push(`pv:${pv.metadata.name}`);
      return keys;
    }
    if (event.bucket === volumesResource) {
      if (event.type === 'DELETED') return this.unboundClaimKeys();
      const keys = [`pv:${o.metadata.name}`];
      const ref = asStored<PersistentVolume>(o).spec?.claimRef;
      if (ref?.name) keys.push(`pvc:${ref.namespace}/${ref.name}`);
      if (!ref) keys.push(...this.unboundClaimKeys());
      return keys;
    }
    if (event.bucket === storageClassBucket && event.type !== 'DELETED') return this.unboundClaimKeys();
    return [];
  }

  private unboundClaimKeys(): string[] {
    return this.client
      .list(claimsResource)
      .map((c) => asStored<PersistentVolumeClaim>(c))
      .filter((c) => !c.spec?.volumeName).map((c) => `pvc:${c.metadata.namespace}/${c.metadata.name}`);
  }

  reconcile(key: string): void {
    if (key.startsWith('pv:')) return this.syncVolume(key.slice(3));
    const [namespace, name] = key.slice(4).split('/') as [string, string];
    const stored = this.client.get(claimsResource, namespace, name);
    const claim = stored && asStored<PersistentVolumeClaim>(stored);
    if (!claim || claim.metadata.deletionTimestamp && !claim.spec?.volumeName) return;
    if (claim.spec?.volumeName) return this.syncBoundClaim(claim);
    return this.syncUnboundClaim(claim);
  }

  private syncUnboundClaim(claim: Stored<PersistentVolumeClaim>): void {
    const className = claimClass(claim);
    const sc = className ? this.client.get('storage.k8s.io/storageclasses', undefined, className) : undefined;
    const waitForConsumer = sc?.volumeBindingMode === 'WaitForFirstConsumer';
    const selectedNode: string | undefined = claim.metadata.annotations?.[selectedNodeAnnotation];
    const node = selectedNode ? this.client.get('nodes', undefined, selectedNode) : undefined;
    if (waitForConsumer && !selectedNode) {
      this.events.record(claim, 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding');
      return;
    }
    const volumes = this.client
      .list(volumesResource)
      .map((pv) => asStored<PersistentVolume>(pv))
      .filter((pv) => !pv.metadata.deletionTimestamp);
    const preBound = volumes.find((pv) => claimRefersTo(pv, claim) && volumeFitsClaim(pv, claim));
    const candidates = volumes
      .filter((pv) => !pv.spec?.claimRef && (pv.status?.phase === 'Available' || pv.status?.phase === 'Pending') && volumeFitsClaim(pv, claim, waitForConsumer ? node : undefined))
      .sort((a, b) => (parseQuantity(a.spec!.capacity!.storage) ?? 0) - (parseQuantity(b.spec!.capacity!.storage) ?? 0) || a.metadata.name.localeCompare(b.metadata.name));
    const volume = preBound ?? candidates[0];
    if (volume) return this.bind(volume, claim, !preBound);
    if (!className) {
      this.events.record(claim, 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set');
      return;
    }
    if (!sc) {
      this.events.record(claim, 'Warning', 'ProvisioningFailed', `storageclass.storage.k8s.io "${className}" not found`);
      return;
    }
    this.handToProvisioner(claim, asStored<StorageClass>(sc));
  }

  /** Annotates the claim for its class's provisioner (an external one, as every provisioner is here). */
  private handToProvisioner(claim: Stored<PersistentVolumeClaim>, sc: Stored<StorageClass>): void {
    const annotations = claim.metadata.annotations ?? {};
    if (annotations[provisionerAnnotation] !== sc.provisioner || annotations[betaProvisionerAnnotation] !== sc.provisioner) {
      this.client.update(claimsResource, { ...claim, metadata: { ...claim.metadata, annotations: { ...annotations, [betaProvisionerAnnotation]: sc.provisioner, [provisionerAnnotation]: sc.provisioner } } });
    }
    this.events.record(
      claim,
      'Normal',
      'ExternalProvisioning',
      `Waiting for a volume to be created either by the external provisioner '${sc.provisioner}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
    );
  }

  /** Binds both ways: the volume's claimRef and phase, then the claim's volumeName, annotations and status. */
  private bind(volume: Stored<PersistentVolume>, claim: Stored<PersistentVolumeClaim>, byController: boolean): void {
    const now = rfc3339(this.clock.now());
    let pv = volume;
    if (!claimRefersTo(pv, claim) || !pv.spec!.claimRef!.uid) {
      pv = this.client.update(volumesResource, {
        ...pv,
        metadata: { ...pv.metadata, annotations: { ...(pv.metadata.annotations ?? {}), ...(byController ? { [boundByControllerAnnotation]: 'yes' } : {}) } },
        spec: { ...pv.spec, claimRef: { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, uid: claim.metadata.uid, apiVersion: 'v1', resourceVersion: claim.metadata.resourceVersion } },
      });
    }
    if (pv.status?.phase !== 'Bound') pv = this.client.updateStatus(volumesResource, { ...pv, status: { phase: 'Bound', lastPhaseTransitionTime: now } });
    const annotations = { ...(claim.metadata.annotations ?? {}), [bindCompletedAnnotation]: 'yes', ...(claim.spec?.volumeName ? {} : { [boundByControllerAnnotation]: 'yes' }) };
    const bound = this.client.update(claimsResource, { ...claim, metadata: { ...claim.metadata, annotations }, spec: { ...claim.spec, volumeName: pv.metadata.name } });
    this.client.updateStatus(claimsResource, { ...bound, status: { phase: 'Bound', accessModes: pv.spec!.accessModes, capacity: pv.spec!.capacity } });
  }

  /** A claim that names its volume: finish the binding, or report the volume lost. */
  private syncBoundClaim(claim: Stored<PersistentVolumeClaim>): void {
    const storedVolume = this.client.get(volumesResource, undefined, claim.spec!.volumeName!); // a claim that names its volume
    const pv = storedVolume && asStored<PersistentVolume>(storedVolume);
    if (!pv) {
      if (claim.status?.phase === 'Bound') {
        this.client.updateStatus(claimsResource, { ...claim, status: { ...claim.status, phase: 'Lost' } });
        this.events.record(claim, 'Warning', 'ClaimLost', 'Bound claim has lost reference to PersistentVolume. Data on the volume is lost!');
      }
      return;
    }
    if (pv.spec?.claimRef && !claimRefersTo(pv, claim)) {
      this.events.record(claim, 'Warning', 'FailedBinding', 'volume already bound to a different claim.');
      return;
    }
    if (claim.status?.phase === 'Bound' && claimRefersTo(pv, claim) && pv.spec!.claimRef!.uid && pv.status?.phase === 'Bound' && claim.metadata.annotations?.[bindCompletedAnnotation]) return;
    this.bind(pv, claim, false);
  }

  private syncVolume(name: string): void {
    const storedVolume = this.client.get(volumesResource, undefined, name);
    if (!storedVolume) return;
    const pv = asStored<PersistentVolume>(storedVolume);
    const now = rfc3339(this.clock.now());
    const setPhase = (phase: string): void => {
      if (pv.status?.phase !== phase) this.client.updateStatus(volumesResource, { ...pv, status: { phase, lastPhaseTransitionTime: now } });
    };
    const ref = pv.spec?.claimRef;
    if (!ref) return setPhase('Available');
    const storedClaim = this.client.get(claimsResource, ref.namespace, ref.name!); // a claimRef names its claim
    const claim = storedClaim && asStored<PersistentVolumeClaim>(storedClaim);
    if (!ref.uid) return setPhase('Available'); // pre-bound to a claim name: waits for it
    if (claim && claim.metadata.uid === ref.uid) {
      if (claim.spec?.volumeName === pv.metadata.name) return setPhase('Bound');
      return;
    }
    // the claim is gone: released, then reclaimed per policy
    if (pv.spec!.persistentVolumeReclaimPolicy === 'Delete' && !pv.metadata.annotations?.[provisionedByAnnotation]) {
      // no in-tree deleter serves a hand-made volume here: the controller marks it Failed
      const message = `error getting deleter volume plugin for volume "${pv.metadata.name}": no deletable volume plugin matched`;
      if (pv.status?.phase !== 'Failed') this.client.updateStatus(volumesResource, { ...pv, status: { phase: 'Failed', message, lastPhaseTransitionTime: now } });
      this.events.record(pv, 'Warning', 'VolumeFailedDelete', message);
      return;
    }
    if (pv.status?.phase !== 'Released' && pv.status?.phase !== 'Failed') setPhase('Released');
  }
}
