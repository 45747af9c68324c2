/**
 * The ephemeral volume controller (pkg/controller/volume/ephemeral, 1.32): for each generic ephemeral
 * volume of a pod (`volumes[].ephemeral.volumeClaimTemplate`) it creates the claim `<pod>-<volume>`,
 * owned by the pod (controller reference), so the claim lives and dies with the pod. A claim of that
 * name the pod does not own is left alone (the pod cannot start, as upstream).
 */
import type { PersistentVolumeClaimTemplate, Pod, Volume } from 'kubernetes-types/core/v1.js';
import type { KubeObject, Stored, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController } from './controller-scheduler.js';
import type { EventRecorder } from './event-recorder.js';
import { copyObject } from '../store/copy-object.js';

/** The claim name of a pod's generic ephemeral volume. */
export const ephemeralClaimName = (pod: KubeObject, volumeName: string): string => `${pod.metadata.name}-${volumeName}`;

/** A generic ephemeral volume: the claim template it makes its claim from. */
type EphemeralVolume = Volume & { ephemeral: { volumeClaimTemplate: PersistentVolumeClaimTemplate } };

const ephemeralVolumes = (pod: Stored<Pod>): EphemeralVolume[] =>
  (pod.spec?.volumes ?? []).filter((v: Volume | undefined): v is EphemeralVolume => Boolean(v?.ephemeral?.volumeClaimTemplate));

export class EphemeralVolumeController implements BuiltinController {
  readonly name = 'ephemeral-volume-controller';

  constructor(private readonly client: ControllerClient, private readonly events: EventRecorder) {}

  initialKeys(): string[] {
    return this.client.list('pods').filter((p) => ephemeralVolumes(p).length).map((p) => `${p.metadata.namespace}/${p.metadata.name}`);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.bucket !== 'pods' || event.type === 'DELETED' || ephemeralVolumes(event.object).length === 0) return [];
    return [`${event.object.metadata.namespace}/${event.object.metadata.name}`];
  }

  reconcile(key: string): void {
    const [namespace, name] = key.split('/') as [string, string];
    const pod = this.client.get('pods', namespace, name);
    if (!pod || pod.metadata.deletionTimestamp) return;
    for (const volume of ephemeralVolumes(pod)) {
      const claimName = ephemeralClaimName(pod, volume.name);
      if (this.client.get('persistentvolumeclaims', namespace, claimName)) continue;
      const template = volume.ephemeral.volumeClaimTemplate;
      const claim: KubeObject = {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: {
          name: claimName,
          namespace,
          ...(template.metadata?.labels ? { labels: template.metadata.labels } : {}),
          ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
          ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, uid: pod.metadata.uid!, controller: true, blockOwnerDeletion: true }],
        },
        spec: copyObject(template.spec ?? {}),
      };
      try {
        this.client.create('persistentvolumeclaims', namespace, claim);
      } catch (err) {
        this.events.record(pod, 'Warning', 'FailedBinding', `create PVC ${claimName}: ${(err as Error).message}`);
        throw err;
      }
    }
  }
}
