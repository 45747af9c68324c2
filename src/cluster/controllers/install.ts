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
import { EventRecorder } from './event-recorder.js';
import { JobController } from './job-controller.js';
import { type BehaviourOverride, KubeletSimulator, type PodSelector } from './kubelet-simulator.js';
import { CronJobController } from './cronjob-controller.js';
import { TtlAfterFinishedController } from './ttl-after-finished-controller.js';
import { EventTtlController } from './event-ttl-controller.js';
import { ClusterRoleAggregationController } from '../rbac/aggregation-controller.js';
import { ReplicaSetController, replicationControllerKind } from './replica-set-controller.js';
import { DeploymentController } from './deployment-controller.js';

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
  deployment: kubeSystem('deployment-controller'),
  replicaSet: kubeSystem('replicaset-controller'),
  replicationController: kubeSystem('replication-controller'),
  kubelet: { user: 'system:node:kubeforge-node', groups: ['system:nodes', 'system:authenticated'], fieldManager: 'kubelet' },
} satisfies Record<string, ControllerIdentity>;

export interface BuiltinControllers {
  scheduler: ControllerScheduler;
  /** The kubelet simulator, when `pods` is `simulate`. */
  kubelet?: KubeletSimulator;
  stop(): void;
}

const running = new WeakMap<ClusterInternals, BuiltinControllers>();

/**
 * Test hook (§7.6): overrides what matching pods do in a running local cluster, beyond their
 * annotations — e.g. `scriptPods(cluster.internals, { labels: { app: 'x' } }, { exitCode: 2 })`.
 * Returns a function removing the override.
 */
export function scriptPods(cluster: ClusterInternals, selector: PodSelector, override: BehaviourOverride): () => void {
  const kubelet = running.get(cluster)?.kubelet;
  if (!kubelet) throw new Error('scriptPods: this cluster runs without the kubelet simulator (started with pods: "inert")');
  return kubelet.script(selector, override);
}

export function startBuiltinControllers(cluster: ClusterInternals, caCertPem?: string): BuiltinControllers {
  const switches = cluster.options.controllers ?? {};
  const on = (name: keyof typeof switches): boolean => switches[name] !== false;
  // registered before the scheduler, so the index is current when controllers are asked for keys
  const owners = OwnerIndex.follow(cluster.store);
  const scheduler = new ControllerScheduler(cluster.store, cluster.clock);
  let kubeletSimulator: KubeletSimulator | undefined;
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
  if (on('deployment')) {
    const deploymentClient = client(controllerIdentities.deployment);
    scheduler.add(new DeploymentController(deploymentClient, cluster.clock, new EventRecorder(deploymentClient, cluster.clock, 'deployment-controller')));
  }
  if (on('replicaSet')) {
    const rsClient = client(controllerIdentities.replicaSet);
    scheduler.add(new ReplicaSetController(rsClient, cluster.clock, new EventRecorder(rsClient, cluster.clock, 'replicaset-controller')));
  }
  if (on('replicationController')) {
    const rcClient = client(controllerIdentities.replicationController);
    scheduler.add(new ReplicaSetController(rcClient, cluster.clock, new EventRecorder(rcClient, cluster.clock, 'replication-controller'), replicationControllerKind));
  }
  if (on('ttl')) scheduler.add(new TtlAfterFinishedController(client(controllerIdentities.ttl), cluster.clock));
  if (cluster.options.pods !== 'inert') {
    const kubelet = client(controllerIdentities.kubelet);
    const defaultScheduler = client(controllerIdentities.scheduler);
    const simulator = new KubeletSimulator(
      kubelet,
      defaultScheduler,
      cluster.clock,
      new EventRecorder(defaultScheduler, cluster.clock, 'default-scheduler'),
      new EventRecorder(kubelet, cluster.clock, 'kubelet'),
      cluster.options.seed ?? 1,
    );
    scheduler.add(simulator);
    simulator.onScriptsChanged = () => {
      for (const key of simulator.initialKeys()) scheduler.enqueue(simulator.name, key);
    };
    kubeletSimulator = simulator;
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
  const controllers: BuiltinControllers = { scheduler, ...(kubeletSimulator ? { kubelet: kubeletSimulator } : {}), stop };
  running.set(cluster, controllers);
  return controllers;
}
