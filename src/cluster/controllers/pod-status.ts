/**
 * Pod status as the kubelet writes it, for the kubelet simulator: conditions in the kubelet's order
 * with stable transition times, image references as containerd reports them, CrashLoopBackOff
 * back-off, and the phase a pod ends in once its containers have terminated.
 */

import type { ContainerState, ContainerStateTerminated, ContainerStatus, PodCondition, PodStatus } from 'kubernetes-types/core/v1.js';

/** Some optional fields of T that the kubelet writes as JSON null. */
type NullableFields<T, K extends keyof T> = Omit<T, K> & { [F in K]?: T[F] | null };

/** A pod condition as the kubelet writes it: lastProbeTime null. */
export type KubeletCondition = NullableFields<PodCondition, 'lastProbeTime'>;

/** A container state; one the runtime never ran ends terminated with null times. */
export type KubeletContainerState = Omit<ContainerState, 'terminated'> & { terminated?: NullableFields<ContainerStateTerminated, 'startedAt' | 'finishedAt'> };

/**
 * A container status as the kubelet writes it; image, imageID and ready may still be missing on the
 * placeholder the simulator starts from for a container it has no status for yet.
 */
export type KubeletContainerStatus = Omit<ContainerStatus, 'state' | 'lastState' | 'image' | 'imageID' | 'ready'> &
  Partial<Pick<ContainerStatus, 'image' | 'imageID' | 'ready'>> & { state?: KubeletContainerState; lastState?: KubeletContainerState };

/** A pod's status as the kubelet writes it (kubernetes-types' PodStatus, with the kubelet's nulls). */
export type KubeletPodStatus = Omit<PodStatus, 'conditions' | 'containerStatuses' | 'initContainerStatuses'> & {
  conditions?: KubeletCondition[];
  containerStatuses?: KubeletContainerStatus[];
  initContainerStatuses?: KubeletContainerStatus[];
};

/** CrashLoopBackOff: 10 s after the first failure, doubling, at most 5 minutes. */
const crashLoopBaseMs = 10_000;
const crashLoopCapMs = 300_000;

/** A pod condition as the kubelet writes it. */
export function condition(type: string, status: string, at: string, reason?: string, message?: string): KubeletCondition {
  return { type, status, lastProbeTime: null, lastTransitionTime: at, ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
}

/** Sets a pod condition, keeping lastTransitionTime when status and reason do not change. */
export function setCondition(status: KubeletPodStatus, next: KubeletCondition): void {
  const conditions = (status.conditions ??= []);
  const i = conditions.findIndex((c) => c.type === next.type);
  if (i === -1) conditions.push(next);
  else if (conditions[i]!.status !== next.status || conditions[i]!.reason !== next.reason || conditions[i]!.message !== next.message) {
    conditions[i] = conditions[i]!.status === next.status ? { ...next, lastTransitionTime: conditions[i]!.lastTransitionTime } : next;
  }
}

const conditionOrder = ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'];
export const orderConditions = (conditions: KubeletCondition[] | undefined): KubeletCondition[] =>
  [...(conditions ?? [])].sort((a, b) => conditionOrder.indexOf(a.type) - conditionOrder.indexOf(b.type));

/** `busybox:1.36` → `docker.io/library/busybox:1.36`, as containerd reports images. */
export function imageReference(image: string | undefined): string {
  const ref = image ?? '';
  const withTag = /:[^/]+$/.test(ref) || ref.includes('@') ? ref : `${ref}:latest`;
  const first = withTag.split('/')[0]!;
  if (!withTag.includes('/')) return `docker.io/library/${withTag}`;
  if (!first.includes('.') && !first.includes(':') && first !== 'localhost') return `docker.io/${withTag}`;
  return withTag;
}

/** The back-off before restart number `restartCount`. */
export function backoffMs(restartCount: number): number {
  return Math.min(crashLoopBaseMs * 2 ** Math.max(0, restartCount - 1), crashLoopCapMs);
}

/** All containers terminated → Succeeded (all exit 0) or Failed; readiness follows the containers. */
export function finishIfDone(status: KubeletPodStatus, at: string): void {
  const statuses = status.containerStatuses ?? [];
  const allDone = statuses.length > 0 && statuses.every((cs) => cs.state?.terminated);
  const allReady = statuses.length > 0 && statuses.every((cs) => cs.ready);
  if (allDone) {
    const ok = statuses.every((cs) => cs.state?.terminated?.exitCode === 0);
    status.phase = ok ? 'Succeeded' : 'Failed';
    const reason = ok ? 'PodCompleted' : 'PodFailed';
    setCondition(status, condition('PodReadyToStartContainers', 'False', at));
    setCondition(status, condition('Ready', 'False', at, reason));
    setCondition(status, condition('ContainersReady', 'False', at, reason));
  } else if (!allReady) {
    const notReady = statuses.filter((cs) => !cs.ready).map((cs) => cs.name).join(' ');
    setCondition(status, condition('Ready', 'False', at, 'ContainersNotReady', `containers with unready status: [${notReady}]`));
    setCondition(status, condition('ContainersReady', 'False', at, 'ContainersNotReady', `containers with unready status: [${notReady}]`));
  } else {
    setCondition(status, condition('Ready', 'True', at));
    setCondition(status, condition('ContainersReady', 'True', at));
  }
  status.conditions = orderConditions(status.conditions);
}
