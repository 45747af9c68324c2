/**
 * Pod states the workload controllers count, as k8s.io/kubernetes/pkg/api/v1/pod does: active (not
 * finished, not being deleted), ready (Ready condition True), available (ready for minReadySeconds).
 */
import type { PodCondition } from 'kubernetes-types/core/v1.js';
import type { KubeObject } from '../store/object-store.js';

export const isPodTerminal = (pod: KubeObject): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
export const isPodActive = (pod: KubeObject): boolean => !isPodTerminal(pod) && !pod.metadata.deletionTimestamp;

export function readyCondition(pod: KubeObject): { status: string; lastTransitionTime?: string } | undefined {
  return (pod.status?.conditions ?? []).find((c: PodCondition) => c.type === 'Ready');
}

export const isPodReady = (pod: KubeObject): boolean => readyCondition(pod)?.status === 'True';

/** When a ready pod becomes available (ready since `minReadySeconds`); undefined when not ready. */
export function availableAt(pod: KubeObject, minReadySeconds: number): number | undefined {
  const ready = readyCondition(pod);
  if (ready?.status !== 'True') return undefined;
  if (!minReadySeconds) return -Infinity;
  const since = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : 0;
  return since + minReadySeconds * 1000;
}

/** Ready and, with minReadySeconds, ready since strictly before `now - minReadySeconds` (as upstream). */
export function isPodAvailable(pod: KubeObject, minReadySeconds: number, now: number): boolean {
  const at = availableAt(pod, minReadySeconds);
  return at !== undefined && (at === -Infinity || at < now);
}
