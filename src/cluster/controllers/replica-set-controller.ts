/**
 * The ReplicaSet controller and, with another kind description, the ReplicationController manager
 * (kube-controller-manager 1.32, pkg/controller/replicaset): keeps `spec.replicas` active pods made from
 * the template (`<name>-<5 chars>`, controller owner reference), adopts matching orphans and releases pods
 * that stop matching, deletes the least useful pods first, creates in slow-start batches, and writes
 * status (replicas, fullyLabeled, ready, available after minReadySeconds, observedGeneration,
 * ReplicaFailure) with SuccessfulCreate/SuccessfulDelete/FailedCreate events.
 */
import type { ReplicaSet, ReplicaSetCondition, ReplicaSetStatus } from 'kubernetes-types/apps/v1.js';
import type { ContainerStatus, Pod, ReplicationController } from 'kubernetes-types/core/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { ApiError } from '../errors/status-errors.js';
import { AdmissionPending } from '../admission/controller-admission.js';
import { deepEqual, rfc3339 } from '../registry/system-metadata.js';
import { type LabelSelectorObject, fromSelectorMap, isEmptySelector, selectorMatches } from '../selectors/label-selector-object.js';
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, NewKubeObject, Stored, StoreEvent, WritableObjectMeta } from '../store/object-store.js';

/** The object a replica controller manages: a ReplicaSet or a ReplicationController (their common fields). */
type ReplicaOwner = Stored<ReplicaSet | ReplicationController>;
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController, ReconcileResult } from './controller-scheduler.js';
import type { EventRecorder } from './event-recorder.js';
import { availableAt, isPodActive, isPodAvailable, isPodReady, readyCondition } from './pod-availability.js';
import { copyObject } from '../store/copy-object.js';

/** What differs between ReplicaSets and ReplicationControllers. */
export interface ReplicaKind {
  controllerName: string;
  resource: string;
  bucket: string;
  apiVersion: string;
  kind: string;
  selectorOf(owner: KubeObject): LabelSelectorObject | undefined;
}

export const replicaSetKind: ReplicaKind = {
  controllerName: 'replicaset-controller',
  resource: 'apps/replicasets',
  bucket: 'replicasets.apps',
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  selectorOf: (rs) => asStored<ReplicaSet>(rs).spec?.selector,
};

export const replicationControllerKind: ReplicaKind = {
  controllerName: 'replication-controller',
  resource: 'replicationcontrollers',
  bucket: 'replicationcontrollers',
  apiVersion: 'v1',
  kind: 'ReplicationController',
  selectorOf: (rc) => {
    const selector = asStored<ReplicationController>(rc).spec?.selector;
    return selector ? fromSelectorMap(selector) : undefined;
  },
};

/** kube-controller-manager's burstReplicas: at most this many creations or deletions per sync. */
const burstReplicas = 500;
const deletionCostAnnotation = 'controller.kubernetes.io/pod-deletion-cost';

export function controllerRefOf(object: KubeObject | undefined): { apiVersion: string; kind: string; name: string; uid: string } | undefined {
  return (object?.metadata?.ownerReferences ?? []).find((r) => r.controller === true);
}

const phaseRank: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };
const restarts = (pod: Stored<Pod>): number => (pod.status?.containerStatuses ?? []).reduce((n: number, c: ContainerStatus) => n + (c.restartCount ?? 0), 0);
const time = (t: string | undefined): number => (t ? Date.parse(t) : 0);

/**
 * Orders pods so the ones to delete come first (ActivePodsWithRanks): unscheduled, then pending, not
 * ready, lower deletion cost, more siblings on the same node, ready for less time, more restarts, newer.
 */
export function deletionOrder(pods: Array<Stored<Pod>>, related: Array<Stored<Pod>>): Array<Stored<Pod>> {
  const perNode = new Map<string, number>();
  for (const p of related) if (p.spec?.nodeName && isPodActive(p)) perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + 1);
  const rank = (p: Stored<Pod>): number => (p.spec?.nodeName ? perNode.get(p.spec.nodeName) ?? 0 : 0);
  const cost = (p: KubeObject): number => Number(p.metadata.annotations?.[deletionCostAnnotation] ?? 0) || 0;
  return [...pods].sort((a, b) => {
    if (!a.spec?.nodeName !== !b.spec?.nodeName) return !a.spec?.nodeName ? -1 : 1;
    const pa = phaseRank[a.status?.phase as string] ?? 0;
    const pb = phaseRank[b.status?.phase as string] ?? 0;
    if (pa !== pb) return pa - pb;
    if (isPodReady(a) !== isPodReady(b)) return isPodReady(a) ? 1 : -1;
    if (cost(a) !== cost(b)) return cost(a) - cost(b);
    if (rank(a) !== rank(b)) return rank(b) - rank(a);
    if (isPodReady(a) && isPodReady(b)) {
      const ra = time(readyCondition(a)?.lastTransitionTime);
      const rb = time(readyCondition(b)?.lastTransitionTime);
      if (ra !== rb) return rb - ra;
    }
    if (restarts(a) !== restarts(b)) return restarts(b) - restarts(a);
    return time(b.metadata.creationTimestamp) - time(a.metadata.creationTimestamp);
  });
}

export class ReplicaSetController implements BuiltinController {
  readonly name: string;

  constructor(
    private readonly client: ControllerClient,
    private readonly clock: ClusterClock,
    private readonly events: EventRecorder,
    private readonly kind: ReplicaKind = replicaSetKind,
  ) {
    this.name = kind.controllerName;
  }

  initialKeys(): string[] {
    return this.client.list(this.kind.resource).map((o) => `${o.metadata.namespace}/${o.metadata.name}`);
  }

  keysFor(event: StoreEvent): string[] {
    const { object, oldObject } = event;
    if (event.bucket === this.kind.bucket) return event.type === 'DELETED' ? [] : [`${object.metadata.namespace}/${object.metadata.name}`];
    if (event.bucket !== 'pods') return [];
    const keys = new Set<string>();
    for (const pod of [object, oldObject]) {
      const ref = controllerRefOf(pod);
      if (ref?.kind === this.kind.kind && ref.apiVersion === this.kind.apiVersion) keys.add(`${pod!.metadata.namespace}/${ref.name}`);
    }
    // an orphan (or a pod that just lost its controller) may be adopted by any owner selecting it
    if (event.type !== 'DELETED' && !controllerRefOf(object) && isPodActive(object)) {
      for (const owner of this.client.listShared(this.kind.resource, object.metadata.namespace) as KubeObject[]) {
        if (this.selects(owner, object)) keys.add(`${owner.metadata.namespace}/${owner.metadata.name}`);
      }
    }
    return [...keys];
  }

  private selects(owner: ReplicaOwner, pod: Stored<Pod>): boolean {
    const selector = this.kind.selectorOf(owner);
    return !isEmptySelector(selector) && selectorMatches(selector, pod.metadata.labels);
  }

  reconcile(key: string): ReconcileResult | void {
    const [namespace, name] = key.split('/') as [string, string];
    const stored = this.client.get(this.kind.resource, namespace, name);
    if (!stored) return;
    const owner: ReplicaOwner = asStored<ReplicaSet | ReplicationController>(stored);
    const pods = this.claimPods(owner);
    const active = pods.filter(isPodActive);
    let failure: Error | undefined;
    if (!owner.metadata.deletionTimestamp) failure = this.manageReplicas(owner, active);
    const now = this.clock.now();
    const current = failure === undefined && !owner.metadata.deletionTimestamp ? this.claimPods(owner).filter(isPodActive) : active;
    this.writeStatus(owner, current, failure, now);
    // as upstream returns the error: the key is retried with backoff (1 s doubling, on the cluster clock)
    if (failure) throw failure;
    // look again when a ready pod becomes available
    const minReady: number = owner.spec?.minReadySeconds ?? 0;
    if (minReady > 0) {
      const pending = current.map((p) => availableAt(p, minReady)).filter((at): at is number => at !== undefined && at >= now);
      if (pending.length) return { requeueAfterMs: Math.min(...pending) - now + 1 };
    }
  }

  /** The owner's pods: adopts matching orphans, releases controlled pods that no longer match. */
  private claimPods(owner: ReplicaOwner): KubeObject[] {
    const claimed: KubeObject[] = [];
    const uid = owner.metadata.uid!;
    // read-only scan of the namespace's pods (no copies); writes below work on copies
    for (const pod of this.client.listShared('pods', owner.metadata.namespace) as KubeObject[]) {
      const ref = controllerRefOf(pod);
      const matches = this.selects(owner, pod);
      if (ref?.uid === uid) {
        if (matches || owner.metadata.deletionTimestamp) claimed.push(pod);
        else this.release(pod, uid);
      } else if (!ref && matches && !owner.metadata.deletionTimestamp && !pod.metadata.deletionTimestamp && isPodActive(pod)) {
        const adopted = this.adopt(owner, pod);
        if (adopted) claimed.push(adopted);
      }
    }
    return claimed;
  }

  private ownerReference(owner: ReplicaOwner): OwnerReference {
    return { apiVersion: this.kind.apiVersion, kind: this.kind.kind, name: owner.metadata.name, uid: owner.metadata.uid!, controller: true, blockOwnerDeletion: true };
  }

  private adopt(owner: ReplicaOwner, pod: Stored<Pod>): KubeObject | undefined {
    try {
      const copy = copyObject(pod);
      copy.metadata.ownerReferences = [...(copy.metadata.ownerReferences ?? []), this.ownerReference(owner)];
      return this.client.update('pods', copy);
    } catch (err) {
      if (err instanceof ApiError && (err.code === 404 || err.code === 409)) return undefined;
      throw err;
    }
  }

  private release(pod: Stored<Pod>, uid: string): void {
    try {
      const copy = copyObject(pod);
      copy.metadata.ownerReferences = copy.metadata.ownerReferences!.filter((r) => r.uid !== uid);
      if (copy.metadata.ownerReferences.length === 0) delete copy.metadata.ownerReferences;
      this.client.update('pods', copy);
    } catch (err) {
      if (!(err instanceof ApiError && (err.code === 404 || err.code === 409))) throw err;
    }
  }

  /** Creates or deletes pods toward spec.replicas; returns the error that stopped it, if any. */
  private manageReplicas(owner: ReplicaOwner, active: KubeObject[]): Error | undefined {
    const want: number = owner.spec?.replicas ?? 1;
    const diff = active.length - want;
    if (diff < 0) {
      let remaining = Math.min(-diff, burstReplicas);
      // slow start: batches of 1, 2, 4, … stop at the first batch with a failure
      for (let batch = 1; remaining > 0; batch *= 2) {
        const size = Math.min(batch, remaining);
        let failed: Error | undefined;
        for (let i = 0; i < size; i++) {
          try {
            const pod = this.client.create('pods', owner.metadata.namespace, this.podFor(owner));
            this.events.record(owner, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`);
          } catch (err) {
            if (err instanceof AdmissionPending) throw err;
            failed = err as Error;
            this.events.record(owner, 'Warning', 'FailedCreate', `Error creating: ${failed.message}`);
          }
        }
        remaining -= size;
        if (failed) return failed;
      }
      return undefined;
    }
    if (diff > 0) {
      const victims = deletionOrder(active, active).slice(0, Math.min(diff, burstReplicas));
      let failed: Error | undefined;
      for (const pod of victims) {
        try {
          this.client.delete('pods', pod.metadata.namespace, pod.metadata.name, { preconditions: { uid: pod.metadata.uid } });
          this.events.record(owner, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
        } catch (err) {
          if (err instanceof AdmissionPending) throw err;
          if (err instanceof ApiError && err.code === 404) continue;
          failed = err as Error;
          this.events.record(owner, 'Warning', 'FailedDelete', `Error deleting: ${failed.message}`);
        }
      }
      return failed;
    }
    return undefined;
  }

  private podFor(owner: ReplicaOwner): NewKubeObject {
    const template = owner.spec?.template ?? {};
    const metadata: WritableObjectMeta = {
      generateName: `${owner.metadata.name}-`,
      namespace: owner.metadata.namespace,
      ownerReferences: [this.ownerReference(owner)],
    };
    if (template.metadata?.labels) metadata.labels = { ...template.metadata.labels };
    if (template.metadata?.annotations) metadata.annotations = { ...template.metadata.annotations };
    if (template.metadata?.finalizers) metadata.finalizers = [...template.metadata.finalizers];
    return { apiVersion: 'v1', kind: 'Pod', metadata, spec: copyObject(template.spec ?? {}) };
  }

  private writeStatus(owner: ReplicaOwner, active: KubeObject[], failure: Error | undefined, now: number): void {
    const stored = this.client.get(this.kind.resource, owner.metadata.namespace, owner.metadata.name);
    if (!stored) return;
    const current = asStored<ReplicaSet | ReplicationController>(stored);
    const minReady: number = current.spec?.minReadySeconds ?? 0;
    const templateLabels: Record<string, string> = current.spec?.template?.metadata?.labels ?? {};
    const fullyLabeled = active.filter((p) => Object.entries(templateLabels).every(([k, v]) => p.metadata.labels?.[k] === v)).length;
    const ready = active.filter(isPodReady).length;
    const available = active.filter((p) => isPodAvailable(p, minReady, now)).length;
    const previous: Partial<ReplicaSetStatus> = current.status ?? {};
    let conditions: ReplicaSetCondition[] = [...(previous.conditions ?? [])];
    const failureCondition = conditions.find((c) => c.type === 'ReplicaFailure');
    if (failure && !failureCondition) {
      const diff = active.length - (current.spec?.replicas ?? 1);
      const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
      conditions.push({ type: 'ReplicaFailure', status: 'True', lastTransitionTime: rfc3339(now), reason, message: failure.message });
    } else if (!failure && failureCondition) conditions = conditions.filter((c) => c.type !== 'ReplicaFailure');
    const status: Record<string, unknown> = { replicas: active.length };
    if (fullyLabeled) status.fullyLabeledReplicas = fullyLabeled;
    if (ready) status.readyReplicas = ready;
    if (available) status.availableReplicas = available;
    if (current.metadata.generation) status.observedGeneration = current.metadata.generation;
    if (conditions.length) status.conditions = conditions;
    if (deepEqual(previous, status)) return;
    this.client.updateStatus(this.kind.resource, { ...current, status });
  }
}
