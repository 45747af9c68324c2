/**
 * Per-index progress of a Job from its TaskRefs (reference-operators spec §4.7.1, §4.1.4 parallelStatus):
 * each index's state and result, whether the Job is complete under its completion strategy, and which
 * indexes need a new task (with the earliest time a retry may be created). Tasks are grouped by index
 * hash, so colliding indexes share tasks exactly as upstream (Q-F5).
 */
import type { IndexState, Job, ParallelIndex, ParallelIndexStatus, ParallelStatus, TaskRef } from '../../api/v1alpha1/job_types.js';
import { indexHash } from './index-hash.js';
import { defaultIndex, generateIndexes } from './parallel-indexes.js';

/** How many indexes are in each state (an index with no task counts as terminated, as upstream). */
export interface IndexCounters {
  created: number;
  starting: number;
  running: number;
  retryBackoff: number;
  terminated: number;
  succeeded: number;
  failed: number;
}

export const maxAttemptsOf = (job: Job): number => job.spec.template?.maxAttempts ?? 1;
const finished = (task: TaskRef): boolean => Boolean(task.finishTimestamp);

function tasksByHash(tasks: readonly TaskRef[]): Map<string, TaskRef[]> {
  const groups = new Map<string, TaskRef[]>();
  for (const task of tasks) {
    const hash = indexHash(task.parallelIndex ?? defaultIndex());
    groups.set(hash, [...(groups.get(hash) ?? []), task]);
  }
  return groups;
}

/** The state and result of one index from the tasks created for it. */
export function indexStatus(index: ParallelIndex, hash: string, tasks: readonly TaskRef[], maxAttempts: number): ParallelIndexStatus {
  const terminal = tasks.filter(finished).length;
  const running = tasks.filter((t) => !finished(t) && t.runningTimestamp).length;
  const succeeded = tasks.some((t) => t.status.result === 'Succeeded');
  const failed = !succeeded && terminal >= maxAttempts;
  let state: IndexState;
  if (tasks.length === 0) state = 'NotCreated';
  else if (terminal === tasks.length) state = succeeded || failed ? 'Terminated' : 'RetryBackoff';
  else state = running > 0 ? 'Running' : 'Starting';
  const status: ParallelIndexStatus = { index, hash, createdTasks: tasks.length, state };
  if (succeeded) status.result = 'Succeeded';
  else if (failed) status.result = 'Failed';
  return status;
}

export function countIndexes(indexes: readonly ParallelIndexStatus[]): IndexCounters {
  const c: IndexCounters = { created: 0, starting: 0, running: 0, retryBackoff: 0, terminated: 0, succeeded: 0, failed: 0 };
  for (const index of indexes) {
    if (index.state !== 'NotCreated') c.created++;
    if (index.state === 'NotCreated' || index.state === 'RetryBackoff' || index.state === 'Terminated') c.terminated++;
    if (index.state === 'RetryBackoff') c.retryBackoff++;
    if (index.state === 'Starting') c.starting++;
    if (index.state === 'Running') c.running++;
    if (index.result === 'Succeeded') c.succeeded++;
    if (index.result === 'Failed') c.failed++;
  }
  return c;
}

/** Status of every index plus completion: AllSuccessful needs all indexes to succeed and fails on the first failed index; AnySuccessful the reverse. */
export function parallelStatus(job: Job, tasks: readonly TaskRef[]): ParallelStatus {
  const parallelism = job.spec.template?.parallelism;
  const groups = tasksByHash(tasks);
  const indexes = generateIndexes(parallelism).map((index) => {
    const hash = indexHash(index);
    return indexStatus(index, hash, groups.get(hash) ?? [], maxAttemptsOf(job));
  });
  const counters = countIndexes(indexes);
  const strategy = parallelism?.completionStrategy || 'AllSuccessful';
  const successful = strategy === 'AllSuccessful' ? counters.succeeded >= indexes.length : counters.succeeded > 0;
  const failed = strategy === 'AllSuccessful' ? counters.failed > 0 : counters.failed >= indexes.length;
  const status: ParallelStatus = { complete: successful || failed, indexes };
  if (successful || failed) status.successful = successful;
  return status;
}

/** An index that needs a new task: its retry index and the earliest instant (ms) it may be created. */
export interface TaskCreationRequest {
  index: ParallelIndex;
  retryIndex: number;
  earliestMs: number;
}

/**
 * Indexes with no unfinished or succeeded task and attempts left. A retry waits `retryDelaySeconds` after
 * the latest finish of the same index; a first attempt may be created at once (earliestMs 0).
 */
export function missingTasks(job: Job, tasks: readonly TaskRef[]): TaskCreationRequest[] {
  const delayMs = (job.spec.template?.retryDelaySeconds ?? 0) * 1000;
  const groups = tasksByHash(tasks);
  const requests: TaskCreationRequest[] = [];
  for (const index of generateIndexes(job.spec.template?.parallelism)) {
    const group = groups.get(indexHash(index)) ?? [];
    if (group.some((t) => !finished(t) || t.status.result === 'Succeeded')) continue;
    const nextRetryIndex = group.reduce((next, t) => Math.max(next, t.retryIndex + 1), 0);
    if (nextRetryIndex >= maxAttemptsOf(job)) continue;
    const lastFinishMs = group.reduce((latest, t) => Math.max(latest, Date.parse(t.finishTimestamp!)), 0);
    requests.push({ index, retryIndex: nextRetryIndex, earliestMs: group.length ? lastFinishMs + delayMs : 0 });
  }
  return requests;
}
