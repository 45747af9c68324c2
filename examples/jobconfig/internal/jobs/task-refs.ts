/**
 * TaskRefs — the Job's durable record of its task Pods (reference-operators spec §4.1.4, §4.7.1 "Task status
 * from the Pod"): a TaskRef read from a Pod, and the merge of the recorded TaskRefs with the Pods that still
 * exist, so that a deleted Pod keeps its last known (or tombstone) status.
 */
import type { ContainerStateTerminated, ContainerStatus, Pod } from 'kubernetes-types/core/v1.js';
import type { TaskContainerState, TaskRef, TaskResult, TaskState, TaskStatus } from '../../api/v1alpha1/job_types.js';
import { LABEL_TASK_RETRY_INDEX, ANNOTATION_TASK_PARALLEL_INDEX } from '../furiko/keys.js';
import { parseParallelIndex } from './parallel-indexes.js';
import { rfc3339 } from './go-format.js';

const isFinishedPod = (pod: Pod): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
/** A kubelet may report a container time as "1970-01-01T00:00:00Z"; Furiko treats it (and an unset time) as none. */
const isUnixZero = (time: string | undefined): boolean => !time || !(Date.parse(time) > 0);
const latest = (times: Array<string | undefined>): string | undefined =>
  times.filter((t): t is string => !isUnixZero(t)).reduce<string | undefined>((max, t) => (max === undefined || Date.parse(t) > Date.parse(max) ? t : max), undefined);

function taskState(pod: Pod): TaskState {
  if (pod.metadata?.deletionTimestamp && !isFinishedPod(pod)) return 'Killing';
  if (pod.status?.phase === 'Running') return 'Running';
  if (isFinishedPod(pod)) return 'Terminated';
  return 'Starting';
}

/** A container's termination: its current state's, else the one in `lastState` (a restarted container). */
const terminationOf = (c: ContainerStatus): ContainerStateTerminated | undefined => c.state?.terminated ?? c.lastState?.terminated;

function taskResult(pod: Pod): TaskResult | undefined {
  if ((pod.status?.containerStatuses ?? []).some((c) => terminationOf(c)?.reason === 'OOMKilled')) return 'Failed';
  if (pod.status?.phase === 'Succeeded') return 'Succeeded';
  if (pod.status?.phase === 'Failed') return 'Failed';
  return undefined;
}

/** Reason and message: the Pod's own, else a failed scheduling/initialisation condition, else a container's waiting or terminated state. */
function reasonMessage(pod: Pod): { reason?: string; message?: string } {
  const both = (reason?: string, message?: string) => (reason && message ? { reason, message } : undefined);
  const found =
    both(pod.status?.reason, pod.status?.message) ??
    ['PodScheduled', 'Initialized'].map((type) => pod.status?.conditions?.find((c) => c.type === type && c.status === 'False')).map((c) => both(c?.reason, c?.message)).find(Boolean);
  if (found) return found;
  const containers = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  for (const c of containers) {
    const waiting = both(c.state?.waiting?.reason, c.state?.waiting?.message);
    if (waiting) return waiting;
  }
  for (const c of containers) {
    const terminated = c.state?.terminated;
    if (!terminated) continue;
    const fallback = terminated.reason === 'OOMKilled' || terminated.reason === 'Error' ? `Container exited with status ${terminated.exitCode}` : undefined;
    const pair = both(terminated.reason, terminated.message || fallback);
    if (pair) return pair;
  }
  return {};
}

function containerStates(pod: Pod): TaskContainerState[] {
  return (pod.status?.containerStatuses ?? []).map((c) => {
    const terminated = c.state?.terminated;
    const state: TaskContainerState = { exitCode: terminated?.exitCode ?? 0 };
    if (terminated?.signal) state.signal = terminated.signal;
    if (terminated?.reason) state.reason = terminated.reason;
    if (terminated?.message) state.message = terminated.message;
    if (c.containerID) state.containerID = c.containerID;
    return state;
  });
}

/** The TaskRef a Pod describes right now (running = latest container start; finish only for terminal phases). */
export function taskRefFromPod(pod: Pod): TaskRef {
  const statuses = pod.status?.containerStatuses ?? [];
  const status: TaskStatus = { state: taskState(pod) };
  const result = taskResult(pod);
  if (result) status.result = result;
  Object.assign(status, reasonMessage(pod));
  const ref: TaskRef = {
    name: pod.metadata!.name!,
    creationTimestamp: pod.metadata!.creationTimestamp!,
    retryIndex: Number(pod.metadata?.labels?.[LABEL_TASK_RETRY_INDEX] ?? 0) || 0,
    status,
    containerStates: containerStates(pod),
  };
  const parallelIndex = parseParallelIndex(pod.metadata?.annotations?.[ANNOTATION_TASK_PARALLEL_INDEX]);
  if (parallelIndex) ref.parallelIndex = parallelIndex;
  if (pod.spec?.nodeName) ref.nodeName = pod.spec.nodeName;
  const running = latest(statuses.map((c) => c.state?.running?.startedAt ?? c.state?.terminated?.startedAt));
  if (running) ref.runningTimestamp = running;
  if (isFinishedPod(pod)) ref.finishTimestamp = finishTime(pod);
  return ref;
}

/**
 * A finished Pod's finish time: the latest container termination (current or `lastState`, epoch times ignored);
 * else, for a Pod failed by `DeadlineExceeded` (no container termination), start + `activeDeadlineSeconds`;
 * else the Pod's start time, else its creation.
 */
function finishTime(pod: Pod): string {
  const terminated = latest((pod.status?.containerStatuses ?? []).map((c) => terminationOf(c)?.finishedAt));
  if (terminated) return terminated;
  const startTime = pod.status?.startTime;
  const deadline = pod.spec?.activeDeadlineSeconds;
  if (pod.status?.reason === 'DeadlineExceeded' && deadline !== undefined && startTime) return rfc3339(Date.parse(startTime) + deadline * 1000);
  return startTime ?? pod.metadata!.creationTimestamp!;
}

/** Sorted by creation time, then name. */
export function sortTaskRefs(refs: TaskRef[]): TaskRef[] {
  return refs.sort((a, b) => Date.parse(a.creationTimestamp) - Date.parse(b.creationTimestamp) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The TaskRefs after observing `pods`: a present Pod refreshes its ref (keeping a recorded deletedStatus and
 * any running/finish time the Pod no longer shows; a finished Pod's status becomes its deletedStatus); a
 * recorded task whose Pod is gone takes its deletedStatus, or DeletedFinalStateUnknown, finishing at `now`.
 */
export function mergeTaskRefs(existing: readonly TaskRef[], pods: readonly Pod[], nowIso: string): TaskRef[] {
  const recorded = new Map(existing.map((ref) => [ref.name, ref]));
  const seen = new Set<string>();
  const refs: TaskRef[] = [];
  for (const pod of pods) {
    const ref = taskRefFromPod(pod);
    if (seen.has(ref.name)) continue;
    seen.add(ref.name);
    const before = recorded.get(ref.name);
    if (before) {
      if (before.deletedStatus) ref.deletedStatus = structuredClone(before.deletedStatus);
      ref.runningTimestamp ??= before.runningTimestamp;
      ref.finishTimestamp ??= before.finishTimestamp;
      if (ref.runningTimestamp === undefined) delete ref.runningTimestamp;
      if (ref.finishTimestamp === undefined) delete ref.finishTimestamp;
    }
    if (ref.finishTimestamp && isFinishedPod(pod)) ref.deletedStatus = structuredClone(ref.status);
    refs.push(ref);
  }
  for (const before of existing) {
    if (seen.has(before.name)) continue;
    const gone = structuredClone(before);
    gone.finishTimestamp ??= nowIso;
    gone.status = gone.deletedStatus ? structuredClone(gone.deletedStatus) : { ...gone.status, state: 'DeletedFinalStateUnknown' };
    refs.push(gone);
  }
  return sortTaskRefs(refs);
}

/** Records the status a task will take once its Pod is gone, unless one is already recorded. */
export function withDeletedStatus(refs: readonly TaskRef[], name: string, status: TaskStatus): TaskRef[] {
  return refs.map((ref) => (ref.name === name && !ref.deletedStatus ? { ...ref, deletedStatus: { ...status } } : ref));
}
