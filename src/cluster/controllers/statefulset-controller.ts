/**
 * The StatefulSet controller (apps/v1, 1.32 behaviour of pkg/controller/statefulset): pods
 * `<set>-<ordinal>` with stable hostname/subdomain and the controller-revision-hash, pod-name and
 * pod-index labels; claims `<template>-<set>-<ordinal>` from volumeClaimTemplates, created before the
 * pod; OrderedReady (one pod at a time, each Running and Ready before the next, scale-down from the
 * highest ordinal) or Parallel management; RollingUpdate from the highest ordinal down to the partition,
 * or OnDelete; ControllerRevisions; the PVC retention policy's owner references; and the status
 * kubectl rollout status reads.
 */
import type { StatefulSet, StatefulSetSpec, StatefulSetStatus } from 'kubernetes-types/apps/v1.js';
import type { Pod, PodCondition, PodSpec } from 'kubernetes-types/core/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, Stored, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController, ReconcileResult } from './controller-scheduler.js';
import { ensureUpdateRevision, revisionsOf, templateOf, truncateHistory } from './controller-revisions.js';
import { claimDependents } from './controller-adoption.js';
import type { EventRecorder } from './event-recorder.js';
import type { OwnerIndex, OwnerReference } from './owner-index.js';
import { copyObject } from '../store/copy-object.js';

export const revisionLabel = 'controller-revision-hash';
export const podNameLabel = 'statefulset.kubernetes.io/pod-name';
export const podIndexLabel = 'apps.kubernetes.io/pod-index';

const setKind = { apiVersion: 'apps/v1', kind: 'StatefulSet', hashLabel: 'controller.kubernetes.io/hash' };

const isTerminal = (pod: Stored<Pod>): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
/** The counts writeStatus tallies, present while it counts. */
type Counts = Required<Pick<StatefulSetStatus, 'replicas' | 'readyReplicas' | 'availableReplicas' | 'currentReplicas' | 'updatedReplicas'>>;

const isTerminating = (pod: Stored<Pod>): boolean => Boolean(pod.metadata.deletionTimestamp);
export const isRunningAndReady = (pod: Stored<Pod>): boolean =>
  pod.status?.phase === 'Running' && (pod.status?.conditions ?? []).some((c: PodCondition) => c.type === 'Ready' && c.status === 'True');

function readySince(pod: Stored<Pod>): number | undefined {
  const ready = (pod.status?.conditions ?? []).find((c: PodCondition) => c.type === 'Ready' && c.status === 'True');
  return ready?.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : undefined;
}

const controllerOf = (o: KubeObject | undefined): OwnerReference | undefined =>
  (o?.metadata.ownerReferences ?? []).find((r) => r.controller === true && r.kind === 'StatefulSet' && r.apiVersion === 'apps/v1');

/** The ordinal of a pod named `<set>-<n>`, or -1. */
export function ordinalOf(setName: string, podName: string): number {
  const m = new RegExp(`^${setName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-(\\d+)$`).exec(podName);
  return m ? Number(m[1]) : -1;
}

export const claimName = (template: string, setName: string, ordinal: number): string => `${template}-${setName}-${ordinal}`;

export class StatefulSetController implements BuiltinController {
  readonly name = 'statefulset-controller';

  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock, private readonly events: EventRecorder, private readonly owners: OwnerIndex) {}

  initialKeys(): string[] {
    return this.client.list('apps/statefulsets').map((s) => `${s.metadata.namespace}/${s.metadata.name}`);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.bucket === 'statefulsets.apps') return event.type === 'DELETED' ? [] : [`${event.object.metadata.namespace}/${event.object.metadata.name}`];
    if (event.bucket !== 'pods') return [];
    const owner = controllerOf(event.object) ?? controllerOf(event.oldObject);
    if (owner) return [`${event.object.metadata.namespace}/${owner.name}`];
    // an orphan: the set its name points at may adopt it
    const set = /^(.+)-\d+$/.exec(event.object.metadata.name)?.[1];
    return set && event.type !== 'DELETED' && !(event.object.metadata.ownerReferences ?? []).some((r) => r.controller) ? [`${event.object.metadata.namespace}/${set}`] : [];
  }

  private podsOf(set: Stored<StatefulSet>): KubeObject[] {
    return this.owners
      .dependentsIn(set.metadata.uid!, 'pods')
      .map((l) => this.client.get('pods', l.namespace, l.name))
      .filter((p): p is KubeObject => p !== undefined && controllerOf(p)?.uid === set.metadata.uid);
  }

  reconcile(key: string): ReconcileResult | void {
    const [namespace, name] = key.split('/') as [string, string];
    const stored = this.client.get('apps/statefulsets', namespace, name);
    const set = stored && asStored<StatefulSet>(stored);
    if (!set || set.metadata.deletionTimestamp) return;
    claimDependents(this.client, 'pods', set, setKind, (pod) => ordinalOf(set.metadata.name, pod.metadata.name) >= 0);
    claimDependents(this.client, 'apps/controllerrevisions', set, setKind);
    let revisions = revisionsOf(this.client, this.owners, set);
    const updateRevision = ensureUpdateRevision(this.client, set, setKind, revisions);
    revisions = revisionsOf(this.client, this.owners, set);
    const currentRevision = revisions.find((r) => r.metadata.name === set.status?.currentRevision) ?? updateRevision;
    const requeue = this.sync(set, currentRevision, updateRevision) ?? this.nextAvailability(set);
    this.writeStatus(set, currentRevision, updateRevision);
    const live = new Set([currentRevision.metadata.name, updateRevision.metadata.name, ...this.podsOf(set).map((p) => p.metadata.labels?.[revisionLabel] ?? '')]);
    truncateHistory(this.client, revisionsOf(this.client, this.owners, set), live, set.spec?.revisionHistoryLimit ?? 10);
    return requeue;
  }

  /** One pass of the set's update (create, delete, roll); returns early where OrderedReady must wait. */
  private sync(set: Stored<StatefulSet>, currentRevision: KubeObject, updateRevision: KubeObject): ReconcileResult | void {
    const spec: Partial<StatefulSetSpec> = set.spec ?? {};
    const replicas: number = spec.replicas ?? 1;
    const start: number = spec.ordinals?.start ?? 0;
    const monotonic = spec.podManagementPolicy !== 'Parallel';
    const pods = this.podsOf(set);
    const byOrdinal = new Map<number, KubeObject>();
    for (const pod of pods) {
      const ordinal = ordinalOf(set.metadata.name, pod.metadata.name);
      if (ordinal >= 0) byOrdinal.set(ordinal, pod);
    }
    const inRange = (ordinal: number): boolean => ordinal >= start && ordinal < start + replicas;

    // bring each wanted ordinal up, in order
    for (let ordinal = start; ordinal < start + replicas; ordinal++) {
      const pod = byOrdinal.get(ordinal);
      if (pod && isTerminal(pod) && !isTerminating(pod)) {
        this.deletePod(set, pod);
        if (monotonic) return;
        continue;
      }
      if (!pod) {
        this.createPod(set, ordinal, currentRevision, updateRevision);
        if (monotonic) return;
        continue;
      }
      this.ensureClaims(set, pod, ordinal, inRange(ordinal));
      if (monotonic && (isTerminating(pod) || !this.isAvailable(set, pod))) return this.waitForAvailability(set, pod);
    }

    // condemned pods: highest ordinal first
    const condemned = [...byOrdinal.entries()].filter(([o]) => !inRange(o)).sort(([a], [b]) => b - a);
    for (const [ordinal, pod] of condemned) {
      this.ensureClaims(set, pod, ordinal, false);
      if (isTerminating(pod)) {
        if (monotonic) return;
        continue;
      }
      this.deletePod(set, pod);
      if (monotonic) return;
    }

    if (spec.updateStrategy?.type !== 'RollingUpdate') return;
    const partition: number = spec.updateStrategy.rollingUpdate?.partition ?? 0;
    for (let ordinal = start + replicas - 1; ordinal >= start + partition; ordinal--) {
      const pod = byOrdinal.get(ordinal);
      if (!pod) return;
      if (pod.metadata.labels?.[revisionLabel] !== updateRevision.metadata.name && !isTerminating(pod)) {
        this.deletePod(set, pod);
        return;
      }
      if (isTerminating(pod) || !isRunningAndReady(pod)) return;
    }
  }

  private isAvailable(set: Stored<StatefulSet>, pod: Stored<Pod>): boolean {
    if (!isRunningAndReady(pod)) return false;
    const minReady = (set.spec?.minReadySeconds ?? 0) * 1000;
    return minReady === 0 || (readySince(pod) ?? 0) + minReady <= this.clock.now();
  }

  /** When a ready pod not yet available (minReadySeconds) becomes available: look again then. */
  private nextAvailability(set: Stored<StatefulSet>): ReconcileResult | void {
    const minReady = (set.spec?.minReadySeconds ?? 0) * 1000;
    if (minReady === 0) return;
    const due = this.podsOf(set)
      .filter((p) => isRunningAndReady(p) && !this.isAvailable(set, p))
      .map((p) => (readySince(p) ?? 0) + minReady);
    if (due.length) return { requeueAfterMs: Math.max(0, Math.min(...due) - this.clock.now()) };
  }

  private waitForAvailability(set: Stored<StatefulSet>, pod: Stored<Pod>): ReconcileResult | void {
    const since = readySince(pod);
    const minReady = (set.spec?.minReadySeconds ?? 0) * 1000;
    if (isRunningAndReady(pod) && since !== undefined && minReady > 0) return { requeueAfterMs: Math.max(0, since + minReady - this.clock.now()) };
  }

  /** The pod for `ordinal`, from the current revision below the partition and the update revision above. */
  private createPod(set: Stored<StatefulSet>, ordinal: number, currentRevision: KubeObject, updateRevision: KubeObject): void {
    const spec: Partial<StatefulSetSpec> = set.spec ?? {};
    const partition = spec.updateStrategy?.rollingUpdate?.partition ?? 0;
    const useCurrent = spec.updateStrategy?.type === 'RollingUpdate' && ordinal < (spec.ordinals?.start ?? 0) + partition;
    const revision = useCurrent ? currentRevision : updateRevision;
    const template = copyObject(templateOf(revision));
    const name = `${set.metadata.name}-${ordinal}`;
    for (const claim of this.claimTemplates(set)) this.ensureClaim(set, claim, ordinal, undefined, true);
    const podSpec: Partial<PodSpec> = template.spec ?? {};
    const claims = this.claimTemplates(set);
    const claimVolumes = claims.map((c) => ({ name: c.metadata.name, persistentVolumeClaim: { claimName: claimName(c.metadata.name, set.metadata.name, ordinal) } }));
    podSpec.volumes = [...claimVolumes, ...(podSpec.volumes ?? []).filter((v) => !claims.some((c) => c.metadata.name === v.name))];
    if (podSpec.volumes.length === 0) delete podSpec.volumes;
    podSpec.hostname = name;
    if (spec.serviceName) podSpec.subdomain = spec.serviceName;
    const pod: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: set.metadata.namespace,
        labels: { ...(template.metadata?.labels ?? {}), [revisionLabel]: revision.metadata.name, [podNameLabel]: name, [podIndexLabel]: String(ordinal) },
        ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}),
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: set.metadata.name, uid: set.metadata.uid!, controller: true, blockOwnerDeletion: true }],
      },
      spec: podSpec,
    };
    try {
      this.client.create('pods', set.metadata.namespace, pod);
      this.events.record(set, 'Normal', 'SuccessfulCreate', `create Pod ${name} in StatefulSet ${set.metadata.name} successful`);
    } catch (err) {
      this.events.record(set, 'Warning', 'FailedCreate', `create Pod ${name} in StatefulSet ${set.metadata.name} failed error: ${(err as Error).message}`);
      throw err;
    }
  }

  private deletePod(set: Stored<StatefulSet>, pod: Stored<Pod>): void {
    this.client.delete('pods', pod.metadata.namespace, pod.metadata.name);
    this.events.record(set, 'Normal', 'SuccessfulDelete', `delete Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`);
  }

  private claimTemplates(set: Stored<StatefulSet>): KubeObject[] {
    // the templates with a name, each read as the claim object it stamps out
    return (set.spec?.volumeClaimTemplates ?? []).filter((c) => c?.metadata?.name) as KubeObject[];
  }

  /** The pod's claims exist and carry the owner references the retention policy asks for. */
  private ensureClaims(set: Stored<StatefulSet>, pod: KubeObject, ordinal: number, inRange: boolean): void {
    for (const claim of this.claimTemplates(set)) this.ensureClaim(set, claim, ordinal, pod, inRange);
  }

  private ensureClaim(set: Stored<StatefulSet>, template: KubeObject, ordinal: number, pod: KubeObject | undefined, inRange: boolean): void {
    const name = claimName(template.metadata.name, set.metadata.name, ordinal);
    const namespace = set.metadata.namespace;
    const existing = this.client.get('persistentvolumeclaims', namespace, name);
    if (!existing) {
      const claim: KubeObject = {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: {
          name,
          namespace,
          labels: { ...(template.metadata.labels ?? {}), ...(set.spec?.selector?.matchLabels ?? {}) },
          ...(template.metadata.annotations ? { annotations: template.metadata.annotations } : {}),
        },
        spec: copyObject(template.spec ?? {}),
      };
      if (Object.keys(claim.metadata.labels!).length === 0) delete claim.metadata.labels;
      claim.metadata.ownerReferences = this.claimOwners(set, claim, pod, inRange);
      if (claim.metadata.ownerReferences.length === 0) delete claim.metadata.ownerReferences;
      try {
        this.client.create('persistentvolumeclaims', namespace, claim);
        this.events.record(set, 'Normal', 'SuccessfulCreate', `create Claim ${name} Pod ${set.metadata.name}-${ordinal} in StatefulSet ${set.metadata.name} success`);
      } catch (err) {
        this.events.record(set, 'Warning', 'FailedCreate', `create Claim ${name} for Pod ${set.metadata.name}-${ordinal} in StatefulSet ${set.metadata.name} failed error: ${(err as Error).message}`);
        throw err;
      }
      return;
    }
    if (existing.metadata.deletionTimestamp) return;
    const wanted = this.claimOwners(set, existing, pod, inRange);
    if (JSON.stringify(wanted) === JSON.stringify(existing.metadata.ownerReferences ?? [])) return;
    const next: KubeObject = { ...existing, metadata: { ...existing.metadata, ownerReferences: wanted } };
    if (wanted.length === 0) delete next.metadata.ownerReferences;
    this.client.update('persistentvolumeclaims', next);
  }

  /**
   * A claim's owner references under persistentVolumeClaimRetentionPolicy: the set when whenDeleted is
   * Delete (while the pod is in range), the pod when whenScaled is Delete and the pod is scaled away.
   */
  private claimOwners(set: Stored<StatefulSet>, claim: KubeObject, pod: KubeObject | undefined, inRange: boolean): OwnerReference[] {
    const policy = set.spec?.persistentVolumeClaimRetentionPolicy ?? {};
    const others = (claim.metadata.ownerReferences ?? []).filter((r) => r.uid !== set.metadata.uid && !(r.kind === 'Pod' && r.apiVersion === 'v1' && r.name === `${set.metadata.name}-${ordinalOf(set.metadata.name, r.name)}`));
    // KEP-1847: the set's reference is a controller reference that does not block the set's deletion
    const setRef: OwnerReference = { apiVersion: 'apps/v1', kind: 'StatefulSet', name: set.metadata.name, uid: set.metadata.uid!, controller: true };
    const podRef = pod ? ({ apiVersion: 'v1', kind: 'Pod', name: pod.metadata.name, uid: pod.metadata.uid } as OwnerReference) : undefined;
    const refs = [...others];
    const scaledDown = !inRange;
    if (policy.whenScaled === 'Delete' && scaledDown) {
      if (podRef) refs.push(podRef);
    } else if (policy.whenDeleted === 'Delete') refs.push(setRef);
    return refs;
  }

  private writeStatus(set: Stored<StatefulSet>, currentRevision: KubeObject, updateRevision: KubeObject): void {
    const stored = this.client.get('apps/statefulsets', set.metadata.namespace, set.metadata.name);
    if (!stored) return;
    const fresh = asStored<StatefulSet>(stored);
    const pods = this.podsOf(fresh);
    const status: StatefulSetStatus & Counts = {
      observedGeneration: fresh.metadata.generation,
      replicas: 0,
      readyReplicas: 0,
      currentReplicas: 0,
      updatedReplicas: 0,
      currentRevision: currentRevision.metadata.name,
      updateRevision: updateRevision.metadata.name,
      collisionCount: fresh.status?.collisionCount ?? 0,
      availableReplicas: 0,
    };
    for (const pod of pods) {
      status.replicas++;
      if (isRunningAndReady(pod)) status.readyReplicas++;
      if (this.isAvailable(fresh, pod)) status.availableReplicas++;
      if (isTerminating(pod)) continue;
      const revision = pod.metadata.labels?.[revisionLabel];
      if (revision === currentRevision.metadata.name) status.currentReplicas++;
      if (revision === updateRevision.metadata.name) status.updatedReplicas++;
    }
    // a finished rolling update makes the update revision current
    if (fresh.spec?.updateStrategy?.type === 'RollingUpdate' && status.updatedReplicas === status.replicas && status.readyReplicas === status.replicas) {
      status.currentReplicas = status.updatedReplicas;
      status.currentRevision = status.updateRevision;
    }
    const counted: StatefulSetStatus = status;
    for (const k of ['readyReplicas', 'currentReplicas', 'updatedReplicas'] as const) if (counted[k] === 0) delete counted[k];
    if (fresh.status?.conditions) status.conditions = fresh.status.conditions;
    if (JSON.stringify(status) === JSON.stringify(fresh.status ?? {})) return;
    this.client.updateStatus('apps/statefulsets', { ...fresh, status });
  }
}
