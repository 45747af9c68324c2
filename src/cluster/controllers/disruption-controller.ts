/**
 * The disruption controller: keeps each PodDisruptionBudget's status — expectedPods, currentHealthy,
 * desiredHealthy, disruptionsAllowed, observedGeneration, the disruptedPods the eviction subresource
 * recorded (dropped once the pod is going or after two minutes) and the DisruptionAllowed condition
 * (SufficientPods / InsufficientPods / SyncFailed). Percentages and maxUnavailable need the scale of the
 * pods' controllers, found through their owner references (a ReplicaSet's Deployment, or any owner
 * serving /scale).
 */
import type { Condition, OwnerReference } from 'kubernetes-types/meta/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { rfc3339 } from '../registry/system-metadata.js';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, Stored, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController, ReconcileResult } from './controller-scheduler.js';
import type { EventRecorder } from './event-recorder.js';
import { isPodReady, labelSelectorSelects } from './service-pods.js';

/** How long an eviction's entry in disruptedPods holds a pod out of the healthy count (DeletionTimeout). */
export const disruptedPodTimeoutMs = 2 * 60 * 1000;

const key = (o: KubeObject): string => `${o.metadata.namespace}/${o.metadata.name}`;
const budgets = 'policy/poddisruptionbudgets';

/** `n` or `p%` of `total` (percentages rounded up, as GetScaledValueFromIntOrPercent with roundUp). */
function scaled(value: number | string, total: number): number {
  if (typeof value === 'number') return value;
  return Math.ceil((parseInt(value, 10) * total) / 100);
}

/** A budget that cannot be computed, with the Warning event reason the controller records for it. */
class SyncError extends Error {
  constructor(message: string, readonly reason: string) {
    super(message);
  }
}

export class DisruptionController implements BuiltinController {
  readonly name = 'disruption-controller';

  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock, private readonly events?: EventRecorder) {}

  initialKeys(): string[] {
    return this.client.list(budgets).map(key);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.bucket === 'poddisruptionbudgets.policy') return event.type === 'DELETED' ? [] : [key(event.object)];
    const namespace = event.object.metadata.namespace;
    if (!namespace) return [];
    if (event.bucket === 'pods') {
      const labels = [event.object.metadata.labels, event.oldObject?.metadata.labels];
      return this.client.list(budgets, namespace).filter((b) => labels.some((l) => labelSelectorSelects(asStored<PodDisruptionBudget>(b).spec?.selector, l))).map(key);
    }
    // a controller's replica count feeds expectedPods of the budgets over its pods
    if (['deployments.apps', 'replicasets.apps', 'statefulsets.apps', 'replicationcontrollers'].includes(event.bucket)) {
      return this.client.list(budgets, namespace).map(key);
    }
    return [];
  }

  reconcile(budgetKey: string): ReconcileResult | void {
    const [namespace, name] = budgetKey.split('/') as [string, string];
    const stored = this.client.get(budgets, namespace, name);
    const pdb = stored && asStored<PodDisruptionBudget>(stored);
    if (!pdb || pdb.metadata.deletionTimestamp) return;
    const now = this.clock.now();
    const pods = this.client.list('pods', namespace).filter((p) => labelSelectorSelects(pdb.spec?.selector, p.metadata.labels));
    const { disrupted, recheckAt } = this.disruptedPods(pdb, pods, now);
    if (pods.length === 0 && pdb.status?.observedGeneration !== pdb.metadata.generation) this.events?.record(pdb, 'Normal', 'NoPods', 'No matching pods found');
    let status: Record<string, unknown>;
    try {
      const { expected, desired } = this.desiredHealthy(pdb, pods);
      const healthy = pods.filter((p) => !p.metadata.deletionTimestamp && !(p.metadata.name in disrupted) && isPodReady(p)).length;
      const allowed = expected > 0 && healthy - desired > 0 ? healthy - desired : 0;
      status = {
        observedGeneration: pdb.metadata.generation,
        ...(Object.keys(disrupted).length ? { disruptedPods: disrupted } : {}),
        disruptionsAllowed: allowed,
        currentHealthy: healthy,
        desiredHealthy: desired,
        expectedPods: expected,
        conditions: this.condition(pdb, allowed > 0 ? { status: 'True', reason: 'SufficientPods', message: '' } : { status: 'False', reason: 'InsufficientPods', message: '' }, now),
      };
    } catch (err) {
      if (!(err instanceof SyncError)) throw err;
      if ((pdb.status?.conditions ?? []).find((c: Condition) => c.type === 'DisruptionAllowed')?.message !== err.message) this.events?.record(pdb, 'Warning', err.reason, err.message);
      // failSafe: nothing may be disrupted while the budget cannot be computed
      status = {
        ...(pdb.status ?? {}),
        observedGeneration: pdb.metadata.generation,
        disruptionsAllowed: 0,
        conditions: this.condition(pdb, { status: 'False', reason: 'SyncFailed', message: err.message }, now),
      };
    }
    if (JSON.stringify(status) !== JSON.stringify(pdb.status ?? {})) this.client.updateStatus(budgets, { ...pdb, status });
    if (recheckAt !== undefined) return { requeueAfterMs: Math.max(0, recheckAt - now) };
  }

  /** The DisruptionAllowed condition, keeping lastTransitionTime while status and reason hold. */
  private condition(pdb: Stored<PodDisruptionBudget>, next: { status: string; reason: string; message: string }, now: number): unknown[] {
    const current = (pdb.status?.conditions ?? []).find((c: Condition) => c.type === 'DisruptionAllowed');
    const unchanged = current && current.status === next.status;
    return [
      {
        type: 'DisruptionAllowed',
        status: next.status,
        observedGeneration: pdb.metadata.generation,
        lastTransitionTime: unchanged ? current.lastTransitionTime : rfc3339(now),
        reason: next.reason,
        message: next.message,
      },
    ];
  }

  /** Entries of status.disruptedPods still holding: the pod exists, is not going yet, and the entry is fresh. */
  private disruptedPods(pdb: Stored<PodDisruptionBudget>, pods: KubeObject[], now: number): { disrupted: Record<string, string>; recheckAt?: number } {
    const disrupted: Record<string, string> = {};
    let recheckAt: number | undefined;
    for (const [podName, at] of Object.entries<string>(pdb.status?.disruptedPods ?? {})) {
      const pod = pods.find((p) => p.metadata.name === podName);
      if (!pod || pod.metadata.deletionTimestamp) continue;
      const expires = Date.parse(at) + disruptedPodTimeoutMs;
      if (expires <= now) continue;
      disrupted[podName] = at;
      recheckAt = Math.min(recheckAt ?? Infinity, expires);
    }
    return { disrupted, ...(recheckAt !== undefined ? { recheckAt } : {}) };
  }

  private desiredHealthy(pdb: Stored<PodDisruptionBudget>, pods: KubeObject[]): { expected: number; desired: number } {
    const { minAvailable, maxUnavailable } = pdb.spec ?? {};
    if (maxUnavailable !== undefined && maxUnavailable !== null) {
      const expected = this.expectedScale(pods);
      return { expected, desired: Math.max(0, expected - scaled(maxUnavailable, expected)) };
    }
    if (typeof minAvailable === 'number') return { expected: pods.length, desired: minAvailable };
    if (typeof minAvailable === 'string') {
      const expected = this.expectedScale(pods);
      return { expected, desired: scaled(minAvailable, expected) };
    }
    // neither set: nothing is expected, so nothing may be disrupted
    return { expected: 0, desired: 0 };
  }

  /** Sum of the replicas of the distinct controllers of the pods (getExpectedScale). */
  private expectedScale(pods: KubeObject[]): number {
    const counted = new Map<string, number>();
    for (const pod of pods) {
      const ref = (pod.metadata.ownerReferences ?? []).find((r) => r.controller === true);
      if (!ref) throw new SyncError(`found no controller ref for pod "${pod.metadata.name}"`, 'NoControllerRef');
      const owner = this.scaleOwner(pod.metadata.namespace!, ref);
      if (!owner) throw new SyncError(`found no controllers for pod "${pod.metadata.name}"`, 'NoControllers');
      counted.set(owner.uid, owner.replicas);
    }
    return [...counted.values()].reduce((a, b) => a + b, 0);
  }

  /** The object whose scale counts for a controller reference: a ReplicaSet's Deployment, else the owner if it serves /scale. */
  private scaleOwner(namespace: string, ref: OwnerReference): { uid: string; replicas: number } | undefined {
    const group = String(ref.apiVersion ?? '').includes('/') ? String(ref.apiVersion).split('/')[0]! : '';
    const rt = this.client.typeOfKind(group, ref.kind);
    if (!rt?.scale) return undefined;
    const owner = this.client.get(rt, namespace, ref.name);
    if (!owner || owner.metadata.uid !== ref.uid) return undefined;
    if (ref.kind === 'ReplicaSet') {
      const parent = (owner.metadata.ownerReferences ?? []).find((r) => r.controller === true && r.kind === 'Deployment');
      if (parent) {
        const found = this.scaleOwner(namespace, parent);
        if (found) return found;
      }
    }
    const path = rt.scale.specReplicasPath.replace(/^\./, '').split('.');
    let value: unknown = owner;
    for (const p of path) value = value === null || value === undefined ? undefined : (value as Record<string, unknown>)[p];
    return { uid: owner.metadata.uid!, replicas: typeof value === 'number' ? value : 0 };
  }
}
