/**
 * batch/v1 Job status vocabulary as the 1.32 Job controller writes it: condition types, reasons and
 * messages, the finished check, and the status field order (zero counters omitted, `ready` and
 * `terminating` always present).
 */
import { rfc3339 } from '../registry/system-metadata.js';
import type { Job, JobStatus } from 'kubernetes-types/batch/v1.js';
import type { KubeObject, Stored } from '../store/object-store.js';

export const jobTrackingFinalizer = 'batch.kubernetes.io/job-tracking';

export const jobReasons = {
  completionsReached: { reason: 'CompletionsReached', message: 'Reached expected number of succeeded pods' },
  backoffLimitExceeded: { reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' },
  deadlineExceeded: { reason: 'DeadlineExceeded', message: 'Job was active longer than specified deadline' },
  suspended: { reason: 'JobSuspended', message: 'Job suspended' },
  resumed: { reason: 'JobResumed', message: 'Job resumed' },
} as const;

export interface JobCondition {
  type: string;
  status: 'True' | 'False';
  lastProbeTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** A Job as this module reads it: its conditions, each with every field. */
export type JobWithConditions = { status?: { conditions?: JobCondition[] } };

/** A stored Job, its status as the Job controller writes it (conditions complete). */
export type WrittenJob = Omit<Job, 'status'> & { status?: Omit<JobStatus, 'conditions'> & { conditions?: JobCondition[] } };
export type StoredJob = Stored<WrittenJob>;

export function jobCondition(type: string, status: 'True' | 'False', why: { reason: string; message: string }, now: number): JobCondition {
  return { type, status, lastProbeTime: rfc3339(now), lastTransitionTime: rfc3339(now), reason: why.reason, message: why.message };
}

export function findCondition(job: KubeObject | JobWithConditions, type: string): JobCondition | undefined {
  // the Job controller writes every field of its conditions (jobCondition above)
  const status = job.status as JobWithConditions['status'];
  return (status?.conditions ?? []).find((c) => c.type === type);
}

export function hasTrueCondition(job: KubeObject | JobWithConditions, type: string): boolean {
  return findCondition(job, type)?.status === 'True';
}

/** Finished = `Complete` or `Failed` is True (the interim SuccessCriteriaMet/FailureTarget are not). */
export function finishedCondition(job: KubeObject | JobWithConditions): 'Complete' | 'Failed' | undefined {
  if (hasTrueCondition(job, 'Complete')) return 'Complete';
  if (hasTrueCondition(job, 'Failed')) return 'Failed';
  return undefined;
}

export interface JobCounts {
  active: number;
  succeeded: number;
  failed: number;
  terminating: number;
  ready: number;
}

/** The status object in the API's field order. */
export function jobStatus(counts: JobCounts, conditions: JobCondition[], extra: { startTime?: string; completionTime?: string; completedIndexes?: string; uncounted?: { succeeded?: string[]; failed?: string[] } }): Record<string, unknown> {
  const status: Record<string, unknown> = {};
  if (conditions.length) status.conditions = conditions;
  if (extra.startTime) status.startTime = extra.startTime;
  if (extra.completionTime) status.completionTime = extra.completionTime;
  if (counts.active) status.active = counts.active;
  if (counts.succeeded) status.succeeded = counts.succeeded;
  if (counts.failed) status.failed = counts.failed;
  status.terminating = counts.terminating;
  if (extra.completedIndexes) status.completedIndexes = extra.completedIndexes;
  const uncounted: Record<string, string[]> = {};
  if (extra.uncounted?.succeeded?.length) uncounted.succeeded = extra.uncounted.succeeded;
  if (extra.uncounted?.failed?.length) uncounted.failed = extra.uncounted.failed;
  status.uncountedTerminatedPods = uncounted;
  status.ready = counts.ready;
  return status;
}
