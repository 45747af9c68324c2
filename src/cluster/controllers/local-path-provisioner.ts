/**
 * kind's storage provisioner, rancher.io/local-path (local-path-provisioner v0.0.30 as kind 1.32 ships
 * it), simulated: a claim handed to it (storage-provisioner annotation) on a node the scheduler chose
 * gets a PersistentVolume `pvc-<claim uid>` — a hostPath under /var/local-path-provisioner with node
 * affinity to that node, the requested capacity, the class's reclaim policy — with the Provisioning and
 * ProvisioningSucceeded events; a released volume whose policy is Delete is removed.
 */
import type { PersistentVolume, PersistentVolumeClaim } from 'kubernetes-types/core/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, Stored, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController } from './controller-scheduler.js';
import type { EventRecorder } from './event-recorder.js';
import { claimClass, provisionedByAnnotation, provisionerAnnotation, selectedNodeAnnotation } from './persistent-volume-binder.js';

export const localPathProvisioner = 'rancher.io/local-path';
/** The event source kind shows for the provisioner (its leader identity). */
export const localPathComponent = 'rancher.io/local-path_local-path-provisioner-7dc846544d-kbx5f_5b6e7a5c-6c1a-4d7e-9d9e-4f1b2c3d4e5f';
const basePath = '/var/local-path-provisioner';

export class LocalPathProvisioner implements BuiltinController {
  readonly name = 'local-path-provisioner';

  constructor(private readonly client: ControllerClient, private readonly events: EventRecorder) {}

  initialKeys(): string[] {
    return [
      ...this.client.list('persistentvolumeclaims').map((c) => `pvc:${c.metadata.namespace}/${c.metadata.name}`),
      ...this.client.list('persistentvolumes').map((v) => `pv:${v.metadata.name}`),
    ];
  }

  keysFor(event: StoreEvent): string[] {
    if (event.type === 'DELETED') return [];
    const o = event.object;
    if (event.bucket === 'persistentvolumeclaims') return [`pvc:${o.metadata.namespace}/${o.metadata.name}`];
    if (event.bucket === 'persistentvolumes') return [`pv:${o.metadata.name}`];
    return [];
  }

  reconcile(key: string): void {
    if (key.startsWith('pv:')) return this.reclaim(key.slice(3));
    const [namespace, name] = key.slice(4).split('/') as [string, string];
    const stored = this.client.get('persistentvolumeclaims', namespace, name);
    const claim = stored && asStored<PersistentVolumeClaim>(stored);
    if (!claim || claim.metadata.deletionTimestamp || claim.spec?.volumeName) return;
    if (claim.metadata.annotations?.[provisionerAnnotation] !== localPathProvisioner) return;
    const sc = this.client.get('storage.k8s.io/storageclasses', undefined, claimClass(claim));
    if (!sc || sc.provisioner !== localPathProvisioner) return;
    const volumeName = `pvc-${claim.metadata.uid}`;
    if (this.client.get('persistentvolumes', undefined, volumeName)) return;
    const node: string | undefined = claim.metadata.annotations?.[selectedNodeAnnotation];
    this.events.record(claim, 'Normal', 'Provisioning', `External provisioner is provisioning volume for claim "${namespace}/${name}"`);
    if (!node) {
      this.events.record(claim, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass "${sc.metadata.name}": configuration error, no node was specified`);
      return;
    }
    const modes: string[] = claim.spec?.accessModes ?? [];
    if (modes.some((m) => m !== 'ReadWriteOnce' && m !== 'ReadWriteOncePod')) {
      this.events.record(claim, 'Warning', 'ProvisioningFailed', `failed to provision volume with StorageClass "${sc.metadata.name}": Only support ReadWriteOnce, ReadWriteOncePod access mode`);
      return;
    }
    this.client.create('persistentvolumes', undefined, this.volumeFor(claim, sc, volumeName, node));
    this.events.record(claim, 'Normal', 'ProvisioningSucceeded', `Successfully provisioned volume ${volumeName}`);
  }

  private volumeFor(claim: Stored<PersistentVolumeClaim>, sc: KubeObject, volumeName: string, node: string): KubeObject {
    return {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: {
        name: volumeName,
        annotations: { 'local.path.provisioner/selected-node': node, [provisionedByAnnotation]: localPathProvisioner },
      },
      spec: {
        accessModes: claim.spec?.accessModes ?? ['ReadWriteOnce'],
        capacity: { storage: claim.spec?.resources?.requests?.storage },
        claimRef: { apiVersion: 'v1', kind: 'PersistentVolumeClaim', name: claim.metadata.name, namespace: claim.metadata.namespace, resourceVersion: claim.metadata.resourceVersion, uid: claim.metadata.uid },
        hostPath: { path: `${basePath}/${volumeName}_${claim.metadata.namespace}_${claim.metadata.name}`, type: 'DirectoryOrCreate' },
        nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [node] }] }] } },
        persistentVolumeReclaimPolicy: sc.reclaimPolicy ?? 'Delete',
        storageClassName: sc.metadata.name,
        volumeMode: claim.spec?.volumeMode ?? 'Filesystem',
      },
    };
  }

  /** A released local-path volume with the Delete policy: its directory is removed, then the volume. */
  private reclaim(name: string): void {
    const storedVolume = this.client.get('persistentvolumes', undefined, name);
    const pv = storedVolume && asStored<PersistentVolume>(storedVolume);
    if (!pv || pv.metadata.deletionTimestamp) return;
    if (pv.metadata.annotations?.[provisionedByAnnotation] !== localPathProvisioner) return;
    if (pv.status?.phase !== 'Released' || pv.spec?.persistentVolumeReclaimPolicy !== 'Delete') return;
    this.client.delete('persistentvolumes', undefined, name);
  }
}
