/**
 * A Deployment's status as the deployment controller computes it (deployment/util and sync.go): the
 * counts from its ReplicaSets, the Available and Progressing conditions with 1.32's reasons and
 * messages, and the complete / progressing / timed-out tests behind them.
 */
import type { Deployment, DeploymentSpec, DeploymentStatus as KubernetesDeploymentStatus } from 'kubernetes-types/apps/v1.js';
import { rfc3339 } from '../registry/system-metadata.js';
import type { Stored } from '../store/object-store.js';
import { type RS, replicasOf, sum } from './deployment-revisions.js';
import { maxUnavailable } from './rollout-arithmetic.js';
import { copyObject } from '../store/copy-object.js';

/** progressDeadlineSeconds at MaxInt32 means no deadline. */
const noDeadline = 2147483647;

export const reasons = {
  newRS: 'NewReplicaSetCreated',
  foundNewRS: 'FoundNewReplicaSet',
  updated: 'ReplicaSetUpdated',
  available: 'NewReplicaSetAvailable',
  timedOut: 'ProgressDeadlineExceeded',
  paused: 'DeploymentPaused',
  resumed: 'DeploymentResumed',
  failedCreate: 'ReplicaSetCreateError',
  minAvailable: 'MinimumReplicasAvailable',
  minUnavailable: 'MinimumReplicasUnavailable',
};

export interface DeploymentCondition {
  type: string;
  status: string;
  lastUpdateTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** A Deployment's status as computed here: kubernetes-types' fields, with conditions always complete. */
export type DeploymentStatus = Omit<KubernetesDeploymentStatus, 'conditions'> & { conditions?: DeploymentCondition[] };

/**
 * A stored Deployment as this controller reads it: the API server defaulted its spec (replicas,
 * progressDeadlineSeconds, strategy, …) and this controller writes its status.
 */
export type DefaultedDeployment = Omit<Deployment, 'spec' | 'status'> & { spec: DeploymentSpec & { replicas: number }; status?: DeploymentStatus };
export type StoredDeployment = Stored<DefaultedDeployment>;

export function condition(type: string, status: string, reason: string, message: string, now: number): DeploymentCondition {
  const at = rfc3339(now);
  return { type, status, lastUpdateTime: at, lastTransitionTime: at, reason, message };
}

/** SetDeploymentCondition: no change for the same status and reason; keeps lastTransitionTime for the same status. */
export function setCondition(status: DeploymentStatus, next: DeploymentCondition): void {
  const conditions: DeploymentCondition[] = status.conditions ?? [];
  const current = conditions.find((c) => c.type === next.type);
  if (current && current.status === next.status && current.reason === next.reason) return;
  if (current && current.status === next.status) next.lastTransitionTime = current.lastTransitionTime;
  status.conditions = [...conditions.filter((c) => c.type !== next.type), next];
}

export function removeCondition(status: DeploymentStatus, type: string): void {
  if (!status.conditions) return;
  status.conditions = status.conditions.filter((c) => c.type !== type);
  if (status.conditions.length === 0) delete status.conditions;
}

export const getCondition = (status: DeploymentStatus | undefined, type: string): DeploymentCondition | undefined => (status?.conditions ?? []).find((c) => c.type === type);

export function hasProgressDeadline(d: StoredDeployment): boolean {
  const p = d.spec?.progressDeadlineSeconds;
  return p !== undefined && p !== null && p !== noDeadline;
}

/** calculateStatus: counts from the ReplicaSets and the Available condition, at `now`. */
export function calculateStatus(d: StoredDeployment, all: RS[], newRS: RS | undefined, now: number): DeploymentStatus {
  const available = sum(all, (rs) => rs.status?.availableReplicas ?? 0);
  const total = sum(all, replicasOf);
  const status: DeploymentStatus = {
    observedGeneration: d.metadata.generation,
    replicas: sum(all, (rs) => rs.status?.replicas ?? 0),
    updatedReplicas: newRS?.status?.replicas ?? 0,
    readyReplicas: sum(all, (rs) => rs.status?.readyReplicas ?? 0),
    availableReplicas: available,
    unavailableReplicas: Math.max(0, total - available),
  };
  if (d.status?.collisionCount !== undefined) status.collisionCount = d.status.collisionCount;
  if (d.status?.conditions) status.conditions = copyObject(d.status.conditions);
  if (available >= d.spec.replicas - maxUnavailable(d.spec.replicas, d.spec.strategy)) {
    setCondition(status, condition('Available', 'True', reasons.minAvailable, 'Deployment has minimum availability.', now));
  } else setCondition(status, condition('Available', 'False', reasons.minUnavailable, 'Deployment does not have minimum availability.', now));
  for (const k of ['replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'] as const) if (status[k] === 0) delete status[k];
  return status;
}

/** DeploymentComplete. */
export function deploymentComplete(d: StoredDeployment, status: DeploymentStatus): boolean {
  const want = d.spec.replicas;
  return (status.updatedReplicas ?? 0) === want && (status.replicas ?? 0) === want && (status.availableReplicas ?? 0) === want && (status.observedGeneration ?? 0) >= d.metadata.generation!;
}

/** DeploymentProgressing: any sign of progress since the last status. */
export function deploymentProgressing(d: StoredDeployment, status: DeploymentStatus): boolean {
  const old: DeploymentStatus = d.status ?? {};
  const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
  const newOld = (status.replicas ?? 0) - (status.updatedReplicas ?? 0);
  return (status.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) || newOld < oldOld || (status.readyReplicas ?? 0) > (old.readyReplicas ?? 0) || (status.availableReplicas ?? 0) > (old.availableReplicas ?? 0);
}

/** DeploymentTimedOut. */
export function deploymentTimedOut(d: StoredDeployment, status: DeploymentStatus, now: number): boolean {
  const cond = getCondition(status, 'Progressing');
  if (!cond || cond.reason === reasons.available) return false;
  if (cond.reason === reasons.timedOut) return true;
  return Date.parse(cond.lastUpdateTime) + d.spec.progressDeadlineSeconds! * 1000 < now;
}
