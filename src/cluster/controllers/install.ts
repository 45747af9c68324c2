/**
 * Starts the local cluster's built-in controllers on one scheduler in their fixed order, each under
 * its own identity and each switchable off through `startLocalCluster({ controllers, pods })`.
 */
import type { ClusterInternals } from '../local-cluster.js';
import { ControllerClient, type ControllerIdentity } from './controller-client.js';
import { ControllerScheduler } from './controller-scheduler.js';
import { GarbageCollector } from './garbage-collector.js';
import { OwnerIndex } from './owner-index.js';
import { NamespaceController } from './namespace-controller.js';
import { ServiceAccountController } from './service-account-controller.js';
import { EventRecorder, EventsV1Recorder } from './event-recorder.js';
import { JobController } from './job-controller.js';
import { type KubeletPodGate, KubeletSimulator } from './kubelet-simulator.js';
import { type BehaviourOverride, PodScripts, type PodSelector } from './pod-scripts.js';
import { ContainerLogs } from './container-logs.js';
import { DefaultScheduler, simulatedOutcomePlugin } from './default-scheduler.js';
import { type SchedulerPlugin, defaultSchedulerPlugins } from './scheduler-plugins.js';
import { NodeLifecycleController } from './node-lifecycle-controller.js';
import { controlPlaneNodeName, nodeNames } from './cluster-nodes.js';
import { CronJobController } from './cronjob-controller.js';
import { TtlAfterFinishedController } from './ttl-after-finished-controller.js';
import { EventTtlController } from './event-ttl-controller.js';
import { ClusterRoleAggregationController } from '../rbac/aggregation-controller.js';

const kubeSystem = (name: string): ControllerIdentity => ({ user: `system:serviceaccount:kube-system:${name}`, fieldManager: 'kube-controller-manager' });

/** The identities built-in controllers write with (request log, RBAC accounting). */
export const controllerIdentities = {
  garbageCollector: kubeSystem('generic-garbage-collector'),
  namespace: kubeSystem('namespace-controller'),
  serviceAccount: kubeSystem('service-account-controller'),
  rootCaPublisher: kubeSystem('root-ca-cert-publisher'),
  job: kubeSystem('job-controller'),
  cronJob: kubeSystem('cronjob-controller'),
  ttl: kubeSystem('ttl-after-finished-controller'),
  clusterRoleAggregation: kubeSystem('clusterrole-aggregation-controller'),
  scheduler: { user: 'system:kube-scheduler', groups: ['system:authenticated'], fieldManager: 'kube-scheduler' },
  apiserver: { user: 'system:apiserver', groups: ['system:masters', 'system:authenticated'], fieldManager: 'kube-apiserver' },
  nodeLifecycle: kubeSystem('node-controller'),
} satisfies Record<string, ControllerIdentity>;

/** The identity of one node's kubelet (the Node authorizer's `system:node:<name>`). */
export function kubeletIdentity(nodeName: string): ControllerIdentity {
  return { user: `system:node:${nodeName}`, groups: ['system:nodes', 'system:authenticated'], fieldManager: 'kubelet' };
}

export interface BuiltinControllers {
  scheduler: ControllerScheduler;
  /** The kubelet simulators, one per node, when `pods` is `simulate`. */
  kubelets: KubeletSimulator[];
  /** The default scheduler, when `pods` is `simulate`. */
  defaultScheduler?: DefaultScheduler;
  /** What the simulated containers printed (pods/log reads it). */
  logs: ContainerLogs;
  scripts: PodScripts;
  stop(): void;
}

const running = new WeakMap<ClusterInternals, BuiltinControllers>();

/**
 * Test hook (§7.6): overrides what matching pods do in a running local cluster, beyond their
 * annotations — e.g. `scriptPods(cluster.internals, { labels: { app: 'x' } }, { exitCode: 2 })`.
 * Returns a function removing the override.
 */
export function scriptPods(cluster: ClusterInternals, selector: PodSelector, override: BehaviourOverride): () => void {
  const controllers = running.get(cluster);
  if (!controllers?.kubelets.length) throw new Error('scriptPods: this cluster runs without the kubelet simulator (started with pods: "inert")');
  return controllers.scripts.add(selector, override);
}

/**
 * Test hook: stops (`false`) or restarts (`true`) one node's kubelet. A stopped kubelet stops
 * renewing its Lease, so after the grace period the node turns NotReady (Unknown), is tainted
 * unreachable, and its pods are evicted once their tolerationSeconds (300 s by default) run out.
 */
export function setKubeletRunning(cluster: ClusterInternals, nodeName: string, runningNow: boolean): void {
  const kubelet = running.get(cluster)?.kubelets.find((k) => k.node.name === nodeName);
  if (!kubelet) throw new Error(`setKubeletRunning: no simulated kubelet on node ${JSON.stringify(nodeName)}`);
  kubelet.setRunning(runningNow);
}

/** The container logs of a running local cluster (pods/log reads them). */
export function containerLogsOf(cluster: ClusterInternals): ContainerLogs | undefined {
  return running.get(cluster)?.logs;
}

/**
 * Adds a check every node's kubelet makes before creating a pod's containers (e.g. its volumes are
 * bound); the pod stays ContainerCreating, with one FailedMount event per reason, until it passes.
 * Returns a function removing the gate.
 */
export function addKubeletPodGate(cluster: ClusterInternals, gate: KubeletPodGate): () => void {
  const controllers = running.get(cluster);
  if (!controllers?.kubelets.length) throw new Error('addKubeletPodGate: this cluster runs without the kubelet simulator (started with pods: "inert")');
  for (const kubelet of controllers.kubelets) kubelet.gates.push(gate);
  return () => {
    for (const kubelet of controllers.kubelets) kubelet.gates = kubelet.gates.filter((g) => g !== gate);
  };
}

/** Adds a scheduler plugin (filter, score, preBind — e.g. volume binding) to a running local cluster. */
export function addSchedulerPlugin(cluster: ClusterInternals, plugin: SchedulerPlugin): void {
  const scheduler = running.get(cluster)?.defaultScheduler;
  if (!scheduler) throw new Error('addSchedulerPlugin: this cluster runs without the default scheduler (pods: "inert" or controllers.scheduler: false)');
  scheduler.plugins.push(plugin);
  scheduler.retryAll();
}

/** The default scheduler of a running local cluster (to add plugins, e.g. volume binding). */
export function defaultSchedulerOf(cluster: ClusterInternals): DefaultScheduler | undefined {
  return running.get(cluster)?.defaultScheduler;
}

export function startBuiltinControllers(cluster: ClusterInternals, caCertPem?: string): BuiltinControllers {
  const switches = cluster.options.controllers ?? {};
  const on = (name: keyof typeof switches): boolean => switches[name] !== false;
  // registered before the scheduler, so the index is current when controllers are asked for keys
  const owners = OwnerIndex.follow(cluster.store);
  const scheduler = new ControllerScheduler(cluster.store, cluster.clock);
  const client = (identity: ControllerIdentity): ControllerClient => new ControllerClient(cluster, identity);
  if (on('garbageCollector')) scheduler.add(new GarbageCollector(cluster.store, client(controllerIdentities.garbageCollector), owners.index));
  if (on('namespace')) scheduler.add(new NamespaceController(client(controllerIdentities.namespace), cluster.catalog, cluster.clock));
  if (on('serviceAccount')) {
    scheduler.add(new ServiceAccountController(client(controllerIdentities.serviceAccount), caCertPem, client(controllerIdentities.rootCaPublisher)));
  }
  if (on('job')) {
    const jobClient = client(controllerIdentities.job);
    scheduler.add(new JobController(jobClient, cluster.clock, new EventRecorder(jobClient, cluster.clock, 'job-controller'), owners.index));
  }
  if (on('cronJob')) {
    const cronClient = client(controllerIdentities.cronJob);
    scheduler.add(new CronJobController(cronClient, cluster.clock, new EventRecorder(cronClient, cluster.clock, 'cronjob-controller'), owners.index));
  }
  if (on('ttl')) scheduler.add(new TtlAfterFinishedController(client(controllerIdentities.ttl), cluster.clock));
  const logs = new ContainerLogs();
  const scripts = new PodScripts();
  const kubelets: KubeletSimulator[] = [];
  let defaultScheduler: DefaultScheduler | undefined;
  if (cluster.options.pods !== 'inert') {
    const seed = cluster.options.seed ?? 1;
    const schedulerClient = client(controllerIdentities.scheduler);
    defaultScheduler = new DefaultScheduler(
      schedulerClient,
      cluster.clock,
      new EventsV1Recorder(schedulerClient, cluster.clock, 'default-scheduler', `default-scheduler-${controlPlaneNodeName}`),
      scripts,
      [simulatedOutcomePlugin(scripts), ...defaultSchedulerPlugins()],
      seed,
    );
    const names = nodeNames(cluster.options.nodes ?? 1);
    names.forEach((name, index) => {
      const kubeletClient = client(kubeletIdentity(name));
      const kubelet = new KubeletSimulator({ name, index, count: names.length }, kubeletClient, cluster.clock, new EventRecorder(kubeletClient, cluster.clock, 'kubelet', name), logs, scripts, seed);
      kubelets.push(kubelet);
    });
    if (on('nodeLifecycle')) {
      const nodeClient = client(controllerIdentities.nodeLifecycle);
      scheduler.add(new NodeLifecycleController(nodeClient, cluster.clock, new EventRecorder(nodeClient, cluster.clock, 'taint-eviction-controller')));
    }
    const theScheduler = defaultScheduler;
    if (on('scheduler')) {
      scheduler.add(theScheduler);
      theScheduler.requeue = (key) => scheduler.enqueue(theScheduler.name, key);
    } else defaultScheduler = undefined;
    for (const kubelet of kubelets) {
      scheduler.add(kubelet);
      kubelet.requeue = (key) => scheduler.enqueue(kubelet.name, key);
    }
    scripts.onChange = () => {
      if (defaultScheduler) theScheduler.retryAll();
      for (const kubelet of kubelets) for (const key of kubelet.initialKeys()) scheduler.enqueue(kubelet.name, key);
    };
  }
  if (on('clusterRoleAggregation')) scheduler.add(new ClusterRoleAggregationController(client(controllerIdentities.clusterRoleAggregation)));
  if (on('eventTtl')) scheduler.add(new EventTtlController(client(controllerIdentities.apiserver), cluster.clock));
  const removeIdleCheck = cluster.addIdleCheck(scheduler);
  const stop = (): void => {
    scheduler.stop();
    owners.unsubscribe();
    removeIdleCheck();
  };
  cluster.onStop(stop);
  const controllers: BuiltinControllers = { scheduler, kubelets, ...(defaultScheduler ? { defaultScheduler } : {}), logs, scripts, stop };
  running.set(cluster, controllers);
  return controllers;
}
