/**
 * The kubelet simulator (§7.6), one per node: registers its Node, renews the node's Lease every 10 s
 * and posts node status, and runs the pods bound to it on the cluster clock — image pull, init
 * containers in order, ContainerCreating → Running, startup and readiness probes after their
 * initial delays, exits and restarts per restartPolicy with CrashLoopBackOff back-off, graceful
 * termination (143 when SIGTERM is honoured in time, 137 after terminationGracePeriodSeconds) and
 * the final delete — writing status and events as a real kubelet does, and container log lines.
 * What a pod does comes from `podBehaviour()` (annotations, then its command) and test scripts —
 * except pods with a container whose image is mapped to a local build, which `ProcessPods` runs as
 * real processes (admission and the final delete stay here).
 */
import { createHash } from 'node:crypto';
import type { Lease } from 'kubernetes-types/coordination/v1.js';
import type { Container, Node, NodeCondition, Pod, Probe } from 'kubernetes-types/core/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { SeededRandom, rfc3339, rfc3339Micro } from '../registry/system-metadata.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, Stored, StoreEvent } from '../store/object-store.js';
import { type ControllerClient, isApiError } from './controller-client.js';
import type { BuiltinController, ReconcileResult } from './controller-scheduler.js';
import type { EventRecorder } from './event-recorder.js';
import type { ContainerLogs } from './container-logs.js';
import { healthyNodeConditions, nodeInternalIP, nodeLeaseNamespace, nodeLeaseObject, nodeObject } from './cluster-nodes.js';
import type { PodBehaviour } from './pod-behaviour.js';
import { readCommand } from './pod-behaviour.js';
import type { PodScripts } from './pod-scripts.js';
import { matchesNodeSelection, milli, podRequests } from './scheduler-plugins.js';
import { formatGoDuration } from '../../apimachinery/go-duration.js';
import { type KubeletContainerStatus, type KubeletPodStatus, backoffMs, condition, finishIfDone, imageReference, orderConditions, setCondition } from './pod-status.js';
import { ProcessPods, type ProcessPodsConfig } from './process-pods.js';
import { copyObject } from '../store/copy-object.js';

export type { BehaviourOverride, PodSelector } from './pod-scripts.js';
export { backoffMs, imageReference } from './pod-status.js';

/** The kubelet renews its node Lease every 10 s (a quarter of the 40 s lease duration). */
const leaseRenewMs = 10_000;
/** With leases, node status is re-posted when it changes or every 5 minutes. */
const nodeStatusReportMs = 300_000;
const nodeKey = '#node';

const isTerminal = (pod: Stored<Pod>): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
const time = (text: string | null | undefined): number => (text ? Date.parse(text) : 0);

/**
 * Something a pod must wait for before its containers are created (e.g. its volumes: a PVC still
 * unbound). Returns the reason to wait — recorded once as a Warning `FailedMount` event — or undefined.
 */
export type KubeletPodGate = (pod: Stored<Pod>, nodeName: string) => string | undefined;

/** How often a gated pod is looked at again (the kubelet's volume manager retries on its own). */
const gateRetryMs = 2000;

/** What a failing probe reports, by its kind. */
function probeFailure(probe: Probe, podIP: string | undefined, httpStatus: number): string {
  if (probe.httpGet) return `HTTP probe failed with statuscode: ${httpStatus}`;
  if (probe.tcpSocket) return `dial tcp ${podIP ?? ''}:${probe.tcpSocket.port}: connect: connection refused`;
  if (probe.grpc) return `timeout: failed to connect service ":${probe.grpc.port}" within 1s: context deadline exceeded`;
  return '';
}

/** From the container's start: first probe after initialDelaySeconds, then every periodSeconds, until failureThreshold failures. */
function livenessKillAfterMs(probe: Probe): number {
  return ((probe.initialDelaySeconds ?? 0) + (probe.periodSeconds ?? 10) * ((probe.failureThreshold ?? 3) - 1)) * 1000;
}

export interface KubeletNode {
  name: string;
  /** Joining order (0 = control plane): InternalIP, podCIDR. */
  index: number;
  /** Nodes in the cluster (the control plane is tainted when there are workers). */
  count: number;
}

export class KubeletSimulator implements BuiltinController {
  readonly name: string;
  private readonly random: SeededRandom;
  private readonly usedIPs = new Map<string, string>();
  private readonly pulledImages = new Set<string>();
  /** Containers (`<pod uid>/<name>`) whose failing readiness probe was reported. */
  private readonly unhealthy = new Set<string>();
  /** Pods whose Killing events were recorded (their deletion was noticed). */
  private readonly killing = new Set<string>();
  private lastStatusReport = 0;
  /** spec.unschedulable as the last status sync saw it (the kubelet starts from false). */
  private lastUnschedulable = false;
  private running = true;
  /** Checks every pod passes before its containers are created (shared by all nodes' kubelets). */
  gates: KubeletPodGate[] = [];
  /** Pods whose gate message was recorded (uid → message). */
  private readonly gateRecorded = new Map<string, string>();
  /** Set by the wiring: enqueues a key of this kubelet (after scripts change, or when restarted). */
  requeue: (key: string) => void = () => {};
  /** Runs pods whose images are mapped to local builds as processes (absent: no image is mapped). */
  readonly processes: ProcessPods | undefined;

  constructor(
    readonly node: KubeletNode,
    private readonly client: ControllerClient,
    private readonly clock: ClusterClock,
    private readonly events: EventRecorder,
    private readonly logs: ContainerLogs,
    private readonly scripts: PodScripts,
    seed: number,
    processConfig?: ProcessPodsConfig,
  ) {
    this.name = `kubelet/${node.name}`;
    this.random = new SeededRandom((seed ^ 0x6b75626c) + node.index * 7919);
    this.processes = processConfig
      ? new ProcessPods(processConfig, node, client, clock, events, logs, () => this.containerId(), (key) => this.requeue(key))
      : undefined;
    this.register();
  }

  /** Whether the kubelet runs (a stopped kubelet neither heartbeats nor touches its pods). */
  get isRunning(): boolean {
    return this.running;
  }

  /** Test hook: stop (the node goes NotReady once its lease expires) or start again. */
  setRunning(running: boolean): void {
    this.running = running;
    if (!running) return;
    this.requeue(nodeKey);
    for (const key of this.initialKeys()) this.requeue(key);
  }

  initialKeys(): string[] {
    return [nodeKey, ...this.myPods().map((p) => `${p.metadata.namespace}/${p.metadata.name}`)];
  }

  /**
   * Whether a pod whose containers were never created must still wait on a gate (its volumes): the first
   * gate that gives a reason holds it, and that reason is recorded once as a Warning `FailedMount` event.
   */
  private heldByMountGate(pod: Stored<Pod>, gates: KubeletPodGate[]): boolean {
    if (pod.status?.containerStatuses?.some((cs: KubeletContainerStatus) => cs.containerID || cs.lastState?.terminated)) return false;
    for (const gate of gates) {
      const reason = gate(pod, this.node.name);
      if (reason === undefined) continue;
      if (this.gateRecorded.get(pod.metadata.uid!) !== reason) {
        this.gateRecorded.set(pod.metadata.uid!, reason);
        this.events.record(pod, 'Warning', 'FailedMount', reason);
      }
      return true;
    }
    return false;
  }

  /** This node's pods as stored (read only: names and requests are read, nothing is written from them). */
  private myPods(): Array<Stored<Pod>> {
    return (this.client.listShared('pods') as KubeObject[])
      .map((p) => asStored<Pod>(p))
      .filter((p) => p.spec?.nodeName === this.node.name);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.bucket !== 'pods') return [];
    const pod = asStored<Pod>(event.object);
    if (pod.spec?.nodeName !== this.node.name) return [];
    if (event.type === 'DELETED') {
      this.processes?.forget(pod.metadata.uid!);
      this.logs.forgetPod(pod.metadata.uid!);
      this.usedIPs.delete(pod.metadata.uid!);
      this.killing.delete(pod.metadata.uid!);
      this.gateRecorded.delete(pod.metadata.uid!);
      for (const c of pod.spec?.containers ?? []) this.unhealthy.delete(`${pod.metadata.uid}/${c.name}`);
      return [];
    }
    return [`${pod.metadata.namespace}/${pod.metadata.name}`];
  }

  reconcile(key: string): ReconcileResult | void {
    if (!this.running) return;
    if (key === nodeKey) return this.heartbeat();
    const [namespace, name] = key.split('/') as [string, string];
    const stored = this.client.get('pods', namespace, name);
    const pod = stored && asStored<Pod>(stored);
    if (!pod || pod.spec?.nodeName !== this.node.name) return;
    let behaviour: PodBehaviour;
    try {
      behaviour = this.scripts.behaviourOf(pod);
    } catch (err) {
      this.events.record(pod, 'Warning', 'FailedSimulation', (err as Error).message);
      return;
    }
    const now = this.clock.now();
    if (this.processes?.runs(pod)) return this.reconcileProcessPod(pod, behaviour, now);
    if (pod.metadata.deletionTimestamp) return this.stop(pod, behaviour, now);
    if (isTerminal(pod)) return;
    if (!pod.status?.startTime) return this.admit(pod, behaviour, now);
    return this.advance(pod, behaviour, now);
  }

  /** A pod with a container mapped to a local build: admitted here, then run by ProcessPods. */
  private reconcileProcessPod(pod: Stored<Pod>, behaviour: PodBehaviour, now: number): ReconcileResult | void {
    const processes = this.processes!;
    if (pod.metadata.deletionTimestamp) {
      if (!processes.stop(pod, now)) return;
      const status: KubeletPodStatus = copyObject(pod.status ?? {});
      const finish = (cs: KubeletContainerStatus): KubeletContainerStatus => {
        if (!cs.state?.running) return cs;
        const exit = processes.exitOf(pod, cs.name) ?? { exitCode: 137, at: now };
        const terminated = { exitCode: exit.exitCode, reason: exit.exitCode === 0 ? 'Completed' : 'Error', startedAt: cs.state.running.startedAt, finishedAt: rfc3339(exit.at), containerID: cs.containerID };
        return { ...cs, state: { terminated }, ready: false, started: false };
      };
      if (status.initContainerStatuses) status.initContainerStatuses = status.initContainerStatuses.map(finish);
      status.containerStatuses = (status.containerStatuses ?? []).map(finish);
      return this.finishDeletion(pod, status, now);
    }
    if (isTerminal(pod)) return;
    if (!pod.status?.startTime) return this.admit(pod, behaviour, now);
    if (this.heldByMountGate(pod, [...this.gates, (p: KubeObject) => processes.volumesMissing(p)])) return { requeueAfterMs: gateRetryMs };
    return processes.advance(pod, now);
  }

  // ---- node ---------------------------------------------------------------------------------

  private register(): void {
    const at = rfc3339(this.clock.now());
    let node = this.client.get('nodes', undefined, this.node.name);
    if (!node) node = this.client.create('nodes', undefined, nodeObject(this.node.name, this.node.index, this.node.count, at));
    if (!this.client.get('coordination.k8s.io/leases', nodeLeaseNamespace, this.node.name)) {
      this.client.create('coordination.k8s.io/leases', nodeLeaseNamespace, nodeLeaseObject(node, rfc3339Micro(this.clock.now())));
    }
    this.lastStatusReport = this.clock.now();
  }

  /** Renews the Lease; re-posts node status when it is not Ready or every 5 minutes. */
  private heartbeat(): ReconcileResult {
    const now = this.clock.now();
    const storedLease = this.client.get('coordination.k8s.io/leases', nodeLeaseNamespace, this.node.name);
    const lease = storedLease && asStored<Lease>(storedLease);
    const storedNode = this.client.get('nodes', undefined, this.node.name);
    const node = storedNode && asStored<Node>(storedNode);
    if (!node) {
      this.register();
      return { requeueAfterMs: leaseRenewMs };
    }
    if (lease) this.client.update('coordination.k8s.io/leases', { ...lease, spec: { ...lease.spec, holderIdentity: this.node.name, renewTime: rfc3339Micro(now) } });
    else this.client.create('coordination.k8s.io/leases', nodeLeaseNamespace, nodeLeaseObject(node, rfc3339Micro(now)));
    this.recordSchedulableChange(node);
    const ready = (node.status?.conditions ?? []).find((c: NodeCondition) => c.type === 'Ready');
    if (ready?.status !== 'True' || now - this.lastStatusReport >= nodeStatusReportMs) {
      const at = rfc3339(now);
      const conditions = healthyNodeConditions(at).map((c) => {
        const old = (node.status?.conditions ?? []).find((o: NodeCondition) => o.type === c.type);
        return old && old.status === c.status ? { ...c, lastTransitionTime: old.lastTransitionTime } : c;
      });
      this.client.updateStatus('nodes', { ...node, status: { ...node.status, conditions } });
      this.lastStatusReport = now;
    }
    return { requeueAfterMs: leaseRenewMs };
  }

  /**
   * As the kubelet's status sync does: when spec.unschedulable changed since the last sync (a cordon
   * or uncordon), a Normal NodeNotSchedulable / NodeSchedulable event about the node.
   */
  private recordSchedulableChange(node: Stored<Node>): void {
    const unschedulable = node.spec?.unschedulable === true;
    if (unschedulable === this.lastUnschedulable) return;
    this.lastUnschedulable = unschedulable;
    const reason = unschedulable ? 'NodeNotSchedulable' : 'NodeSchedulable';
    // the kubelet's nodeRef: kind and name, with the node's name as its UID
    const nodeRef: KubeObject = { kind: 'Node', metadata: { name: this.node.name, uid: this.node.name } };
    this.events.record(nodeRef, 'Normal', reason, `Node ${this.node.name} status is now: ${reason}`);
  }

  // ---- pods ---------------------------------------------------------------------------------

  private containerId(): string {
    return Array.from({ length: 64 }, () => Math.floor(this.random.next() * 16).toString(16)).join('');
  }

  /** The image's repo digest: one per image reference, the same on every node (a registry's digest). */
  private imageId(image: string | undefined): string {
    const ref = imageReference(image);
    if (ref.includes('@')) return ref;
    const digest = createHash('sha256').update(ref).digest('hex');
    return `${ref.replace(/:[^:/]+$/, '')}@sha256:${digest}`;
  }

  /** The first IP of the node's /24 not in use (host-local IPAM hands them out in order from .2). */
  private allocateIP(podUid: string): string {
    const existing = this.usedIPs.get(podUid);
    if (existing) return existing;
    const taken = new Set(this.usedIPs.values());
    for (let host = 2; host < 255; host++) {
      const ip = `10.244.${this.node.index}.${host}`;
      if (!taken.has(ip)) {
        this.usedIPs.set(podUid, ip);
        return ip;
      }
    }
    throw new Error(`node ${this.node.name}: no pod IP left in 10.244.${this.node.index}.0/24`);
  }

  private hostIP(): string {
    return nodeInternalIP(this.node.index);
  }

  /** A freshly bound pod: sandbox, image pulls, every container waiting. */
  private admit(pod: Stored<Pod>, behaviour: PodBehaviour, now: number): ReconcileResult | void {
    if (behaviour.outcome === 'pending') return;
    const at = rfc3339(now);
    const rejection = this.admissionFailure(pod);
    if (rejection) {
      this.events.record(pod, 'Warning', rejection.reason, rejection.message);
      const status = { ...pod.status, phase: 'Failed', reason: rejection.reason, message: `Pod was rejected: ${rejection.message}`, startTime: at };
      this.client.updateStatus('pods', { ...pod, status });
      return;
    }
    const status: KubeletPodStatus = copyObject(pod.status ?? {});
    const inits: Container[] = pod.spec!.initContainers ?? [];
    const containers: Container[] = pod.spec!.containers ?? [];
    const waitingReason = inits.length ? 'PodInitializing' : 'ContainerCreating';
    const waiting = (c: Container, reason: string): KubeletContainerStatus => ({ name: c.name, state: { waiting: { reason } }, lastState: {}, ready: false, restartCount: 0, image: c.image, imageID: '', started: false });
    status.phase = 'Pending';
    status.hostIP = this.hostIP();
    status.hostIPs = [{ ip: this.hostIP() }];
    status.startTime = at;
    if (inits.length) status.initContainerStatuses = inits.map((c) => waiting(c, 'PodInitializing'));
    status.containerStatuses = containers.map((c) => waiting(c, waitingReason));
    setCondition(status, condition('PodReadyToStartContainers', 'False', at));
    if (inits.length) setCondition(status, condition('Initialized', 'False', at, 'ContainersNotInitialized', `containers with incomplete status: [${inits.map((c) => c.name).join(' ')}]`));
    else setCondition(status, condition('Initialized', 'True', at));
    const names = containers.map((c) => c.name).join(' ');
    setCondition(status, condition('Ready', 'False', at, 'ContainersNotReady', `containers with unready status: [${names}]`));
    setCondition(status, condition('ContainersReady', 'False', at, 'ContainersNotReady', `containers with unready status: [${names}]`));
    status.conditions = orderConditions(status.conditions);
    status.qosClass ??= 'BestEffort';
    this.client.updateStatus('pods', { ...pod, status });
    return { requeueAfterMs: behaviour.startDelayMs };
  }

  /**
   * The kubelet's own admission (pods bound without the scheduler, by spec.nodeName): a pod whose
   * node selection does not match or whose requests do not fit what is left is rejected.
   */
  private admissionFailure(pod: Stored<Pod>): { reason: string; message: string } | undefined {
    const storedNode = this.client.get('nodes', undefined, this.node.name);
    const node = storedNode && asStored<Node>(storedNode);
    if (!node) return undefined;
    if (!matchesNodeSelection(pod, node)) return { reason: 'NodeAffinity', message: 'Predicate NodeAffinity failed' };
    const others = this.myPods().filter((p) => p.metadata.uid !== pod.metadata.uid && p.status?.startTime && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
    const wanted = podRequests(pod);
    for (const [resource, amount] of Object.entries(wanted)) {
      if (amount === 0) continue;
      const used = others.reduce((n, p) => n + (podRequests(p)[resource] ?? 0), 0);
      const capacity = milli(node.status?.allocatable?.[resource] ?? '0');
      if (used + amount <= capacity) continue;
      // the kubelet reports cpu in millicores and other resources in units
      const unit = (v: number): number => Math.round(resource === 'cpu' ? v : v / 1000);
      return { reason: `OutOf${resource}`, message: `Node didn't have enough resource: ${resource}, requested: ${unit(amount)}, used: ${unit(used)}, capacity: ${unit(capacity)}` };
    }
    return undefined;
  }

  /** Image pull events for a container about to be created (the pull takes the pod's start delay). */
  private pullImage(pod: Stored<Pod>, container: Container, pullMs: number): void {
    const image: string = container.image ?? '';
    const policy = container.imagePullPolicy ?? 'IfNotPresent';
    if (policy !== 'Always' && this.pulledImages.has(image)) {
      this.events.record(pod, 'Normal', 'Pulled', `Container image "${image}" already present on machine`, container.name);
      return;
    }
    this.pulledImages.add(image);
    this.events.record(pod, 'Normal', 'Pulling', `Pulling image "${image}"`, container.name);
    const took = formatGoDuration(pullMs);
    this.events.record(pod, 'Normal', 'Pulled', `Successfully pulled image "${image}" in ${took} (${took} including waiting). Image size: 2155 bytes.`, container.name);
  }

  /** Starts a container instance: a fresh container id, events, log lines. */
  private startContainer(pod: Stored<Pod>, container: Container, previous: KubeletContainerStatus | undefined, now: number, behaviour: PodBehaviour, pullMs: number): KubeletContainerStatus {
    this.pullImage(pod, container, pullMs);
    const id = this.containerId();
    this.events.record(pod, 'Normal', 'Created', `Created container: ${container.name}`, container.name);
    this.events.record(pod, 'Normal', 'Started', `Started container ${container.name}`, container.name);
    const command = [...(container.command ?? []), ...(container.args ?? [])].join(' ');
    this.logs.write(pod.metadata.uid!, `containerd://${id}`, now, `kubeforge: container ${container.name} started (image ${container.image}${command ? `, command: ${command}` : ''})`);
    const extra = behaviour.logs ? behaviour.logs.split('\n').filter((l) => l !== '') : [];
    if (extra.length) this.logs.write(pod.metadata.uid!, `containerd://${id}`, now, ...extra);
    const startupProbe = container.startupProbe;
    return {
      name: container.name,
      state: { running: { startedAt: rfc3339(now) } },
      lastState: previous?.lastState ?? {},
      ready: false,
      restartCount: previous?.restartCount ?? 0,
      image: imageReference(container.image),
      imageID: previous?.imageID || this.imageId(container.image),
      containerID: `containerd://${id}`,
      started: !startupProbe,
    };
  }

  private terminate(pod: Stored<Pod>, cs: KubeletContainerStatus, exitCode: number, now: number, line: string): KubeletContainerStatus {
    const terminated = {
      exitCode,
      reason: exitCode === 0 ? 'Completed' : 'Error',
      startedAt: cs.state?.running?.startedAt ?? rfc3339(now),
      finishedAt: rfc3339(now),
      containerID: cs.containerID,
    };
    if (cs.containerID) {
      if (line) this.logs.write(pod.metadata.uid!, cs.containerID, now, line);
      this.logs.end(pod.metadata.uid!, cs.containerID);
    }
    return { ...cs, state: { terminated }, ready: false, started: false };
  }

  /** The time a running container's probe makes it started/ready (ms), from its start. */
  private probeDelayMs(probe: Probe | undefined): number {
    return probe ? (probe.initialDelaySeconds ?? 0) * 1000 : 0;
  }

  /** Moves every container along: init containers in order, then app containers, exits, restarts, probes. */
  private advance(pod: Stored<Pod>, behaviour: PodBehaviour, now: number): ReconcileResult | void {
    // admit() wrote the kubelet's status
    const status = copyObject(pod.status) as KubeletPodStatus;
    const policy: string = pod.spec!.restartPolicy ?? 'Always';
    const at = rfc3339(now);
    const pullMs = behaviour.startDelayMs;
    const startedAt = time(status.startTime);
    let nextDue = Infinity;
    const due = (t: number): void => void (nextDue = Math.min(nextDue, t));
    if (now < startedAt + behaviour.startDelayMs) return { requeueAfterMs: startedAt + behaviour.startDelayMs - now };
    if (this.heldByMountGate(pod, this.gates)) return { requeueAfterMs: gateRetryMs };

    // init containers, one at a time
    const inits: Container[] = pod.spec!.initContainers ?? [];
    // admit() wrote one status per init container
    const initStatuses = status.initContainerStatuses!;
    let initsDone = true;
    for (let i = 0; i < inits.length; i++) {
      const c = inits[i]!;
      let cs: KubeletContainerStatus = initStatuses[i]!;
      if (cs.state?.terminated?.exitCode === 0) continue;
      initsDone = false;
      if (cs.state?.waiting?.reason === 'CrashLoopBackOff') {
        const retry = time(cs.lastState?.terminated?.finishedAt) + backoffMs(cs.restartCount);
        if (retry > now) {
          due(retry);
          break;
        }
      }
      if (!cs.state?.running) {
        cs = this.startContainer(pod, c, cs, now, behaviour, pullMs);
        cs.started = false;
        initStatuses[i] = cs;
        setCondition(status, condition('PodReadyToStartContainers', 'True', at));
      }
      const command = readCommand(c);
      const runMs = command.runMs ?? 0;
      const end = time(cs.state?.running?.startedAt) + runMs;
      if (end > now) {
        due(end);
        break;
      }
      const exitCode = behaviour.failContainers?.includes(c.name) ? behaviour.exitCode || 1 : command.exitCode ?? 0;
      const done = this.terminate(pod, cs, exitCode, now, `kubeforge: container ${c.name} exited with code ${exitCode}`);
      if (exitCode === 0) {
        initStatuses[i] = done;
        continue;
      }
      if (policy === 'Never') {
        initStatuses[i] = done;
        status.phase = 'Failed';
        setCondition(status, condition('Initialized', 'False', at, 'ContainersNotInitialized', `containers with incomplete status: [${c.name}]`));
        break;
      }
      const restartCount = (cs.restartCount ?? 0) + 1;
      initStatuses[i] = { ...cs, state: { waiting: { reason: 'CrashLoopBackOff', message: this.backoffMessage(pod, c.name, restartCount) } }, lastState: { terminated: done.state?.terminated }, ready: false, started: false, restartCount };
      this.events.record(pod, 'Warning', 'BackOff', 'Back-off restarting failed container ' + c.name + ' in pod ' + `${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`, c.name);
      due(now + backoffMs(restartCount));
      break;
    }
    if (initsDone && inits.length) setCondition(status, condition('Initialized', 'True', at));

    // app containers
    if (initsDone && status.phase !== 'Failed') {
      const previous = status.containerStatuses ?? [];
      const containerStatuses: KubeletContainerStatus[] = (pod.spec!.containers ?? []).map((c: Container, i: number): KubeletContainerStatus => {
        let cs: KubeletContainerStatus = previous[i] ?? { name: c.name, restartCount: 0, lastState: {} };
        if (cs.state?.waiting?.reason === 'CrashLoopBackOff') {
          const retry = time(cs.lastState?.terminated?.finishedAt) + backoffMs(cs.restartCount);
          if (retry > now) return due(retry), cs;
        }
        if (cs.state?.waiting) {
          cs = this.startContainer(pod, c, cs, now, behaviour, pullMs);
          setCondition(status, condition('PodReadyToStartContainers', 'True', at));
        }
        if (!cs.state?.running) return cs;
        const started = time(cs.state.running.startedAt);
        const startupAt = started + this.probeDelayMs(c.startupProbe);
        if (!cs.started) {
          if (startupAt > now) due(startupAt);
          else cs = { ...cs, started: true };
        }
        const readyAt = Math.max(startupAt, started + this.probeDelayMs(c.readinessProbe));
        if (cs.started && !cs.ready) {
          if (readyAt > now) due(readyAt);
          else if (behaviour.readiness === 'fail' && c.readinessProbe) this.probeFailed(pod, c, status.podIP);
          else cs = { ...cs, ready: true };
        } else if (cs.ready && behaviour.readiness === 'fail' && c.readinessProbe) {
          // a readiness probe that starts failing on a running container (the annotation set later)
          this.probeFailed(pod, c, status.podIP);
          cs = { ...cs, ready: false };
        }
        const killedAt = behaviour.liveness === 'fail' && c.livenessProbe ? startupAt + livenessKillAfterMs(c.livenessProbe) : Infinity;
        const exitsAt = behaviour.runDurationMs === undefined ? Infinity : started + behaviour.runDurationMs;
        const end = Math.min(killedAt, exitsAt);
        if (end === Infinity) return cs;
        if (end > now) return due(end), cs;
        let exitCode: number;
        let line = '';
        if (killedAt <= exitsAt) {
          this.livenessFailed(pod, c, status.podIP);
          exitCode = 137;
        } else {
          const fails = behaviour.failContainers === undefined || behaviour.failContainers.includes(c.name);
          exitCode = fails ? behaviour.exitCode : 0;
          line = `kubeforge: container ${c.name} exited with code ${exitCode}`;
        }
        const done = this.terminate(pod, cs, exitCode, now, line);
        const restart = policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);
        if (!restart) return done;
        const restartCount = (cs.restartCount ?? 0) + 1;
        this.events.record(pod, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`, c.name);
        due(now + backoffMs(restartCount));
        return { ...done, state: { waiting: { reason: 'CrashLoopBackOff', message: this.backoffMessage(pod, c.name, restartCount) } }, lastState: { terminated: done.state?.terminated }, restartCount };
      });
      status.containerStatuses = containerStatuses;
      if (containerStatuses.some((cs) => cs.state?.running || cs.state?.waiting?.reason === 'CrashLoopBackOff')) status.phase = 'Running';
      finishIfDone(status, at);
    }
    status.conditions = orderConditions(status.conditions);
    if (status.podIP === undefined && status.conditions.some((c) => c.type === 'PodReadyToStartContainers' && c.status === 'True')) {
      // host-network pods share the node's address
      const ip = pod.spec!.hostNetwork ? this.hostIP() : this.allocateIP(pod.metadata.uid!);
      status.podIP = ip;
      status.podIPs = [{ ip }];
    }
    this.client.updateStatus('pods', { ...pod, status });
    if (Number.isFinite(nextDue)) return { requeueAfterMs: Math.max(0, nextDue - now) };
  }

  /** A liveness probe failed failureThreshold times: Unhealthy events, then the kubelet kills the container. */
  private livenessFailed(pod: Stored<Pod>, container: Container, podIP: string | undefined): void {
    const probe = container.livenessProbe!; // called only for a container with a liveness probe
    const threshold = probe.failureThreshold ?? 3;
    for (let i = 0; i < threshold; i++) this.events.record(pod, 'Warning', 'Unhealthy', `Liveness probe failed: ${probeFailure(probe, podIP, 500)}`, container.name);
    this.events.record(pod, 'Normal', 'Killing', `Container ${container.name} failed liveness probe, will be restarted`, container.name);
  }

  /** A readiness probe that does not pass: one Warning `Unhealthy` event per container instance. */
  private probeFailed(pod: Stored<Pod>, container: Container, podIP: string | undefined): void {
    const key = `${pod.metadata.uid}/${container.name}`;
    if (this.unhealthy.has(key)) return;
    this.unhealthy.add(key);
    this.events.record(pod, 'Warning', 'Unhealthy', `Readiness probe failed: ${probeFailure(container.readinessProbe!, podIP, 503)}`, container.name);
  }

  private backoffMessage(pod: Stored<Pod>, container: string, restartCount: number): string {
    return `back-off ${formatGoDuration(backoffMs(restartCount))} restarting failed container=${container} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
  }

  /**
   * A deleted pod: Killing events, then each running container exits 143 when the app stops within
   * the grace period (its stop delay), else 137 when the grace period runs out; then the pod goes.
   */
  private stop(pod: Stored<Pod>, behaviour: PodBehaviour, now: number): ReconcileResult | void {
    const graceMs = (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
    const requestedAt = time(pod.metadata.deletionTimestamp) - graceMs;
    const status: KubeletPodStatus = copyObject(pod.status ?? {});
    const running = (cs: KubeletContainerStatus): boolean => Boolean(cs.state?.running);
    const all: KubeletContainerStatus[] = [...(status.initContainerStatuses ?? []), ...(status.containerStatuses ?? [])];
    if (!this.killing.has(pod.metadata.uid!)) {
      this.killing.add(pod.metadata.uid!);
      for (const cs of all.filter(running)) this.events.record(pod, 'Normal', 'Killing', `Stopping container ${cs.name}`, cs.name);
    }
    const sigtermHonouredAt = requestedAt + behaviour.stopDelayMs;
    const stopAt = Math.min(sigtermHonouredAt, requestedAt + graceMs);
    if (all.some(running) && stopAt > now) return { requeueAfterMs: stopAt - now };
    const exitCode = behaviour.stopDelayMs <= graceMs ? 143 : 137;
    const kill = (cs: KubeletContainerStatus): KubeletContainerStatus =>
      running(cs) ? this.terminate(pod, cs, exitCode, now, exitCode === 143 ? `kubeforge: container ${cs.name} received SIGTERM, exiting` : '') : cs;
    if (status.initContainerStatuses) status.initContainerStatuses = status.initContainerStatuses.map(kill);
    status.containerStatuses = (status.containerStatuses ?? []).map(kill);
    this.finishDeletion(pod, status, now);
  }

  /**
   * The end of a deletion once every container stopped: containers that never ran end as the runtime
   * reports them, the final status is written and the pod is removed (grace period 0).
   */
  private finishDeletion(pod: Stored<Pod>, status: KubeletPodStatus, now: number): void {
    const at = rfc3339(now);
    const unknown = (cs: KubeletContainerStatus): KubeletContainerStatus => {
      if (!cs.state?.waiting) return cs;
      // a container between runs ends with its last termination; one that never ran is unknown to the runtime
      const terminated = cs.lastState?.terminated ?? { exitCode: 137, reason: 'ContainerStatusUnknown', message: 'The container could not be located when the pod was terminated', startedAt: null, finishedAt: null };
      return { ...cs, state: { terminated }, ready: false, started: false };
    };
    if (status.initContainerStatuses) status.initContainerStatuses = status.initContainerStatuses.map(unknown);
    status.containerStatuses = (status.containerStatuses ?? []).map(unknown);
    if (status.containerStatuses.length && status.containerStatuses.every((cs: KubeletContainerStatus) => cs.state?.terminated)) finishIfDone(status, at);
    try {
      this.client.updateStatus('pods', { ...pod, status });
      // once asked to go now, the pod waits only for its finalizers: asking again changes nothing
      if (pod.metadata.deletionGracePeriodSeconds !== 0) this.client.delete('pods', pod.metadata.namespace, pod.metadata.name, { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } });
    } catch (err) {
      if (!isApiError(err, 404) && !isApiError(err, 409)) throw err;
    }
  }
}
