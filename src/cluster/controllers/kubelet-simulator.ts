/**
 * The kubelet simulator (§7.6): one Node `kubeforge-node`; pods are bound to it, started, run for
 * their simulated duration and terminate (or restart, per restartPolicy) on the cluster clock,
 * with status and containerStatuses written as a kubelet would, and graceful deletion finished.
 * What a pod does comes from `podBehaviour()` (annotations, then its command).
 */
import type { ClusterClock } from '../clock/virtual-clock.js';
import { SeededRandom, rfc3339 } from '../registry/system-metadata.js';
import type { KubeObject, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController, ReconcileResult } from './controller-scheduler.js';
import type { EventRecorder } from './event-recorder.js';
import { type PodBehaviour, podBehaviour } from './pod-behaviour.js';
import type { VolumeScheduling } from './volume-scheduling.js';

export const nodeName = 'kubeforge-node';

/** Which pods a test script applies to (all given fields must match). */
export interface PodSelector {
  namespace?: string;
  name?: string;
  labels?: Record<string, string>;
}

/** What a script changes in a pod's behaviour (the rest still comes from annotations and command). */
export type BehaviourOverride = Partial<Omit<PodBehaviour, 'logs'>>;

function selects(selector: PodSelector, pod: KubeObject): boolean {
  if (selector.namespace !== undefined && selector.namespace !== pod.metadata.namespace) return false;
  if (selector.name !== undefined && selector.name !== pod.metadata.name) return false;
  return Object.entries(selector.labels ?? {}).every(([k, v]) => pod.metadata.labels?.[k] === v);
}
const hostIP = '10.0.0.1';
const crashLoopBaseMs = 10_000;
const crashLoopCapMs = 300_000;

const isTerminal = (pod: KubeObject): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
const time = (text: string | undefined): number => (text ? Date.parse(text) : 0);

function condition(type: string, status: string, at: string, reason?: string): Record<string, unknown> {
  return { type, status, lastProbeTime: null, lastTransitionTime: at, ...(reason ? { reason } : {}) };
}

/** Sets a pod condition, keeping lastTransitionTime when the status does not change. */
function setCondition(pod: { status: any }, next: Record<string, any>): void {
  const conditions: any[] = (pod.status.conditions ??= []);
  const i = conditions.findIndex((c) => c.type === next.type);
  if (i === -1) conditions.push(next);
  else {
    const keep = conditions[i].status === next.status && conditions[i].reason === next.reason;
    conditions[i] = keep ? conditions[i] : next;
  }
}

export class KubeletSimulator implements BuiltinController {
  readonly name = 'kubelet';
  private readonly random: SeededRandom;
  private readonly usedIPs = new Set<string>();
  private readonly scripts: Array<{ selector: PodSelector; override: BehaviourOverride }> = [];
  /** Set by the scheduler wiring: re-reconciles pods after a script changes. */
  onScriptsChanged: () => void = () => {};
  /** Set by install.ts: pods wait for their claims (selected-node, binding) before they are bound and started. */
  volumes: VolumeScheduling | undefined;

  constructor(
    private readonly kubelet: ControllerClient,
    private readonly scheduler: ControllerClient,
    private readonly clock: ClusterClock,
    private readonly schedulerEvents: EventRecorder,
    private readonly kubeletEvents: EventRecorder,
    seed: number,
  ) {
    this.random = new SeededRandom(seed ^ 0x6b75626c);
    if (!kubelet.get('nodes', undefined, nodeName)) kubelet.create('nodes', undefined, nodeObject(rfc3339(clock.now())));
  }

  initialKeys(): string[] {
    return this.kubelet.list('pods').map((p) => `${p.metadata.namespace}/${p.metadata.name}`);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.bucket === 'persistentvolumeclaims' && this.volumes) return this.volumes.podKeysUsingClaim(event.object.metadata.namespace, event.object.metadata.name);
    if (event.bucket !== 'pods' || event.type === 'DELETED') return [];
    return [`${event.object.metadata.namespace}/${event.object.metadata.name}`];
  }

  reconcile(key: string): ReconcileResult | void {
    const [namespace, name] = key.split('/') as [string, string];
    const pod = this.kubelet.get('pods', namespace, name);
    if (!pod || isTerminal(pod)) return;
    let behaviour: PodBehaviour;
    try {
      behaviour = podBehaviour(pod);
      for (const s of this.scripts) if (selects(s.selector, pod)) behaviour = { ...behaviour, ...s.override };
    } catch (err) {
      this.kubeletEvents.record(pod, 'Warning', 'FailedSimulation', (err as Error).message);
      return;
    }
    const now = this.clock.now();
    if (pod.metadata.deletionTimestamp) return this.stop(pod, behaviour, now);
    if (!pod.spec?.nodeName) return this.schedule(pod, behaviour, now);
    if (pod.status?.phase === 'Pending') return this.start(pod, behaviour, now);
    return this.run(pod, behaviour, now);
  }

  /** Overrides the behaviour of matching pods (later scripts win); returns a function removing it. */
  script(selector: PodSelector, override: BehaviourOverride): () => void {
    const entry = { selector, override };
    this.scripts.push(entry);
    this.onScriptsChanged();
    return () => {
      const i = this.scripts.indexOf(entry);
      if (i !== -1) this.scripts.splice(i, 1);
      this.onScriptsChanged();
    };
  }

  private wait(due: number, now: number): ReconcileResult | undefined {
    return due > now ? { requeueAfterMs: due - now } : undefined;
  }

  private schedule(pod: KubeObject, behaviour: PodBehaviour, now: number): ReconcileResult | void {
    if (behaviour.outcome === 'unschedulable') {
      const status = structuredClone(pod.status ?? {});
      const next = { ...pod, status };
      setCondition(next, { ...condition('PodScheduled', 'False', rfc3339(now), 'Unschedulable'), message: '0/1 nodes are available: 1 node(s) were marked unschedulable by sim.kubeforge.io/outcome.' });
      this.scheduler.updateStatus('pods', next);
      this.schedulerEvents.record(pod, 'Warning', 'FailedScheduling', '0/1 nodes are available: 1 node(s) were marked unschedulable by sim.kubeforge.io/outcome.');
      return;
    }
    const waiting = this.wait(time(pod.metadata.creationTimestamp) + behaviour.scheduleDelayMs, now);
    if (waiting) return waiting;
    if (this.volumes && !this.volumesReady(pod, now)) return;
    const bound = this.scheduler.update('pods', { ...pod, spec: { ...pod.spec, nodeName } });
    const status = structuredClone(bound.status ?? {});
    const next = { ...bound, status };
    setCondition(next, condition('PodScheduled', 'True', rfc3339(now)));
    this.scheduler.updateStatus('pods', next);
    this.schedulerEvents.record(bound, 'Normal', 'Scheduled', `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${nodeName}`);
  }

  /** The scheduler's VolumeBinding steps: Filter (or FailedScheduling), PreBind (selected-node), wait for Bound claims. */
  private volumesReady(pod: KubeObject, now: number): boolean {
    const decision = this.volumes!.volumeBindingFor(pod, nodeName);
    if (!decision.schedulable) {
      const perNode = decision.reason?.startsWith('node(s)') ? `1 ${decision.reason}` : decision.reason;
      const message = `0/1 nodes are available: ${perNode}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.`;
      const next = { ...pod, status: structuredClone(pod.status ?? {}) };
      setCondition(next, { ...condition('PodScheduled', 'False', rfc3339(now), 'Unschedulable'), message });
      this.scheduler.updateStatus('pods', next);
      this.schedulerEvents.record(pod, 'Warning', 'FailedScheduling', message);
      return false;
    }
    this.volumes!.bindPodVolumes(pod, nodeName);
    return this.volumes!.claimBlockingPod(pod) === undefined;
  }

  private start(pod: KubeObject, behaviour: PodBehaviour, now: number): ReconcileResult | void {
    if (behaviour.outcome === 'pending') return;
    const scheduledAt = time((pod.status?.conditions ?? []).find((c: any) => c.type === 'PodScheduled')?.lastTransitionTime) || now;
    const waiting = this.wait(scheduledAt + behaviour.startDelayMs, now);
    if (waiting) return waiting;
    const at = rfc3339(now);
    const ip = this.allocateIP();
    const status = structuredClone(pod.status ?? {});
    const next = { ...pod, status };
    for (const type of ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady']) setCondition(next, condition(type, 'True', at));
    next.status = {
      phase: 'Running',
      conditions: orderConditions(status.conditions),
      hostIP,
      hostIPs: [{ ip: hostIP }],
      podIP: ip,
      podIPs: [{ ip }],
      startTime: at,
      containerStatuses: (pod.spec.containers ?? []).map((c: KubeObject) => this.containerStatus(c, { running: { startedAt: at } }, 0, {})),
      qosClass: status.qosClass ?? 'BestEffort',
    };
    this.kubelet.updateStatus('pods', next);
    if (behaviour.runDurationMs !== undefined) return { requeueAfterMs: behaviour.runDurationMs };
  }

  private containerStatus(container: KubeObject, state: Record<string, unknown>, restartCount: number, lastState: Record<string, unknown>): Record<string, unknown> {
    const running = 'running' in state;
    const hex = Array.from({ length: 64 }, () => Math.floor(this.random.next() * 16).toString(16)).join('');
    return {
      name: container.name,
      state,
      lastState,
      ready: running,
      restartCount,
      image: imageReference(container.image),
      imageID: `${imageReference(container.image).replace(/:[^:/]+$/, '')}@sha256:${hex}`,
      containerID: `containerd://${hex}`,
      started: running,
    };
  }

  /** Running pods: containers finish when their run time is up, then restart or end the pod. */
  private run(pod: KubeObject, behaviour: PodBehaviour, now: number): ReconcileResult | void {
    const status = structuredClone(pod.status);
    const policy: string = pod.spec.restartPolicy ?? 'Always';
    const at = rfc3339(now);
    let nextDue = Infinity;
    let changed = false;
    status.containerStatuses = (status.containerStatuses ?? []).map((cs: any) => {
      const container = (pod.spec.containers ?? []).find((c: any) => c.name === cs.name) ?? { name: cs.name, image: cs.image };
      if (cs.state?.waiting?.reason === 'CrashLoopBackOff') {
        const due = time(cs.lastState?.terminated?.finishedAt) + backoffMs(cs.restartCount);
        if (due > now) return (nextDue = Math.min(nextDue, due)), cs;
        changed = true;
        return { ...this.containerStatus(container, { running: { startedAt: at } }, cs.restartCount, cs.lastState), containerID: cs.containerID };
      }
      if (!cs.state?.running || behaviour.runDurationMs === undefined) return cs;
      const due = time(cs.state.running.startedAt) + behaviour.runDurationMs;
      if (due > now) return (nextDue = Math.min(nextDue, due)), cs;
      changed = true;
      const fails = behaviour.failContainers === undefined || behaviour.failContainers.includes(cs.name);
      const exitCode = fails ? behaviour.exitCode : 0;
      const terminated = { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: cs.state.running.startedAt, finishedAt: at, containerID: cs.containerID };
      const restart = policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);
      if (!restart) return { ...cs, state: { terminated }, ready: false, started: false };
      const restartCount = cs.restartCount + 1;
      const message = `back-off ${backoffMs(restartCount) / 1000}s restarting failed container=${cs.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
      nextDue = Math.min(nextDue, now + backoffMs(restartCount));
      return { ...cs, state: { waiting: { reason: 'CrashLoopBackOff', message } }, lastState: { terminated }, ready: false, started: false, restartCount };
    });
    if (!changed) return Number.isFinite(nextDue) ? { requeueAfterMs: nextDue - now } : undefined;
    this.finishIfDone(status, at);
    this.kubelet.updateStatus('pods', { ...pod, status });
    if (Number.isFinite(nextDue)) return { requeueAfterMs: nextDue - now };
  }

  /** All containers terminated → Succeeded (all exit 0) or Failed; readiness follows the containers. */
  private finishIfDone(status: any, at: string): void {
    const statuses: any[] = status.containerStatuses ?? [];
    const allDone = statuses.length > 0 && statuses.every((cs) => cs.state?.terminated);
    const allReady = statuses.length > 0 && statuses.every((cs) => cs.ready);
    const holder = { status };
    if (allDone) {
      const ok = statuses.every((cs) => cs.state.terminated.exitCode === 0);
      status.phase = ok ? 'Succeeded' : 'Failed';
      const reason = ok ? 'PodCompleted' : 'PodFailed';
      setCondition(holder, condition('PodReadyToStartContainers', 'False', at));
      setCondition(holder, condition('Ready', 'False', at, reason));
      setCondition(holder, condition('ContainersReady', 'False', at, reason));
    } else if (!allReady) {
      const notReady = statuses.filter((cs) => !cs.ready).map((cs) => cs.name).join(' ');
      setCondition(holder, { ...condition('Ready', 'False', at, 'ContainersNotReady'), message: `containers with unready status: [${notReady}]` });
      setCondition(holder, { ...condition('ContainersReady', 'False', at, 'ContainersNotReady'), message: `containers with unready status: [${notReady}]` });
    } else {
      setCondition(holder, condition('Ready', 'True', at));
      setCondition(holder, condition('ContainersReady', 'True', at));
    }
    status.conditions = orderConditions(status.conditions);
  }

  /** A deleted, bound, running pod: containers get SIGKILL (137) after the stop delay, then the pod goes. */
  private stop(pod: KubeObject, behaviour: PodBehaviour, now: number): ReconcileResult | void {
    if (!pod.spec?.nodeName) return;
    // deletionTimestamp is request time + grace; the simulated app stops after min(grace, stop-delay)
    const graceMs = (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
    const requestedAt = time(pod.metadata.deletionTimestamp) - graceMs;
    const waiting = this.wait(requestedAt + Math.min(graceMs, behaviour.stopDelayMs), now);
    if (waiting) return waiting;
    const at = rfc3339(now);
    const status = structuredClone(pod.status ?? {});
    status.containerStatuses = (status.containerStatuses ?? []).map((cs: any) => {
      if (cs.state?.terminated) return cs;
      const startedAt = cs.state?.running?.startedAt ?? at;
      return { ...cs, state: { terminated: { exitCode: 137, reason: 'Error', startedAt, finishedAt: at, containerID: cs.containerID } }, ready: false, started: false };
    });
    if (status.containerStatuses.length === 0) status.phase = 'Failed';
    this.finishIfDone(status, at);
    this.kubelet.updateStatus('pods', { ...pod, status });
    this.kubelet.delete('pods', pod.metadata.namespace, pod.metadata.name, { gracePeriodSeconds: 0 });
  }

  private allocateIP(): string {
    for (;;) {
      const n = 2 + Math.floor(this.random.next() * 65_000);
      const ip = `10.244.${n >> 8}.${n & 255}`;
      if (!this.usedIPs.has(ip)) {
        this.usedIPs.add(ip);
        return ip;
      }
    }
  }
}

function backoffMs(restartCount: number): number {
  return Math.min(crashLoopBaseMs * 2 ** Math.max(0, restartCount - 1), crashLoopCapMs);
}

const conditionOrder = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];

function orderConditions(conditions: any[] | undefined): any[] {
  return [...(conditions ?? [])].sort((a, b) => conditionOrder.indexOf(a.type) - conditionOrder.indexOf(b.type));
}

/** `busybox:1.36` → `docker.io/library/busybox:1.36`, as containerd reports images. */
function imageReference(image: string | undefined): string {
  const ref = image ?? '';
  const withTag = /:[^/]+$/.test(ref) || ref.includes('@') ? ref : `${ref}:latest`;
  const first = withTag.split('/')[0]!;
  if (!withTag.includes('/')) return `docker.io/library/${withTag}`;
  if (!first.includes('.') && !first.includes(':') && first !== 'localhost') return `docker.io/${withTag}`;
  return withTag;
}

function nodeObject(created: string): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: nodeName, labels: { 'kubernetes.io/hostname': nodeName, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/os': 'linux', 'beta.kubernetes.io/arch': 'amd64' } },
    spec: {},
    status: {
      capacity: { cpu: '32', memory: '256Gi', pods: '110', 'ephemeral-storage': '100Gi' },
      allocatable: { cpu: '32', memory: '256Gi', pods: '110', 'ephemeral-storage': '100Gi' },
      conditions: [
        { type: 'Ready', status: 'True', lastHeartbeatTime: created, lastTransitionTime: created, reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
      addresses: [
        { type: 'InternalIP', address: hostIP },
        { type: 'Hostname', address: nodeName },
      ],
      nodeInfo: {
        kubeletVersion: 'v1.32.4',
        kubeProxyVersion: 'v1.32.4',
        operatingSystem: 'linux',
        architecture: 'amd64',
        containerRuntimeVersion: 'containerd://1.7.24',
        osImage: 'kubeforge simulated node',
        kernelVersion: '6.1.0',
        machineID: '',
        systemUUID: '',
        bootID: '',
      },
    },
  };
}
