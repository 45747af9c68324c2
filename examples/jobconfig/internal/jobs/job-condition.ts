/**
 * A Job's condition, phase and state from its TaskRefs (reference-operators spec §4.7.3): the first rule that
 * applies — admission error, queued, killed, waiting, running, terminating, finished — then the phase that
 * condition implies. Pure: the caller passes the Job (with the TaskRefs it just observed) and `now`.
 */
import type { Job, JobCondition, JobPhase, JobState, ParallelStatus, TaskRef } from '../../api/v1alpha1/job_types.js';
import { ANNOTATION_ADMISSION_ERROR } from '../furiko/keys.js';
import { goTimeUtc, rfc3339 } from './go-format.js';
import { generateIndexes } from './parallel-indexes.js';
import { countIndexes, parallelStatus } from './parallel-status.js';

const latestOf = (times: Array<string | undefined>): string | undefined =>
  times.filter((t): t is string => Boolean(t)).reduce<string | undefined>((max, t) => (max === undefined || Date.parse(t) > Date.parse(max) ? t : max), undefined);

/** True once `killTimestamp` is set and not in the future. */
export function killTimeReached(job: Job, nowMs: number): boolean {
  const kill = job.spec.killTimestamp;
  return kill !== undefined && Date.parse(kill) <= nowMs;
}

export function admissionErrorOf(job: Job): string | undefined {
  return job.metadata?.annotations?.[ANNOTATION_ADMISSION_ERROR];
}

function queueingCondition(job: Job): JobCondition {
  const policy = job.spec.startPolicy;
  if (policy?.startAfter) return { queueing: { reason: 'NotYetDue', message: `Job is queued to start no earlier than ${goTimeUtc(Date.parse(policy.startAfter))}` } };
  if (policy?.concurrencyPolicy === 'Enqueue') return { queueing: { reason: 'Queued', message: 'Job is queued and may be pending other concurrent jobs to be finished' } };
  return { queueing: {} };
}

/** The condition of `job` given its TaskRefs (`job.status.tasks`) at `nowMs`. */
export function jobCondition(job: Job, nowMs: number): JobCondition {
  const admissionError = admissionErrorOf(job);
  if (admissionError !== undefined) {
    const finishTime = job.status?.condition?.finished?.finishTime ?? rfc3339(nowMs);
    return { finished: { finishTime, result: 'AdmissionError', reason: 'AdmissionError', message: admissionError } };
  }
  if (!job.status?.startTime) return queueingCondition(job);

  const tasks: TaskRef[] = job.status.tasks ?? [];
  const total = generateIndexes(job.spec.template?.parallelism).length;
  const parallel = parallelStatus(job, tasks);
  const counters = countIndexes(parallel.indexes);
  const latestCreated = latestOf(tasks.map((t) => t.creationTimestamp));
  const latestRunning = latestOf(tasks.map((t) => t.runningTimestamp));
  const latestFinished = latestOf(tasks.map((t) => t.finishTimestamp));
  const times = { ...(latestCreated ? { latestCreationTimestamp: latestCreated } : {}), ...(latestRunning ? { latestRunningTimestamp: latestRunning } : {}) };

  if (killTimeReached(job, nowMs)) {
    if (counters.terminated >= total) return { finished: { ...times, finishTime: latestFinished ?? job.spec.killTimestamp!, result: 'Killed' } };
    return { waiting: { reason: 'DeletingTasks', message: `Waiting for ${total - counters.terminated} out of ${total} task(s) to be deleted` } };
  }
  if (!parallel.complete) {
    if (counters.created < total) return { waiting: { reason: 'PendingCreation', message: `Waiting for ${total - counters.created} out of ${total} task(s) to be created` } };
    if (counters.retryBackoff > 0) return { waiting: { reason: 'RetryBackoff', message: `Waiting to retry creating ${counters.retryBackoff} task(s)` } };
    if (counters.starting > 0) return { waiting: { reason: 'WaitingForTasks', message: `Waiting for ${counters.starting} task(s) to start running` } };
    return { running: runningCondition(latestCreated, latestRunning, 0) };
  }
  if (counters.terminated < total) return { running: runningCondition(latestCreated, latestRunning, total - counters.terminated) };
  const result = job.spec.killTimestamp ? 'Killed' : parallel.successful ? 'Success' : 'Failed';
  return { finished: { ...times, finishTime: latestFinished ?? rfc3339(nowMs), result } };
}

/**
 * The running condition. Both timestamps are required by the schema; a Job that completed before any task
 * ran (possible while terminating) shows its latest creation time as the running time (spec is silent).
 */
function runningCondition(latestCreated: string | undefined, latestRunning: string | undefined, terminating: number): NonNullable<JobCondition['running']> {
  const created = latestCreated ?? latestRunning!;
  return { latestTaskCreationTimestamp: created, latestRunningTimestamp: latestRunning ?? created, ...(terminating > 0 ? { terminatingTasks: terminating } : {}) };
}

/** The phase the condition implies (§4.7.3 "Phase"). */
export function jobPhase(job: Job, condition: JobCondition, tasks: readonly TaskRef[], parallel: ParallelStatus | undefined, nowMs: number): JobPhase {
  if (condition.finished) {
    const byResult: Record<string, JobPhase> = { Success: 'Succeeded', Failed: 'Failed', Killed: 'Killed', AdmissionError: 'AdmissionError' };
    return byResult[condition.finished.result] ?? 'FinishedUnknown';
  }
  if (killTimeReached(job, nowMs)) return 'Killing';
  if (condition.running) return (condition.running.terminatingTasks ?? 0) > 0 ? 'Terminating' : 'Running';
  if (condition.waiting) {
    if (tasks.length === 0) return 'Starting';
    if (!parallel) {
      if (tasks[tasks.length - 1]!.finishTimestamp) return 'RetryBackoff';
      return tasks.length > 1 ? 'Retrying' : 'Pending';
    }
    if (parallel.indexes.some((i) => i.state === 'RetryBackoff')) return 'RetryBackoff';
    if (parallel.indexes.some((i) => i.state === 'Starting' && i.createdTasks > 1)) return 'Retrying';
    return 'Pending';
  }
  return 'Queued';
}

/** Which condition member is set. */
export function jobState(condition: JobCondition): JobState {
  if (condition.finished) return 'Finished';
  if (condition.running) return 'Running';
  if (condition.waiting) return 'Waiting';
  return 'Queued';
}
