/**
 * kubeforge/cluster — the local cluster: an in-process Kubernetes 1.32 API server on 127.0.0.1 with
 * a virtual clock, for tests, `make run-local` and the demo.
 */
export { startLocalCluster } from './local-cluster.js';
export type { LocalCluster, LocalClusterOptions, ControllerSwitches, ClusterInternals, IdleCheck } from './local-cluster.js';
export type { StorageMigrationResult } from './storage-migration.js';
export { VirtualClock, RealClusterClock, toEpochMillis } from './clock/virtual-clock.js';
export type { ClusterClock, SettleHook } from './clock/virtual-clock.js';
export type { RequestLogEntry, FaultSpec } from './http/request-log.js';
export type { KubeObject, StoreEvent } from './store/object-store.js';
export { ApiError } from './errors/status-errors.js';
export type { LeastPrivilegeReport, GrantedRule } from './http/least-privilege.js';
export { scriptPods, setKubeletRunning, addKubeletPodGate, addSchedulerPlugin } from './controllers/install.js';
export type { PodSelector, BehaviourOverride } from './controllers/pod-scripts.js';
export type { SchedulerPlugin, FilterFailure, NodeInfo, CycleState } from './controllers/scheduler-plugins.js';
export type { KubeletPodGate } from './controllers/kubelet-simulator.js';
