/**
 * The whole observed status of a Job from its TaskRefs (reference-operators spec §4.1.4): parallel status
 * (parallel Jobs only), condition, phase, state and task counts — the pure core the JobController and the
 * JobQueueController both write, so they never disagree about a Job.
 */
import type { Job, JobStatus, TaskRef } from '../../api/v1alpha1/job_types.js';
import { ANNOTATION_ADMISSION_ERROR } from '../furiko/keys.js';
import { rfc3339 } from './go-format.js';
import { jobCondition, jobPhase, jobState } from './job-condition.js';
import { parallelStatus } from './parallel-status.js';

/**
 * The status of `job` once its TaskRefs are `tasks` (startTime is kept from `job.status`). A Job being
 * deleted before it finished ends `Killed` (finish time: now).
 */
export function computeJobStatus(job: Job, tasks: readonly TaskRef[], nowMs: number): JobStatus {
  const withTasks: Job = { ...job, status: { ...(job.status ?? emptyStatus()), tasks: [...tasks] } };
  let condition = jobCondition(withTasks, nowMs);
  if (job.metadata?.deletionTimestamp && !condition.finished) {
    const running = condition.running;
    condition = {
      finished: {
        ...(running ? { latestCreationTimestamp: running.latestTaskCreationTimestamp, latestRunningTimestamp: running.latestRunningTimestamp } : {}),
        finishTime: rfc3339(nowMs),
        result: 'Killed',
      },
    };
  }
  const parallel = job.spec.template?.parallelism ? parallelStatus(job, tasks) : undefined;
  const status: JobStatus = {
    phase: jobPhase(job, condition, tasks, parallel, nowMs),
    state: jobState(condition),
    condition,
    createdTasks: tasks.length,
    runningTasks: tasks.filter((t) => t.runningTimestamp && !t.finishTimestamp).length,
  };
  if (job.status?.startTime) status.startTime = job.status.startTime;
  if (tasks.length) status.tasks = [...tasks];
  if (parallel) status.parallelStatus = parallel;
  return status;
}

export function emptyStatus(): JobStatus {
  return { phase: 'Queued', state: 'Queued', condition: { queueing: {} }, createdTasks: 0, runningTasks: 0 };
}

/** True once the Job is terminal: finished condition or an admission error. */
export function isJobFinished(job: Job): boolean {
  return Boolean(job.status?.condition?.finished) || job.metadata?.annotations?.[ANNOTATION_ADMISSION_ERROR] !== undefined;
}
