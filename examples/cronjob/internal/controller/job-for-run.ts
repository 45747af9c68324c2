/**
 * The Job a CronJob creates for one scheduled run: named `<cronjob>-<unix seconds>`, labelled and annotated
 * from the template (plus the scheduled-time annotation, which always wins), controlled by the CronJob.
 */
import type { Job } from 'kubernetes-types/batch/v1.js';
import { cloneJson, rfc3339Seconds, setControllerReference } from 'kubeforge/runtime';
import type { CronJob } from '../../api/v1/cronjob_types.js';
import { SCHEDULED_TIME_ANNOTATION } from './child-jobs.js';

export function jobForRun(cronJob: CronJob, scheduledMs: number): Job {
  const template = cronJob.spec.jobTemplate;
  const job: Job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: `${cronJob.metadata!.name}-${Math.floor(scheduledMs / 1000)}`,
      namespace: cronJob.metadata!.namespace,
      labels: { ...(template.metadata?.labels ?? {}) },
      annotations: { ...(template.metadata?.annotations ?? {}), [SCHEDULED_TIME_ANNOTATION]: rfc3339Seconds(scheduledMs) },
    },
    ...(template.spec ? { spec: cloneJson(template.spec) } : {}),
  };
  setControllerReference(cronJob, job);
  return job;
}

/** Go's time.Time.String() for a UTC instant: `2024-01-15 10:01:00 +0000 UTC`. */
export function goTimeString(ms: number): string {
  return `${rfc3339Seconds(ms).replace('T', ' ').replace('Z', '')} +0000 UTC`;
}
