/**
 * Where pods meet storage — the hook points a scheduler and a kubelet call (the scheduler's
 * VolumeBinding plugin and the kubelet's volume manager, reduced to what the local cluster needs):
 * - `volumeBindingFor(pod, node)` (Filter): can the pod's claims be used on `node`? Missing or deleting
 *   claims, unbound Immediate claims and bound volumes whose node affinity excludes the node say no,
 *   with the scheduler's reason text.
 * - `bindPodVolumes(pod, node)` (PreBind): annotates the pod's unbound WaitForFirstConsumer claims with
 *   `volume.kubernetes.io/selected-node` so the binder and the provisioner act for that node.
 * - `claimBlockingPod(pod)` (PreBind wait / kubelet mount wait): the first claim not yet Bound; while
 *   there is one the pod stays Pending (unbound to a node) or ContainerCreating.
 * - `podKeysUsingClaim(namespace, claim)`: `namespace/name` keys of the pods to look at again when a
 *   claim changes.
 * `volumeBindingPlugin()` and `volumeMountGate()` wrap them as a scheduler plugin and a kubelet gate.
 */
import type { PersistentVolumeClaim, Pod, Volume } from 'kubernetes-types/core/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, Stored } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import { selectedNodeAnnotation, volumeFitsNode, claimClass } from './persistent-volume-binder.js';
import { claimNamesOf } from './volume-protection.js';

export interface VolumeBindingDecision {
  /** False when the pod cannot run on the node because of its volumes. */
  schedulable: boolean;
  /** The scheduler's reason (for FailedScheduling: `0/1 nodes are available: <reason>.`). */
  reason?: string;
}

export class VolumeScheduling {
  constructor(private readonly client: ControllerClient) {}

  volumeBindingFor(pod: Stored<Pod>, nodeName: string): VolumeBindingDecision {
    const namespace = pod.metadata.namespace;
    const ephemeral = new Set(((pod.spec?.volumes ?? []) as Array<Volume | undefined>).filter((v) => v?.ephemeral).map((v) => `${pod.metadata.name}-${v!.name}`));
    const claims: Array<Stored<PersistentVolumeClaim>> = [];
    // claim-level checks first (the scheduler's PreFilter), then the node (Filter)
    for (const name of claimNamesOf(pod)) {
     const stored = this.client.get('persistentvolumeclaims', namespace, name);
      const claim = stored && asStored<PersistentVolumeClaim>(stored);
      if (!claim && ephemeral.has(name)) return { schedulable: false, reason: `waiting for ephemeral volume controller to create the persistentvolumeclaim "${name}"` };
      if (!claim) return { schedulable: false, reason: `persistentvolumeclaim "${name}" not found` };
      if (claim.metadata.deletionTimestamp) return { schedulable: false, reason: `persistentvolumeclaim "${name}" is being deleted` };
      if (!claim.spec?.volumeName) {
        const sc = this.client.get('storage.k8s.io/storageclasses', undefined, claimClass(claim));
        if (sc?.volumeBindingMode !== 'WaitForFirstConsumer') return { schedulable: false, reason: 'pod has unbound immediate PersistentVolumeClaims' };
      }
      claims.push(claim);
    }
    const node = this.client.get('nodes', undefined, nodeName);
    for (const claim of claims) {
      if (!claim.spec?.volumeName) continue;
      const pv = this.client.get('persistentvolumes', undefined, claim.spec.volumeName);
      if (pv && !volumeFitsNode(pv, node)) return { schedulable: false, reason: 'node(s) had volume node affinity conflict' };
    }
    return { schedulable: true };
  }

  bindPodVolumes(pod: KubeObject, nodeName: string): void {
    for (const name of claimNamesOf(pod)) {
     const stored = this.client.get('persistentvolumeclaims', pod.metadata.namespace, name);
      const claim = stored && asStored<PersistentVolumeClaim>(stored);
      if (!claim || claim.spec?.volumeName || claim.metadata.annotations?.[selectedNodeAnnotation] === nodeName) continue;
      const annotations = { ...(claim.metadata.annotations ?? {}), [selectedNodeAnnotation]: nodeName };
      this.client.update('persistentvolumeclaims', { ...claim, metadata: { ...claim.metadata, annotations } });
    }
  }

  claimBlockingPod(pod: KubeObject): string | undefined {
    return claimNamesOf(pod).find((name) => {
      const claim = this.client.get('persistentvolumeclaims', pod.metadata.namespace, name);
      return (claim && asStored<PersistentVolumeClaim>(claim).status?.phase) !== 'Bound';
    });
  }

  /** The pods of `namespace` whose volumes use `claimName` (to requeue on the scheduler, or on their node's kubelet). */
  podsUsingClaim(namespace: string, claimName: string): KubeObject[] {
    return this.client.list('pods', namespace).filter((p) => claimNamesOf(p).includes(claimName));
  }

  podKeysUsingClaim(namespace: string, claimName: string): string[] {
    return this.podsUsingClaim(namespace, claimName).map((p) => `${p.metadata.namespace}/${p.metadata.name}`);
  }
}

/** A scheduler filter verdict (the shape of the default scheduler's `FilterFailure`). */
export interface VolumeFilterFailure {
  code: 'Unschedulable' | 'UnschedulableAndUnresolvable';
  reasons: string[];
}

/** Reasons that fail the whole scheduling cycle (PreFilter) rather than one node (Filter). */
const preFilterReason = (reason: string): boolean => !reason.startsWith('node(s)');

/**
 * kube-scheduler's VolumeBinding plugin over these hooks, in the shape of a `SchedulerPlugin`
 * (name, preFilter, filter, preBind) for a scheduler that takes plugins.
 */
export function volumeBindingPlugin(volumes: VolumeScheduling): {
  name: string;
  preFilter(pod: KubeObject): VolumeFilterFailure | undefined;
  filter(pod: KubeObject, info: { node: KubeObject }): VolumeFilterFailure | undefined;
  preBind(pod: KubeObject, nodeName: string): void;
} {
  const verdict = (pod: KubeObject, nodeName: string, cycleWide: boolean): VolumeFilterFailure | undefined => {
    const decision = volumes.volumeBindingFor(pod, nodeName);
    if (decision.schedulable || !decision.reason || preFilterReason(decision.reason) !== cycleWide) return undefined;
    return { code: 'UnschedulableAndUnresolvable', reasons: [decision.reason] };
  };
  return {
    name: 'VolumeBinding',
    // claim-level problems do not depend on the node: any node name gives the same answer
    preFilter: (pod) => verdict(pod, '', true),
    filter: (pod, info) => verdict(pod, info.node.metadata.name, false),
    preBind: (pod, nodeName) => volumes.bindPodVolumes(pod, nodeName),
  };
}

/**
 * The kubelet's wait for a pod's volumes, in the shape of a kubelet pod gate: the reason to wait
 * (the kubelet's "PVC is not bound" text) while a claim is not Bound, else undefined.
 */
export function volumeMountGate(volumes: VolumeScheduling): (pod: KubeObject, nodeName: string) => string | undefined {
  return (pod) => {
    const claim = volumes.claimBlockingPod(pod);
    return claim === undefined ? undefined : `error processing PVC ${pod.metadata.namespace}/${claim}: PVC is not bound`;
  };
}
