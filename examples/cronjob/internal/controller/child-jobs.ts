/**
 * What the CronJob controller knows about the Jobs it created: the `.metadata.controller` field index
 * that finds them, their classification (active / successful / failed), the scheduled time each one
 * carries in an annotation, and the order history cleanup deletes them in.
 */
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { ObjectReference } from 'kubernetes-types/core/v1.js';
import { getControllerOf } from 'kubeforge/runtime';
import { groupVersion } from '../../api/v1/groupversion_info.js';

/** Field-index key: the name of a Job's controlling CronJob. */
export const JOB_OWNER_KEY = '.metadata.controller';
/** Annotation on every created Job: the scheduled time it runs for (RFC 3339). */
export const SCHEDULED_TIME_ANNOTATION = 'batch.tutorial.kubebuilder.io/scheduled-at';

const CRONJOB_API_VERSION = `${groupVersion.group}/${groupVersion.version}`;

/** Index function: the owner name for Jobs controlled by a CronJob of this API version, else nothing. */
export function indexJobByController(job: Job): string[] {
  const owner = getControllerOf(job);
  if (!owner || owner.apiVersion !== CRONJOB_API_VERSION || owner.kind !== 'CronJob') return [];
  return [owner.name];
}

export type JobClass = 'active' | 'successful' | 'failed';

/** A Job is finished when its first Complete or Failed condition with status True says so. */
export function classifyJob(job: Job): JobClass {
  for (const condition of job.status?.conditions ?? []) {
    if (condition.status !== 'True') continue;
    if (condition.type === 'Complete') return 'successful';
    if (condition.type === 'Failed') return 'failed';
  }
  return 'active';
}

export interface ClassifiedJobs {
  active: Job[];
  successful: Job[];
  failed: Job[];
  /** The latest scheduled time found on any child, in ms; undefined when none carries one. */
  mostRecentScheduledMs?: number;
  /** Jobs whose annotation could not be parsed (still classified). */
  unparsableAnnotations: Array<{ name: string; value: string }>;
}

export function classifyJobs(jobs: Job[]): ClassifiedJobs {
  const result: ClassifiedJobs = { active: [], successful: [], failed: [], unparsableAnnotations: [] };
  for (const job of jobs) {
    result[classifyJob(job)].push(job);
    const value = job.metadata?.annotations?.[SCHEDULED_TIME_ANNOTATION];
    if (!value) continue;
    const scheduledMs = parseRfc3339(value);
    if (scheduledMs === undefined) {
      result.unparsableAnnotations.push({ name: job.metadata?.name ?? '', value });
      continue;
    }
    if (result.mostRecentScheduledMs === undefined || scheduledMs > result.mostRecentScheduledMs) result.mostRecentScheduledMs = scheduledMs;
  }
  return result;
}

/** Go's time.Parse(time.RFC3339, …): a full date-time with `Z` or a numeric offset. */
export function parseRfc3339(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The reference to a Job kept in `status.active`. */
export function referenceTo(job: Job): ObjectReference {
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    name: job.metadata?.name,
    namespace: job.metadata?.namespace,
    uid: job.metadata?.uid,
    resourceVersion: job.metadata?.resourceVersion,
  };
}

/**
 * The Jobs to delete so that at most `limit` remain: oldest `status.startTime` first, Jobs without a
 * start time before all others, ties in list order.
 */
export function jobsBeyondLimit(jobs: Job[], limit: number): Job[] {
  const ordered = jobs
    .map((job, index) => ({ job, index, start: job.status?.startTime ? Date.parse(job.status.startTime) : undefined }))
    .sort((a, b) => {
      if (a.start === undefined && b.start === undefined) return a.index - b.index;
      if (a.start === undefined) return -1;
      if (b.start === undefined) return 1;
      return a.start - b.start || a.index - b.index;
    });
  return ordered.slice(0, Math.max(0, ordered.length - limit)).map((entry) => entry.job);
}
