/**
 * Where a Job stands for its JobConfig (Furiko's job.IsStarted/IsQueued/IsActive): queued Jobs are not
 * started and not terminal, active Jobs are started and not terminal. The cron controller's Forbid check and
 * the JobConfig status both count with these.
 */
import { isTerminalPhase, type Job } from '../../api/v1alpha1/job_types.js';

export function isJobStarted(job: Job): boolean {
  return Boolean(job.status?.startTime);
}

export function isJobQueued(job: Job): boolean {
  return !isJobStarted(job) && !isTerminalPhase(job.status?.phase);
}

export function isJobActive(job: Job): boolean {
  return isJobStarted(job) && !isTerminalPhase(job.status?.phase);
}
