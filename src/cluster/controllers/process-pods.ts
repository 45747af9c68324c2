/**
 * The kubelet's real-process path: pods with a container whose image is mapped to a local build
 * (`LocalImages`) run that container as a Node.js process in the pod's sandbox (`PodSandboxes`: its
 * loopback pod IP; its ServiceAccount token, cluster CA and namespace at `KUBEFORGE_SERVICEACCOUNT_DIR`),
 * with `KUBERNETES_SERVICE_HOST`/`PORT` at the local API server, stdout/stderr as its log, probes that really call it, exits restarted per restartPolicy
 * with CrashLoopBackOff back-off, and SIGTERM → grace period → SIGKILL on deletion. Containers of
 * such a pod whose image is not mapped run as an idle container (running, ready, printing nothing;
 * an unmapped init container completes at once); init containers run one after another. The working
 * directory is the project folder (the image's WORKDIR), or a container's workingDir found inside it.
 *
 * The process runs as the user running the cluster (switching users needs root and a project
 * readable by that user); the pod's user is checked as the kubelet checks it: runAsNonRoot refuses a
 * container whose runAsUser, else the Dockerfile's USER, is root or not numeric.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Container, Pod, Probe } from 'kubernetes-types/core/v1.js';
import type { Clock } from '../../clock/clock.js';
import { rfc3339 } from '../registry/system-metadata.js';
import type { KubeObject, Stored } from '../store/object-store.js';
import { ContainerConfigError, containerArgv, containerEnvironment } from './container-env.js';
import type { ContainerLogs } from './container-logs.js';
import { ContainerProcess } from './container-process.js';
import { type ProbeOutcome, ProbeWorker } from './container-probes.js';
import type { ControllerClient } from './controller-client.js';
import type { ReconcileResult } from './controller-scheduler.js';
import type { EventRecorder } from './event-recorder.js';
import type { LocalImage, LocalImages } from './local-images.js';
import { type PodSandbox, PodSandboxes, type SandboxSettings, serviceAccountMountPath } from './pod-sandboxes.js';
import { missingVolumeSource, podRootEnv, volumeMountsEnv, writeContainerVolumes } from './pod-volumes.js';
import { type KubeletContainerStatus, type KubeletPodStatus, backoffMs, condition, finishIfDone, orderConditions, setCondition } from './pod-status.js';
import { copyObject } from '../store/copy-object.js';

/** The env var naming the ServiceAccount folder (kubeforge/runtime's SERVICE_ACCOUNT_DIR_ENV reads it). */
export const serviceAccountDirEnv = 'KUBEFORGE_SERVICEACCOUNT_DIR';
/** How often a container the kubelet could not create is tried again. */
const configRetryMs = 10_000;

/** What every node's process runner shares. */
export interface ProcessPodsConfig extends SandboxSettings {
  images: LocalImages;
  /** `https://127.0.0.1:<port>` of the local API server. */
  apiServerUrl: string;
}

interface Instance {
  process: ContainerProcess | undefined;
  containerId: string;
  probes: Partial<Record<'startup' | 'readiness' | 'liveness', ProbeWorker>>;
  /** A failed liveness/startup probe had the kubelet stop it (reported once). */
  killedByProbe: boolean;
}

/** A pod's sandbox and its container instances. */
interface Sandbox extends PodSandbox {
  instances: Map<string, Instance>;
  /** The Killing events of a deletion were recorded. */
  stopping: boolean;
}

const probeOf = (container: Container, kind: 'startup' | 'readiness' | 'liveness'): Probe | undefined =>
  kind === 'startup' ? container.startupProbe : kind === 'readiness' ? container.readinessProbe : container.livenessProbe;
/** The project folder stands for the image's WORKDIR; a container's workingDir is looked up inside it (else the folder itself). */
function workingDirectory(container: Container, image: LocalImage): string {
  if (!container.workingDir) return image.projectDir;
  const inside = join(image.projectDir, container.workingDir);
  return existsSync(inside) && statSync(inside).isDirectory() ? inside : image.projectDir;
}
const time = (text: string | null | undefined): number => (text ? Date.parse(text) : 0);
const podKey = (pod: Stored<Pod>): string => `${pod.metadata.namespace}/${pod.metadata.name}`;

export class ProcessPods {
  /** Where the pod's Secret and ConfigMap volumes are read from. */
  private readonly volumeSources = {
    secret: (ns: string, name: string) => (name ? this.client.get('secrets', ns, name) : undefined),
    configMap: (ns: string, name: string) => (name ? this.client.get('configmaps', ns, name) : undefined),
  };

  /** Why the pod's volumes cannot be set up yet (a FailedMount message), or undefined. */
  volumesMissing(pod: Stored<Pod>): string | undefined {
    return missingVolumeSource(pod, this.volumeSources);
  }

  private readonly sandboxes = new Map<string, Sandbox>();
  private readonly made: PodSandboxes;

  constructor(
    private readonly config: ProcessPodsConfig,
    node: { name: string; index: number },
    private readonly client: ControllerClient,
    private readonly clock: Clock,
    private readonly events: EventRecorder,
    private readonly logs: ContainerLogs,
    private readonly newContainerId: () => string,
    private readonly requeue: (key: string) => void,
  ) {
    this.made = new PodSandboxes(config, node, client, clock, newContainerId);
  }

  /** Whether any of the pod's containers has a mapped image. */
  runs(pod: Stored<Pod>): boolean {
    const all: Container[] = [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
    return all.some((c) => this.config.images.find(c.image) !== undefined);
  }

  /** No probe call is under way (settle() waits for them). */
  idle(): boolean {
    for (const s of this.sandboxes.values()) for (const i of s.instances.values()) if (Object.values(i.probes).some((p) => p?.inFlight)) return false;
    return true;
  }

  // ---- sandbox -------------------------------------------------------------------------------

  private sandbox(pod: Stored<Pod>): Sandbox {
    let sandbox = this.sandboxes.get(pod.metadata.uid!);
    if (!sandbox) this.sandboxes.set(pod.metadata.uid!, (sandbox = { ...this.made.create(pod), instances: new Map(), stopping: false }));
    return sandbox;
  }

  /** The pod is gone: its processes are killed, its probes stopped, its folder removed. */
  forget(podUid: string): void {
    const sandbox = this.sandboxes.get(podUid);
    if (!sandbox) return;
    this.sandboxes.delete(podUid);
    for (const instance of sandbox.instances.values()) this.discard(instance);
    this.made.remove(podUid, sandbox);
  }

  /** Every process of this node, killed (the cluster stops); resolves once they ended. */
  async stopAll(): Promise<void> {
    const exits: Promise<void>[] = [];
    for (const sandbox of this.sandboxes.values()) {
      for (const instance of sandbox.instances.values()) {
        for (const p of Object.values(instance.probes)) p?.stop();
        if (instance.process?.running) {
          instance.process.kill();
          exits.push(instance.process.exited);
        }
      }
    }
    await Promise.all(exits);
    for (const uid of [...this.sandboxes.keys()]) this.forget(uid);
  }

  private discard(instance: Instance): void {
    for (const p of Object.values(instance.probes)) p?.stop();
    instance.process?.kill();
  }

  // ---- containers ----------------------------------------------------------------------------

  /** The runAsNonRoot check the kubelet makes before creating a container. */
  private checkUser(pod: Stored<Pod>, container: Container, image: LocalImage | undefined): void {
    const podContext = pod.spec?.securityContext ?? {};
    const ctx = container.securityContext ?? {};
    const nonRoot = ctx.runAsNonRoot ?? podContext.runAsNonRoot;
    if (!nonRoot) return;
    const where = `(pod: "${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})", container: ${container.name})`;
    const runAsUser = ctx.runAsUser ?? podContext.runAsUser;
    if (runAsUser !== undefined) {
      if (runAsUser === 0) throw new ContainerConfigError(`container's runAsUser breaks non-root policy ${where}`);
      return;
    }
    const user = image?.user?.split(':')[0];
    if (user === undefined || user === '' || user === '0' || user === 'root') throw new ContainerConfigError(`container has runAsNonRoot and image will run as root ${where}`);
    if (!/^\d+$/.test(user)) throw new ContainerConfigError(`container has runAsNonRoot and image has non-numeric user (${user}), cannot verify user is non-root ${where}`);
  }

  private environment(pod: Stored<Pod>, container: Container, sandbox: Sandbox): Record<string, string> {
    const api = new URL(this.config.apiServerUrl);
    const port = api.port || '443';
    const declared = containerEnvironment(pod, container, {
      secret: (ns, name) => (name ? this.client.get('secrets', ns, name) : undefined),
      configMap: (ns, name) => (name ? this.client.get('configmaps', ns, name) : undefined),
    });
    const mounts = writeContainerVolumes(pod, container, sandbox.dir, this.volumeSources);
    if (pod.spec?.automountServiceAccountToken !== false) mounts.push(serviceAccountMountPath);
    const preload = `--import="${pathToFileURL(sandbox.networkModule).href}" --import="${pathToFileURL(sandbox.volumesModule).href}"`;
    return {
      PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
      HOSTNAME: pod.spec?.hostname ?? pod.metadata.name,
      HOME: sandbox.homeDir,
      KUBERNETES_SERVICE_HOST: api.hostname,
      KUBERNETES_SERVICE_PORT: port,
      KUBERNETES_SERVICE_PORT_HTTPS: port,
      KUBERNETES_PORT: `tcp://${api.hostname}:${port}`,
      ...(pod.spec?.automountServiceAccountToken === false ? {} : { [serviceAccountDirEnv]: sandbox.serviceAccountDir }),
      KUBEFORGE_POD_IP: sandbox.ip,
      [podRootEnv]: sandbox.dir,
      [volumeMountsEnv]: mounts.join('\n'),
      ...declared,
      NODE_OPTIONS: declared.NODE_OPTIONS ? `${preload} ${declared.NODE_OPTIONS}` : preload,
    };
  }

  /** Creates and starts one container instance; a status `running`, or `waiting` with the kubelet's config error. */
  private start(pod: Stored<Pod>, container: Container, cs: KubeletContainerStatus, sandbox: Sandbox, now: number): KubeletContainerStatus {
    const image = this.config.images.find(container.image);
    try {
      this.checkUser(pod, container, image);
      if (!sandbox.instances.size) this.made.writeServiceAccount(pod, sandbox);
      const env = image ? this.environment(pod, container, sandbox) : {};
      const containerId = this.newContainerId();
      this.events.record(pod, 'Normal', 'Pulled', `Container image "${container.image}" already present on machine`, container.name);
      this.events.record(pod, 'Normal', 'Created', `Created container: ${container.name}`, container.name);
      this.events.record(pod, 'Normal', 'Started', `Started container ${container.name}`, container.name);
      const key = podKey(pod);
      const proc = image ? new ContainerProcess({ argv: containerArgv(container, image, env), cwd: workingDirectory(container, image), env }, pod.metadata.uid!, `containerd://${containerId}`, this.clock, this.logs, () => this.requeue(key)) : undefined;
      const instance: Instance = { process: proc, containerId: `containerd://${containerId}`, probes: {}, killedByProbe: false };
      sandbox.instances.set(container.name, instance);
      const startedAt = now;
      if (proc && container.startupProbe) this.probe(pod, container, instance, 'startup', sandbox.ip, startedAt);
      else if (proc) this.startRunningProbes(pod, container, instance, sandbox.ip, startedAt);
      return {
        name: container.name,
        state: { running: { startedAt: rfc3339(now) } },
        lastState: cs.lastState ?? {},
        ready: false,
        restartCount: cs.restartCount ?? 0,
        image: container.image,
        imageID: image?.imageId ?? '',
        containerID: instance.containerId,
        started: !(proc && container.startupProbe),
      };
    } catch (err) {
      if (!(err instanceof ContainerConfigError)) throw err;
      this.events.record(pod, 'Warning', 'Failed', `Error: ${err.message}`, container.name);
      return { ...cs, state: { waiting: { reason: 'CreateContainerConfigError', message: err.message } }, ready: false, started: false };
    }
  }

  private probe(pod: Stored<Pod>, container: Container, instance: Instance, kind: 'startup' | 'readiness' | 'liveness', ip: string, startedAt: number): void {
    const spec = probeOf(container, kind)!;
    const label = kind[0]!.toUpperCase() + kind.slice(1);
    const onFailure = (o: ProbeOutcome): void => this.events.record(pod, 'Warning', 'Unhealthy', `${label} probe failed: ${o.message}`, container.name);
    const worker = new ProbeWorker(kind, spec, container, ip, this.clock, () => this.requeue(podKey(pod)), onFailure);
    instance.probes[kind] = worker;
    worker.start(Math.max(this.clock.now(), startedAt + (spec.initialDelaySeconds ?? 0) * 1000));
  }

  /** Readiness and liveness probes run once the container has started (its startup probe passed). */
  private startRunningProbes(pod: Stored<Pod>, container: Container, instance: Instance, ip: string, startedAt: number): void {
    if (container.readinessProbe) this.probe(pod, container, instance, 'readiness', ip, startedAt);
    if (container.livenessProbe) this.probe(pod, container, instance, 'liveness', ip, startedAt);
  }

  /** The grace period the kubelet gives a container it kills for a failed probe. */
  private probeKillGraceMs(pod: Stored<Pod>, probe: Probe): number {
    return (probe.terminationGracePeriodSeconds ?? pod.spec?.terminationGracePeriodSeconds ?? 30) * 1000;
  }

  /**
   * One container's next status: started when waiting (and not backing off), its exit recorded and
   * restarted per `policy`, probe results applied. `due` collects when to look again.
   */
  private sync(pod: Stored<Pod>, container: Container, previous: KubeletContainerStatus | undefined, sandbox: Sandbox, policy: string, now: number, due: (t: number) => void): KubeletContainerStatus {
    let cs: KubeletContainerStatus = previous ?? { name: container.name, state: { waiting: { reason: 'ContainerCreating' } }, lastState: {}, ready: false, restartCount: 0, image: container.image, imageID: '', started: false };
    if (cs.state?.waiting?.reason === 'CrashLoopBackOff') {
      const retry = time(cs.lastState?.terminated?.finishedAt) + backoffMs(cs.restartCount);
      if (retry > now) {
        due(retry);
        return cs;
      }
    }
    if (cs.state?.running && !sandbox.instances.has(container.name)) {
      // a running status with no process behind it: the cluster (the node) restarted and the container is
      // gone; as a kubelet after a reboot, it is started again at once, its last state unknown
      const terminated = { exitCode: 255, reason: 'Unknown', startedAt: cs.state.running.startedAt, finishedAt: rfc3339(now), containerID: cs.containerID };
      cs = { ...cs, state: { waiting: { reason: 'ContainerCreating' } }, lastState: { terminated }, ready: false, started: false, restartCount: (cs.restartCount ?? 0) + 1 };
    }
    if (cs.state?.waiting) {
      cs = this.start(pod, container, cs, sandbox, now);
      if (cs.state?.waiting) {
        due(now + configRetryMs);
        return cs;
      }
    }
    if (!cs.state?.running) return cs;
    const instance = sandbox.instances.get(container.name)!;
    const exit = instance.process?.exit;
    if (exit) {
      this.discard(instance);
      sandbox.instances.delete(container.name);
      const terminated = {
        exitCode: exit.exitCode,
        reason: exit.reason,
        ...(exit.message ? { message: exit.message } : {}),
        startedAt: cs.state.running.startedAt,
        finishedAt: rfc3339(exit.at),
        containerID: cs.containerID,
      };
      const done: KubeletContainerStatus = { ...cs, state: { terminated }, ready: false, started: false };
      const restart = policy === 'Always' || (policy === 'OnFailure' && exit.exitCode !== 0);
      if (!restart) return done;
      const restartCount = (cs.restartCount ?? 0) + 1;
      this.events.record(pod, 'Warning', 'BackOff', `Back-off restarting failed container ${container.name} in pod ${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`, container.name);
      due(time(terminated.finishedAt) + backoffMs(restartCount));
      const message = `back-off ${backoffMs(restartCount) / 1000}s restarting failed container=${container.name} pod=${pod.metadata.name}_${pod.metadata.namespace}(${pod.metadata.uid})`;
      return { ...done, state: { waiting: { reason: 'CrashLoopBackOff', message } }, lastState: { terminated }, restartCount };
    }
    if (!instance.process) return { ...cs, started: true, ready: true };
    const { startup, readiness, liveness } = instance.probes;
    const startedAt = time(cs.state.running.startedAt);
    if (!cs.started && startup?.result === 'success') {
      startup.stop();
      cs = { ...cs, started: true };
      this.startRunningProbes(pod, container, instance, sandbox.ip, startedAt);
    }
    const failed = startup?.result === 'failure' && !cs.started ? 'startup' : liveness?.result === 'failure' ? 'liveness' : undefined;
    if (failed && !instance.killedByProbe) {
      instance.killedByProbe = true;
      this.events.record(pod, 'Normal', 'Killing', `Container ${container.name} failed ${failed} probe, will be restarted`, container.name);
      instance.process.terminate(this.probeKillGraceMs(pod, probeOf(container, failed)!));
    }
    const ready = Boolean(cs.started) && (readiness ? readiness.result === 'success' : true);
    return { ...cs, ready };
  }

  /** A bound pod moves on: sandbox, init containers in order, then its containers. */
  advance(pod: Stored<Pod>, now: number): ReconcileResult | void {
    // admit() wrote the kubelet's status
    const status = copyObject(pod.status) as KubeletPodStatus;
    const policy: string = pod.spec!.restartPolicy ?? 'Always';
    const at = rfc3339(now);
    const sandbox = this.sandbox(pod);
    let nextDue = Infinity;
    const due = (t: number): void => void (nextDue = Math.min(nextDue, t));
    status.podIP = sandbox.ip;
    status.podIPs = [{ ip: sandbox.ip }];
    setCondition(status, condition('PodReadyToStartContainers', 'True', at));
    // the downward API (status.podIP, …) sees the sandbox's address
    const seen: KubeObject = { ...pod, status };

    const inits: Container[] = pod.spec!.initContainers ?? [];
    let initsDone = true;
    for (let i = 0; i < inits.length; i++) {
      const current: KubeletContainerStatus | undefined = status.initContainerStatuses?.[i];
      if (current?.state?.terminated?.exitCode === 0) continue;
      initsDone = false;
      // an init container that is not mapped completes at once
      const mapped = this.config.images.find(inits[i]!.image) !== undefined;
      let next = this.sync(seen, inits[i]!, current, sandbox, policy === 'Never' ? 'Never' : 'OnFailure', now, due);
      if (!mapped && next.state?.running) {
        sandbox.instances.delete(inits[i]!.name);
        next = { ...next, state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: next.state.running.startedAt, finishedAt: at, containerID: next.containerID } }, ready: false, started: false };
      }
      // the kubelet's admit() wrote one status per init container
      status.initContainerStatuses![i] = { ...next, ready: next.state?.terminated?.exitCode === 0 };
      if (next.state?.terminated?.exitCode === 0) {
        initsDone = i === inits.length - 1;
        continue;
      }
      if (next.state?.terminated && policy === 'Never') {
        status.phase = 'Failed';
        setCondition(status, condition('Initialized', 'False', at, 'ContainersNotInitialized', `containers with incomplete status: [${inits[i]!.name}]`));
      }
      break;
    }
    if (initsDone && inits.length) setCondition(status, condition('Initialized', 'True', at));
    if (initsDone && status.phase !== 'Failed') {
      const containerStatuses: KubeletContainerStatus[] = (pod.spec!.containers ?? []).map((c: Container, i: number) => this.sync(seen, c, status.containerStatuses?.[i], sandbox, policy, now, due));
      status.containerStatuses = containerStatuses;
      if (containerStatuses.some((cs) => cs.state?.running || cs.state?.waiting?.reason === 'CrashLoopBackOff')) status.phase = 'Running';
      finishIfDone(status, at);
    }
    status.conditions = orderConditions(status.conditions);
    this.client.updateStatus('pods', { ...pod, status });
    if (Number.isFinite(nextDue)) return { requeueAfterMs: Math.max(0, nextDue - now) };
  }

  /**
   * A deleted pod: SIGTERM to every running process (Killing events), SIGKILL when the grace period
   * runs out on the cluster clock; once all ended, the final status and the pod goes.
   * Returns true when the pod's containers have all stopped.
   */
  stop(pod: Stored<Pod>, now: number): boolean {
    const sandbox = this.sandboxes.get(pod.metadata.uid!);
    if (!sandbox) return true;
    const remainingMs = Math.max(0, time(pod.metadata.deletionTimestamp) - now);
    if (!sandbox.stopping) {
      sandbox.stopping = true;
      for (const [name, instance] of sandbox.instances) {
        for (const p of Object.values(instance.probes)) p?.stop();
        if (instance.process?.running) {
          this.events.record(pod, 'Normal', 'Killing', `Stopping container ${name}`, name);
          instance.process.terminate(remainingMs);
        }
      }
    }
    return [...sandbox.instances.values()].every((i) => !i.process?.running);
  }

  /** The exit of a stopped container's process, for its final status (undefined: it had none). */
  exitOf(pod: Stored<Pod>, container: string): { exitCode: number; at: number } | undefined {
    const instance = this.sandboxes.get(pod.metadata.uid!)?.instances.get(container);
    if (!instance) return undefined;
    // an idle container (no process) honours SIGTERM at once
    return instance.process ? instance.process.exit ?? { exitCode: 137, at: this.clock.now() } : { exitCode: 143, at: this.clock.now() };
  }
}
