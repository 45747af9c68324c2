/**
 * Pod states the workload controllers count, as k8s.io/kubernetes/pkg/api/v1/pod does: active (not
 * finished, not being deleted), ready (Ready condition True), available (ready for minReadySeconds).
 */
import type { Pod, PodCondition } from 'kubernetes-types/core/v1.js';
import type { Stored } from '../store/object-store.js';

export const isPodTerminal = (pod: Stored<Pod>): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
export const isPodActive = (pod: Stored<Pod>): boolean => !isPodTerminal(pod) && !pod.metadata.deletionTimestamp;

export function readyCondition(pod: Stored<Pod>): { status: string; lastTransitionTime?: string } | undefined {
  return (pod.status?.conditions ?? []).find((c: PodCondition) => c.type === 'Ready');
}

export const isPodReady = (pod: Stored<Pod>): boolean => readyCondition(pod)?.status === 'True';

/** When a ready pod becomes available (ready since `minReadySeconds`); undefined when not ready. */
export function availableAt(pod: Stored<Pod>, minReadySeconds: number): number | undefined {
  const ready = readyCondition(pod);
  if (ready?.status !== 'True') return undefined;
  if (!minReadySeconds) return -Infinity;
  const since = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : 0;
  return since + minReadySeconds * 1000;
}

/** Ready and, with minReadySeconds, ready since strictly before `now - minReadySeconds` (as upstream). */
export function isPodAvailable(pod: Stored<Pod>, minReadySeconds: number, now: number): boolean {
  const at = availableAt(pod, minReadySeconds);
  return at !== undefined && (at === -Infinity || at < now);
}
