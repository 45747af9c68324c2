/**
 * Starts the local cluster's built-in controllers on one scheduler in their fixed order, each under
 * its own identity and each switchable off through `startLocalCluster({ controllers, pods })`.
 */
import type { Pod } from 'kubernetes-types/core/v1.js';
import type { ClusterInternals } from '../local-cluster.js';
import { asStored } from '../store/kube-object.js';
import { ControllerClient, type ControllerIdentity } from './controller-client.js';
import { ControllerScheduler } from './controller-scheduler.js';
import { GarbageCollector } from './garbage-collector.js';
import { OwnerIndex } from './owner-index.js';
import { NamespaceController } from './namespace-controller.js';
import { ServiceAccountController } from './service-account-controller.js';
import { ServiceAccountTokenController } from './service-account-token-controller.js';
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
import { EndpointsController } from './endpoints-controller.js';
import { EndpointSliceController } from './endpointslice-controller.js';
import { EndpointSliceMirroringController } from './endpointslice-mirroring-controller.js';
import { DisruptionController } from './disruption-controller.js';
import { KubernetesServiceController } from '../kubernetes-service.js';
import { CsrSigningController } from './csr-signing-controller.js';
import { ApiServiceRegistrationController } from './apiservice-registration-controller.js';
import { StatefulSetController } from './statefulset-controller.js';
import { DaemonSetController } from './daemonset-controller.js';
import { PersistentVolumeBinder } from './persistent-volume-binder.js';
import { LocalPathProvisioner, localPathComponent } from './local-path-provisioner.js';
import { PvcProtectionController, PvProtectionController } from './volume-protection.js';
import { VolumeScheduling, volumeBindingPlugin, volumeMountGate } from './volume-scheduling.js';
import { EphemeralVolumeController } from './ephemeral-volume-controller.js';
import { ReplicaSetController, replicationControllerKind } from './replica-set-controller.js';
import { DeploymentController } from './deployment-controller.js';
import { ResourceQuotaController } from './resource-quota-controller.js';
import { AdmissionPolicyStatusController } from './admission-policy-status-controller.js';
import type { ProcessPodsConfig } from './process-pods.js';
import { podSandboxesRoot } from './pod-sandboxes.js';
import { rmSync } from 'node:fs';
import { installCertManager } from '../cert-manager/install-cert-manager.js';

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
  endpoints: kubeSystem('endpoint-controller'),
  endpointSlice: kubeSystem('endpointslice-controller'),
  endpointSliceMirroring: kubeSystem('endpointslicemirroring-controller'),
  disruption: kubeSystem('disruption-controller'),
  csrSigning: kubeSystem('certificate-controller'),
  resourceQuota: kubeSystem('resourcequota-controller'),
  admissionPolicyStatus: kubeSystem('validatingadmissionpolicy-status-controller'),
  scheduler: { user: 'system:kube-scheduler', groups: ['system:authenticated'], fieldManager: 'kube-scheduler' },
  apiserver: { user: 'system:apiserver', groups: ['system:masters', 'system:authenticated'], fieldManager: 'kube-apiserver' },
  statefulSet: kubeSystem('statefulset-controller'),
  daemonSet: kubeSystem('daemon-set-controller'),
  persistentVolumeBinder: kubeSystem('persistent-volume-binder'),
  pvcProtection: kubeSystem('pvc-protection-controller'),
  pvProtection: kubeSystem('pv-protection-controller'),
  ephemeralVolume: kubeSystem('ephemeral-volume-controller'),
  localPathProvisioner: { user: 'system:serviceaccount:local-path-storage:local-path-provisioner-service-account', groups: ['system:serviceaccounts', 'system:serviceaccounts:local-path-storage', 'system:authenticated'], fieldManager: 'local-path-provisioner' },
  deployment: kubeSystem('deployment-controller'),
  replicaSet: kubeSystem('replicaset-controller'),
  replicationController: kubeSystem('replication-controller'),
  nodeLifecycle: kubeSystem('node-controller'),
  /** The token controller runs with kube-controller-manager's own credentials. */
  serviceAccountToken: { user: 'system:kube-controller-manager', groups: ['system:authenticated'], fieldManager: 'kube-controller-manager' },
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
  if (on('serviceAccountToken') && cluster.serviceAccountTokenIssuer) {
    scheduler.add(new ServiceAccountTokenController(client(controllerIdentities.serviceAccountToken), cluster.serviceAccountTokenIssuer, caCertPem));
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
  if (on('statefulSet')) {
    const stsClient = client(controllerIdentities.statefulSet);
    scheduler.add(new StatefulSetController(stsClient, cluster.clock, new EventRecorder(stsClient, cluster.clock, 'statefulset-controller'), owners.index));
  }
  if (on('daemonSet')) {
    const dsClient = client(controllerIdentities.daemonSet);
    scheduler.add(new DaemonSetController(dsClient, cluster.clock, new EventRecorder(dsClient, cluster.clock, 'daemonset-controller'), owners.index));
  }
  if (on('persistentVolumeBinder')) {
    const binderClient = client(controllerIdentities.persistentVolumeBinder);
    scheduler.add(new PersistentVolumeBinder(binderClient, cluster.clock, new EventRecorder(binderClient, cluster.clock, 'persistentvolume-controller')));
  }
  if (on('localPathProvisioner')) {
    const provisionerClient = client(controllerIdentities.localPathProvisioner);
    scheduler.add(new LocalPathProvisioner(provisionerClient, new EventRecorder(provisionerClient, cluster.clock, localPathComponent)));
  }
  if (on('pvcProtection')) scheduler.add(new PvcProtectionController(client(controllerIdentities.pvcProtection)));
  if (on('pvProtection')) scheduler.add(new PvProtectionController(client(controllerIdentities.pvProtection)));
  if (on('ephemeralVolume')) {
    const ephemeralClient = client(controllerIdentities.ephemeralVolume);
    scheduler.add(new EphemeralVolumeController(ephemeralClient, new EventRecorder(ephemeralClient, cluster.clock, 'ephemeral_volume')));
  }
  const extraIdleChecks: Array<() => void> = [];
  const logs = new ContainerLogs();
  const scripts = new PodScripts();
  const kubelets: KubeletSimulator[] = [];
  let defaultScheduler: DefaultScheduler | undefined;
  if (cluster.options.pods !== 'inert') {
    const seed = cluster.options.seed ?? 1;
    const schedulerClient = client(controllerIdentities.scheduler);
    const volumes = new VolumeScheduling(schedulerClient);
    defaultScheduler = new DefaultScheduler(
      schedulerClient,
      cluster.clock,
      new EventsV1Recorder(schedulerClient, cluster.clock, 'default-scheduler', `default-scheduler-${controlPlaneNodeName}`),
      scripts,
      [simulatedOutcomePlugin(scripts), ...defaultSchedulerPlugins(), volumeBindingPlugin(volumes)],
      seed,
    );
    const names = nodeNames(cluster.options.nodes ?? 1);
    const processConfig: ProcessPodsConfig | undefined =
      cluster.localImages && cluster.apiServerUrl && cluster.podNetwork
        ? { images: cluster.localImages, apiServerUrl: cluster.apiServerUrl, caCertPem: caCertPem ?? '', root: podSandboxesRoot(), podNetworkOctet: cluster.podNetwork.octet, ...(cluster.serviceAccountTokenIssuer ? { tokenIssuer: cluster.serviceAccountTokenIssuer } : {}) }
        : undefined;
    names.forEach((name, index) => {
      const kubeletClient = client(kubeletIdentity(name));
      const kubelet = new KubeletSimulator({ name, index, count: names.length }, kubeletClient, cluster.clock, new EventRecorder(kubeletClient, cluster.clock, 'kubelet', name), logs, scripts, seed, processConfig);
      kubelet.gates.push(volumeMountGate(volumes));
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
    if (processConfig) {
      // probes under way keep settle() waiting; the processes end with the cluster
      extraIdleChecks.push(cluster.addIdleCheck({ idle: () => kubelets.every((k) => k.processes?.idle() ?? true) }));
      cluster.onStop(async () => {
        await Promise.all(kubelets.map((k) => k.processes?.stopAll()));
        rmSync(processConfig.root, { recursive: true, force: true });
      });
    }
    scripts.onChange = () => {
      if (defaultScheduler) theScheduler.retryAll();
      for (const kubelet of kubelets) for (const key of kubelet.initialKeys()) scheduler.enqueue(kubelet.name, key);
    };
    // a claim that changes (bound, provisioned) moves the pods waiting on it: the scheduler or their node's kubelet
    extraIdleChecks.push(
      cluster.store.onCommit((e) => {
        if (e.bucket !== 'persistentvolumeclaims') return;
        for (const pod of volumes.podsUsingClaim(e.object.metadata.namespace!, e.object.metadata.name)) {
          const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
          const kubelet = kubelets.find((k) => k.node.name === asStored<Pod>(pod).spec?.nodeName);
          if (kubelet) scheduler.enqueue(kubelet.name, key);
          else if (defaultScheduler) theScheduler.requeue(key);
        }
      }),
    );
  }
  // after the kubelet: pods that change together are counted by one ReplicaSet sync, then one Deployment sync
  if (on('replicaSet')) {
    const rsClient = client(controllerIdentities.replicaSet);
    scheduler.add(new ReplicaSetController(rsClient, cluster.clock, new EventRecorder(rsClient, cluster.clock, 'replicaset-controller')));
  }
  if (on('replicationController')) {
    const rcClient = client(controllerIdentities.replicationController);
    scheduler.add(new ReplicaSetController(rcClient, cluster.clock, new EventRecorder(rcClient, cluster.clock, 'replication-controller'), replicationControllerKind));
  }
  if (on('deployment')) {
    const deploymentClient = client(controllerIdentities.deployment);
    scheduler.add(new DeploymentController(deploymentClient, cluster.clock, new EventRecorder(deploymentClient, cluster.clock, 'deployment-controller')));
  }
  if (on('clusterRoleAggregation')) scheduler.add(new ClusterRoleAggregationController(client(controllerIdentities.clusterRoleAggregation)));
  if (on('endpoints')) scheduler.add(new EndpointsController(client(controllerIdentities.endpoints), cluster.clock));
  if (on('endpointSlice')) scheduler.add(new EndpointSliceController(client(controllerIdentities.endpointSlice), cluster.clock));
  if (on('endpointSliceMirroring')) scheduler.add(new EndpointSliceMirroringController(client(controllerIdentities.endpointSliceMirroring)));
  if (on('disruption')) {
    const disruptionClient = client(controllerIdentities.disruption);
    scheduler.add(new DisruptionController(disruptionClient, cluster.clock, new EventRecorder(disruptionClient, cluster.clock, 'controllermanager')));
  }
  if (on('kubernetesService')) scheduler.add(new KubernetesServiceController(client(controllerIdentities.apiserver)));
  if (on('resourceQuota')) scheduler.add(new ResourceQuotaController(client(controllerIdentities.resourceQuota), cluster.store, cluster.catalog));
  if (on('admissionPolicyStatus')) scheduler.add(new AdmissionPolicyStatusController(client(controllerIdentities.admissionPolicyStatus), cluster.catalog));
  if (on('eventTtl')) scheduler.add(new EventTtlController(client(controllerIdentities.apiserver), cluster.clock));
  if (on('csrSigning') && cluster.certificateAuthority) {
    const signer = new CsrSigningController(client(controllerIdentities.csrSigning), cluster.clock, cluster.certificateAuthority);
    signer.requeue = (key) => scheduler.enqueue(signer.name, key);
    scheduler.add(signer);
    extraIdleChecks.push(cluster.addIdleCheck(signer));
  }
  if (on('apiServiceRegistration')) {
    const registration = new ApiServiceRegistrationController(client(controllerIdentities.apiserver), cluster.catalog, cluster.clock);
    scheduler.add(registration);
    extraIdleChecks.push(cluster.catalog.onChange(() => scheduler.enqueue(registration.name, '*')) as () => void);
  }
  if (cluster.options.certManager) {
    const certManager = installCertManager(scheduler, cluster.clock, client);
    extraIdleChecks.push(cluster.addIdleCheck(certManager.issuer));
  }
  const removeIdleCheck = cluster.addIdleCheck(scheduler);
  const stop = (): void => {
    scheduler.stop();
    owners.unsubscribe();
    removeIdleCheck();
    for (const remove of extraIdleChecks) remove();
  };
  cluster.onStop(stop);
  const controllers: BuiltinControllers = { scheduler, kubelets, ...(defaultScheduler ? { defaultScheduler } : {}), logs, scripts, stop };
  running.set(cluster, controllers);
  return controllers;
}
