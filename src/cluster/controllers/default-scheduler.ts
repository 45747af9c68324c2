/**
 * kube-scheduler's default-scheduler for the local cluster: takes each pending pod of schedulerName
 * `default-scheduler`, runs the filter plugins over every node, scores the feasible ones, and binds
 * the pod through pods/binding — or marks it PodScheduled=False/Unschedulable with the real FitError
 * text. Events are events.k8s.io/v1 (action Scheduling). Unschedulable pods are retried when nodes or
 * pods change.
 */
import type { ClusterClock } from '../clock/virtual-clock.js';
import { ApiError } from '../errors/status-errors.js';
import { SeededRandom, rfc3339 } from '../registry/system-metadata.js';
import type { Node, Pod, PodCondition } from 'kubernetes-types/core/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, Stored, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController, ReconcileResult } from './controller-scheduler.js';
import type { EventsV1Recorder } from './event-recorder.js';
import type { PodScripts } from './pod-scripts.js';
import type { CycleState, FilterFailure, NodeInfo, SchedulerPlugin } from './scheduler-plugins.js';
import { copyObject } from '../store/copy-object.js';

export const defaultSchedulerName = 'default-scheduler';

const isTerminal = (pod: Stored<Pod>): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
const key = (pod: Stored<Pod>): string => `${pod.metadata.namespace}/${pod.metadata.name}`;

/** Marks pods the simulator was told can never be scheduled (`sim.kubeforge.io/outcome: unschedulable`). */
export function simulatedOutcomePlugin(scripts: PodScripts): SchedulerPlugin {
  return {
    name: 'SimulatedOutcome',
    filter(pod) {
      return scripts.behaviourOf(pod).outcome === 'unschedulable'
        ? { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) were marked unschedulable by sim.kubeforge.io/outcome'] }
        : undefined;
    },
  };
}

/** The FitError text: reasons counted over nodes and sorted, then what preemption could do. */
export function fitErrorMessage(nodeCount: number, failures: FilterFailure[], preFilter?: FilterFailure): string {
  if (nodeCount === 0) return 'no nodes available to schedule pods';
  const histogram = (counts: Map<string, number>): string => [...counts].map(([reason, n]) => `${n} ${reason}`).sort().join(', ');
  let message = `0/${nodeCount} nodes are available:`;
  const preemption = new Map<string, number>();
  if (preFilter) {
    message += ` ${preFilter.reasons.join(', ')}.`;
    preemption.set('Preemption is not helpful for scheduling', nodeCount);
  } else {
    const reasons = new Map<string, number>();
    for (const f of failures) {
      for (const r of f.reasons) reasons.set(r, (reasons.get(r) ?? 0) + 1);
      const p = f.code === 'UnschedulableAndUnresolvable' ? 'Preemption is not helpful for scheduling' : 'No preemption victims found for incoming pod';
      preemption.set(p, (preemption.get(p) ?? 0) + 1);
    }
    if (reasons.size) message += ` ${histogram(reasons)}.`;
  }
  return `${message} preemption: 0/${nodeCount} nodes are available: ${histogram(preemption)}.`;
}

export class DefaultScheduler implements BuiltinController {
  readonly name = 'scheduler';
  private readonly random: SeededRandom;
  /** Pods that did not fit, retried when a node or a pod changes. */
  private readonly unschedulable = new Set<string>();
  /** Set by the wiring: enqueues a key. */
  requeue: (key: string) => void = () => {};

  constructor(
    private readonly client: ControllerClient,
    private readonly clock: ClusterClock,
    private readonly events: EventsV1Recorder,
    private readonly scripts: PodScripts,
    readonly plugins: SchedulerPlugin[],
    seed: number,
  ) {
    this.random = new SeededRandom(seed ^ 0x5c4ed);
  }

  private wants(pod: Stored<Pod>): boolean {
    return !pod.spec?.nodeName && (pod.spec?.schedulerName ?? defaultSchedulerName) === defaultSchedulerName && !pod.metadata.deletionTimestamp && !isTerminal(pod);
  }

  initialKeys(): string[] {
    return this.client.list('pods').filter((p) => this.wants(p)).map(key);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.bucket === 'nodes') return this.nodeChanged(event) ? this.retryUnschedulable() : [];
    if (event.bucket !== 'pods') return [];
    const pod = asStored<Pod>(event.object);
    const old = event.oldObject && asStored<Pod>(event.oldObject);
    if (event.type === 'DELETED' || (old?.spec?.nodeName && isTerminal(pod) && !isTerminal(old))) {
      this.unschedulable.delete(key(pod));
      return pod.spec?.nodeName ? this.retryUnschedulable() : [];
    }
    if (event.type === 'ADDED' && pod.spec?.nodeName) return this.retryUnschedulable();
    if (!this.wants(pod)) return [];
    // an unschedulable pod's own status write is no reason to try again; a changed spec is
    const same = (a: KubeObject | undefined, b: KubeObject): boolean => JSON.stringify([a?.spec, a?.metadata?.labels]) === JSON.stringify([b.spec, b.metadata.labels]);
    if (event.type === 'MODIFIED' && this.unschedulable.has(key(pod)) && same(event.oldObject, pod)) return [];
    return [key(pod)];
  }

  private nodeChanged(event: StoreEvent): boolean {
    if (event.type !== 'MODIFIED') return true;
    const view = (n: Stored<Node> | undefined): string =>
      JSON.stringify([n?.metadata?.labels, n?.spec, n?.status?.allocatable, (n?.status?.conditions ?? []).find((c) => c.type === 'Ready')?.status]);
    return view(event.object) !== view(event.oldObject);
  }

  private retryUnschedulable(): string[] {
    return [...this.unschedulable];
  }

  /** Test and plugin hook: schedule every waiting pod again. */
  retryAll(): void {
    for (const k of this.initialKeys()) this.requeue(k);
  }

  reconcile(podKey: string): ReconcileResult | void {
    const [namespace, name] = podKey.split('/') as [string, string];
    const stored = this.client.get('pods', namespace, name);
    const pod = stored && asStored<Pod>(stored);
    if (!pod || !this.wants(pod)) {
      this.unschedulable.delete(podKey);
      return;
    }
    let delayMs = 0;
    try {
      delayMs = this.scripts.behaviourOf(pod).scheduleDelayMs;
    } catch {
      // a malformed annotation: the kubelet reports it; schedule without delay
    }
    if ((pod.spec!.schedulingGates ?? []).length) return this.gated(pod);
    const wait = Date.parse(pod.metadata.creationTimestamp!) + delayMs - this.clock.now();
    if (wait > 0) return { requeueAfterMs: wait };
    const state = this.cycleState();
    const chosen = this.selectNode(pod, state);
    if (typeof chosen !== 'string') return this.failed(pod, chosen);
    try {
      for (const p of this.plugins) p.preBind?.(pod, chosen);
      this.client.bind(namespace, name, pod.metadata.uid!, chosen, this.clock.now());
    } catch (err) {
      if (err instanceof ApiError && (err.code === 409 || err.code === 404)) return;
      throw err;
    }
    this.unschedulable.delete(podKey);
    this.events.record(pod, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${namespace}/${name} to ${chosen}`);
  }

  /** What the plugins read in one scheduling cycle: the stored pods and nodes in place (read only), not copies of all of them per pod. */
  private cycleState(): CycleState {
    const pods = (this.client.listShared('pods') as KubeObject[])
      .map((p) => asStored<Pod>(p))
      .filter((p) => p.spec?.nodeName && !isTerminal(p));
    const nodes: NodeInfo[] = (this.client.listShared('nodes') as KubeObject[]).map((node) => ({ node, pods: pods.filter((p) => p.spec!.nodeName === node.metadata.name) }));
    return {
      nodes,
      boundPods: pods,
      namespaceLabels: (ns) => this.client.get('namespaces', undefined, ns)?.metadata.labels,
    };
  }

  /** The chosen node's name, or why none fits. */
  private selectNode(pod: Stored<Pod>, state: CycleState): string | { failures: FilterFailure[]; preFilter?: FilterFailure; nodeCount: number } {
    for (const p of this.plugins) {
      const failure = p.preFilter?.(pod, state);
      if (failure) return { failures: [], preFilter: failure, nodeCount: state.nodes.length };
    }
    const failures: FilterFailure[] = [];
    const feasible: NodeInfo[] = [];
    for (const info of state.nodes) {
      let failure: FilterFailure | undefined;
      for (const p of this.plugins) {
        failure = p.filter?.(pod, info, state);
        if (failure) break;
      }
      if (failure) failures.push(failure);
      else feasible.push(info);
    }
    if (feasible.length === 0) return { failures, nodeCount: state.nodes.length };
    let best: NodeInfo[] = [];
    let bestScore = -Infinity;
    for (const info of feasible) {
      const score = this.plugins.reduce((sum, p) => sum + (p.score ? p.score(pod, info, state) * (p.weight ?? 1) : 0), 0);
      if (score > bestScore + 1e-9) {
        best = [info];
        bestScore = score;
      } else if (Math.abs(score - bestScore) <= 1e-9) best.push(info);
    }
    // ties are broken at random, as the real scheduler's reservoir sampling does
    return best[Math.floor(this.random.next() * best.length)]!.node.metadata.name;
  }

  /** A pod with scheduling gates waits, saying so, until they are removed. */
  private gated(pod: Stored<Pod>): void {
    const conditions: PodCondition[] = pod.status?.conditions ?? [];
    if (conditions.some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated')) return;
    const next = { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: rfc3339(this.clock.now()), reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' };
    this.client.updateStatus('pods', { ...pod, status: { ...pod.status, conditions: [...conditions.filter((c) => c.type !== 'PodScheduled'), next] } });
  }

  private failed(pod: Stored<Pod>, why: { failures: FilterFailure[]; preFilter?: FilterFailure; nodeCount: number }): void {
    const message = fitErrorMessage(why.nodeCount, why.failures, why.preFilter);
    this.unschedulable.add(key(pod));
    const status = copyObject(pod.status ?? {});
    // conditions as JSON: lastProbeTime null, as kube-scheduler writes it
    const conditions = (status.conditions ??= []) as unknown as Array<Record<string, unknown>>;
    const existing = conditions.find((c) => c.type === 'PodScheduled');
    const next = { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: rfc3339(this.clock.now()), reason: 'Unschedulable', message };
    if (!existing) conditions.push(next);
    else if (existing.status !== 'False' || existing.message !== message) Object.assign(existing, next, existing.status === 'False' ? { lastTransitionTime: existing.lastTransitionTime } : {});
    this.client.updateStatus('pods', { ...pod, status });
    this.events.record(pod, 'Warning', 'FailedScheduling', 'Scheduling', message);
  }
}
