/**
 * kube-controller-manager's node lifecycle and taint eviction, for the local cluster's nodes: a
 * cordoned node (spec.unschedulable) carries node.kubernetes.io/unschedulable:NoSchedule; a node
 * whose Lease is not renewed within the grace period turns Ready=Unknown ("Kubelet stopped posting
 * node status."), gets the unreachable NoSchedule/NoExecute taints and its pods Ready=False; pods
 * that do not tolerate a NoExecute taint are deleted — at once, or after their tolerationSeconds.
 */
import type { Node, NodeCondition, Pod, PodCondition, Toleration } from 'kubernetes-types/core/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { rfc3339 } from '../registry/system-metadata.js';
import type { Lease } from 'kubernetes-types/coordination/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, Stored, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController, ReconcileResult } from './controller-scheduler.js';
import type { EventRecorder } from './event-recorder.js';
import { nodeLeaseNamespace } from './cluster-nodes.js';
import { tolerates } from './scheduler-plugins.js';

/** --node-monitor-grace-period of kube-controller-manager 1.32. */
export const nodeMonitorGracePeriodMs = 50_000;

const unschedulableTaint = 'node.kubernetes.io/unschedulable';
const unreachableTaint = 'node.kubernetes.io/unreachable';
const notReadyTaint = 'node.kubernetes.io/not-ready';

interface Taint {
  key: string;
  value?: string;
  effect: string;
  timeAdded?: string;
}

export class NodeLifecycleController implements BuiltinController {
  readonly name = 'nodeLifecycle';

  constructor(
    private readonly client: ControllerClient,
    private readonly clock: ClusterClock,
    private readonly evictionEvents: EventRecorder,
  ) {}

  initialKeys(): string[] {
    return this.client.list('nodes').map((n) => n.metadata.name);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.bucket === 'nodes') return event.type === 'DELETED' ? [] : [event.object.metadata.name];
    if (event.bucket === 'leases.coordination.k8s.io' && event.object.metadata.namespace === nodeLeaseNamespace) return [event.object.metadata.name];
    const nodeName = event.bucket === 'pods' && event.type !== 'DELETED' ? asStored<Pod>(event.object).spec?.nodeName : undefined;
    if (nodeName) {
      // every pod change asks: the stored node is read in place
      const stored = this.client.getShared('nodes', undefined, nodeName) as KubeObject | undefined;
      const node = stored && asStored<Node>(stored);
      if ((node?.spec?.taints ?? []).some((t: Taint) => t.effect === 'NoExecute')) return [node!.metadata.name];
    }
    return [];
  }

  reconcile(name: string): ReconcileResult | void {
    let node = this.client.get('nodes', undefined, name);
    if (!node) return;
    const now = this.clock.now();
    let nextCheck = Infinity;
    const storedLease = this.client.get('coordination.k8s.io/leases', nodeLeaseNamespace, name);
    const lease = storedLease && asStored<Lease>(storedLease);
    const renewed = lease?.spec?.renewTime ? Date.parse(lease.spec.renewTime) : Date.parse(node.metadata.creationTimestamp!);
    const expiresAt = renewed + nodeMonitorGracePeriodMs;
    if (expiresAt <= now) node = this.markUnknown(node, now);
    else nextCheck = expiresAt;
    node = this.syncTaints(node, now);
    const evictAt = this.evictPods(node, now);
    nextCheck = Math.min(nextCheck, evictAt);
    if (Number.isFinite(nextCheck)) return { requeueAfterMs: Math.max(0, nextCheck - now) };
  }

  /** The kubelet went quiet: every condition Unknown, pods on the node not Ready. */
  private markUnknown(node: Stored<Node>, now: number): KubeObject {
    const conditions: NodeCondition[] = node.status?.conditions ?? [];
    if (conditions.every((c) => c.status === 'Unknown')) return node;
    const at = rfc3339(now);
    const next = conditions.map((c) =>
      c.status === 'Unknown' ? c : { ...c, status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.', lastTransitionTime: at },
    );
    const updated = this.client.updateStatus('nodes', { ...node, status: { ...node.status, conditions: next } });
    for (const pod of this.client
      .list('pods')
      .map((p) => asStored<Pod>(p))
      .filter((p) => p.spec?.nodeName === node.metadata.name)) {
      const podConditions: PodCondition[] = pod.status?.conditions ?? [];
      const ready = podConditions.find((c) => c.type === 'Ready');
      if (!ready || ready.status === 'False') continue;
      const status = { ...pod.status, conditions: podConditions.map((c) => (c.type === 'Ready' ? { ...c, status: 'False', lastTransitionTime: at } : c)) };
      this.client.updateStatus('pods', { ...pod, status });
    }
    return updated;
  }

  /** The taints that follow spec.unschedulable and the Ready condition. */
  private syncTaints(node: Stored<Node>, now: number): KubeObject {
    const ready = (node.status?.conditions ?? []).find((c: NodeCondition) => c.type === 'Ready')?.status;
    const wanted: Taint[] = [];
    if (node.spec?.unschedulable) wanted.push({ key: unschedulableTaint, effect: 'NoSchedule' });
    if (ready === 'Unknown') wanted.push({ key: unreachableTaint, effect: 'NoSchedule' }, { key: unreachableTaint, effect: 'NoExecute' });
    if (ready === 'False') wanted.push({ key: notReadyTaint, effect: 'NoSchedule' }, { key: notReadyTaint, effect: 'NoExecute' });
    const managed = new Set([unschedulableTaint, unreachableTaint, notReadyTaint]);
    const current: Taint[] = node.spec?.taints ?? [];
    const same = (a: Taint, b: Taint): boolean => a.key === b.key && a.effect === b.effect;
    const kept = current.filter((t) => !managed.has(t.key) || wanted.some((w) => same(w, t)));
    const added = wanted.filter((w) => !current.some((t) => same(w, t))).map((w) => ({ ...w, timeAdded: rfc3339(now) }));
    if (added.length === 0 && kept.length === current.length) return node;
    const taints = [...kept, ...added];
    const spec = { ...node.spec };
    if (taints.length) spec.taints = taints;
    else delete spec.taints;
    return this.client.update('nodes', { ...node, spec });
  }

  /** Deletes pods a NoExecute taint evicts; returns when the next toleration runs out (or Infinity). */
  private evictPods(node: Stored<Node>, now: number): number {
    const taints: Taint[] = (node.spec?.taints ?? []).filter((t: Taint) => t.effect === 'NoExecute');
    if (taints.length === 0) return Infinity;
    let next = Infinity;
    for (const pod of this.client
      .list('pods')
      .map((p) => asStored<Pod>(p))
      .filter((p) => p.spec?.nodeName === node.metadata.name && !p.metadata.deletionTimestamp)) {
      let evictAt = Infinity;
      for (const taint of taints) {
        const matching: Toleration[] = (pod.spec?.tolerations ?? []).filter((t: Toleration) => tolerates([t], taint));
        if (matching.length === 0) {
          evictAt = now;
          break;
        }
        if (matching.some((t) => t.tolerationSeconds === undefined || t.tolerationSeconds === null)) continue;
        const seconds = Math.min(...matching.map((t) => Math.max(0, Number(t.tolerationSeconds))));
        evictAt = Math.min(evictAt, Date.parse(taint.timeAdded ?? rfc3339(now)) + seconds * 1000);
      }
      if (evictAt === Infinity) continue;
      if (evictAt > now) {
        next = Math.min(next, evictAt);
        continue;
      }
      this.evictionEvents.record(pod, 'Normal', 'TaintManagerEviction', `Marking for deletion Pod ${pod.metadata.namespace}/${pod.metadata.name}`);
      this.client.delete('pods', pod.metadata.namespace, pod.metadata.name);
    }
    return next;
  }
}
