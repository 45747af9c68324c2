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
 */
import type { KubeObject } from '../store/object-store.js';
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

  volumeBindingFor(pod: KubeObject, nodeName: string): VolumeBindingDecision {
    const namespace = pod.metadata.namespace;
    const node = this.client.get('nodes', undefined, nodeName);
    const ephemeral = new Set((pod.spec?.volumes ?? []).filter((v: any) => v?.ephemeral).map((v: any) => `${pod.metadata.name}-${v.name}`));
    for (const name of claimNamesOf(pod)) {
      const claim = this.client.get('persistentvolumeclaims', namespace, name);
      if (!claim && ephemeral.has(name)) return { schedulable: false, reason: `waiting for ephemeral volume controller to create the persistentvolumeclaim "${name}"` };
      if (!claim) return { schedulable: false, reason: `persistentvolumeclaim "${name}" not found` };
      if (claim.metadata.deletionTimestamp) return { schedulable: false, reason: `persistentvolumeclaim "${name}" is being deleted` };
      if (claim.spec?.volumeName) {
        const pv = this.client.get('persistentvolumes', undefined, claim.spec.volumeName);
        if (pv && !volumeFitsNode(pv, node)) return { schedulable: false, reason: 'node(s) had volume node affinity conflict' };
        continue;
      }
      const sc = this.client.get('storage.k8s.io/storageclasses', undefined, claimClass(claim));
      if (sc?.volumeBindingMode !== 'WaitForFirstConsumer') return { schedulable: false, reason: 'pod has unbound immediate PersistentVolumeClaims' };
    }
    return { schedulable: true };
  }

  bindPodVolumes(pod: KubeObject, nodeName: string): void {
    for (const name of claimNamesOf(pod)) {
      const claim = this.client.get('persistentvolumeclaims', pod.metadata.namespace, name);
      if (!claim || claim.spec?.volumeName || claim.metadata.annotations?.[selectedNodeAnnotation] === nodeName) continue;
      const annotations = { ...(claim.metadata.annotations ?? {}), [selectedNodeAnnotation]: nodeName };
      this.client.update('persistentvolumeclaims', { ...claim, metadata: { ...claim.metadata, annotations } });
    }
  }

  claimBlockingPod(pod: KubeObject): string | undefined {
    return claimNamesOf(pod).find((name) => this.client.get('persistentvolumeclaims', pod.metadata.namespace, name)?.status?.phase !== 'Bound');
  }

  podKeysUsingClaim(namespace: string, claimName: string): string[] {
    return this.client
      .list('pods', namespace)
      .filter((p) => claimNamesOf(p).includes(claimName))
      .map((p) => `${p.metadata.namespace}/${p.metadata.name}`);
  }
}
