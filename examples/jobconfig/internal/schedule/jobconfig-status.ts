/**
 * A JobConfig's status computed from its Jobs (§4.1.2) — counts and lists of queued and active Jobs, the
 * latest schedule and start times (never moving backwards), the high-level state — and which previously
 * active Jobs have since finished or disappeared (the JobConfigController's `Finished`/`Deleted` events).
 */
import type { JobConfig, JobConfigState, JobConfigStatus, JobReference } from '../../api/v1alpha1/jobconfig_types.js';
import type { Job } from '../../api/v1alpha1/job_types.js';
import { ANNOTATION_SCHEDULE_TIME } from '../furiko/keys.js';
import { isJobActive, isJobQueued } from './job-activity.js';
import { rfc3339 } from '../jobs/go-format.js';

/** The status a JobConfig should have, given every Job it owns. */
export function jobConfigStatusFrom(jobConfig: JobConfig, jobs: Job[]): JobConfigStatus {
  const previous = jobConfig.status;
  const activeJobs = referencesTo(jobs.filter(isJobActive));
  const queuedJobs = referencesTo(jobs.filter(isJobQueued));
  const status: JobConfigStatus = { state: 'Ready', queued: queuedJobs.length, active: activeJobs.length };
  if (queuedJobs.length) status.queuedJobs = queuedJobs;
  if (activeJobs.length) status.activeJobs = activeJobs;

  const lastScheduled = latest(previous?.lastScheduled, ...jobs.map(scheduleTimeOf));
  if (lastScheduled) status.lastScheduled = lastScheduled;
  const lastExecuted = latest(previous?.lastExecuted, ...jobs.map((job) => job.status?.startTime));
  if (lastExecuted) status.lastExecuted = lastExecuted;

  status.state = stateOf(jobConfig, status);
  return status;
}

/** Executing > JobQueued > ReadyDisabled/ReadyEnabled (cron schedules only) > Ready. */
export function stateOf(jobConfig: JobConfig, status: Pick<JobConfigStatus, 'active' | 'queued'>): JobConfigState {
  if (status.active > 0) return 'Executing';
  if (status.queued > 0) return 'JobQueued';
  const schedule = jobConfig.spec.schedule;
  if (schedule?.cron) return schedule.disabled ? 'ReadyDisabled' : 'ReadyEnabled';
  return 'Ready';
}

/** Previously active Jobs (by the old status) that are no longer active: finished ones, and names now gone. */
export function formerlyActiveJobs(previouslyActive: JobReference[] | undefined, jobs: Job[]): { finished: Job[]; deleted: string[] } {
  const byName = new Map(jobs.map((job) => [job.metadata!.name!, job]));
  const finished: Job[] = [];
  const deleted: string[] = [];
  for (const ref of previouslyActive ?? []) {
    const job = byName.get(ref.name);
    if (!job) deleted.push(ref.name);
    else if (!isJobActive(job)) finished.push(job);
  }
  return { finished, deleted };
}

/** JobReferences sorted by creationTimestamp (then name, for a stable order within one second). */
function referencesTo(jobs: Job[]): JobReference[] {
  return jobs
    .map((job): JobReference => {
      const ref: JobReference = {
        uid: job.metadata!.uid!,
        name: job.metadata!.name!,
        creationTimestamp: job.metadata!.creationTimestamp!,
        // A Job the JobController has not looked at yet has no phase; it is queued (not started, not terminal).
        phase: job.status?.phase ?? 'Queued',
      };
      if (job.status?.startTime) ref.startTime = job.status.startTime;
      return ref;
    })
    .sort((a, b) => Date.parse(a.creationTimestamp) - Date.parse(b.creationTimestamp) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The schedule-time annotation of a scheduled Job as an RFC 3339 time (seconds), if it has a valid one. */
function scheduleTimeOf(job: Job): string | undefined {
  const value = job.metadata?.annotations?.[ANNOTATION_SCHEDULE_TIME];
  if (!value || !/^\d+$/.test(value)) return undefined;
  return rfc3339(Number(value) * 1000);
}

/** The latest of some RFC 3339 times, re-serialised at one-second precision. */
function latest(...times: Array<string | undefined>): string | undefined {
  let best: number | undefined;
  for (const time of times) {
    const ms = time ? Date.parse(time) : NaN;
    if (!Number.isNaN(ms) && (best === undefined || ms > best)) best = ms;
  }
  return best === undefined ? undefined : rfc3339(best);
}
