/**
 * The Job the CronController creates for one schedule instant of a JobConfig (§4.4 "Scheduled Job shape"),
 * before the Job webhooks add their defaults: named `<jobconfig>-<unix seconds>`, labelled with the
 * JobConfig's UID, annotated with the schedule time, controlled by the JobConfig, with a copy of its template.
 */
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import { cloneJson } from 'kubeforge/runtime';
import type { JobConfig } from '../../api/v1alpha1/jobconfig_types.js';
import type { Job } from '../../api/v1alpha1/job_types.js';
import { ANNOTATION_SCHEDULE_TIME, FINALIZER_DELETE_DEPENDENTS, LABEL_JOB_CONFIG_UID } from '../furiko/keys.js';

/** `<jobconfig-name>-<Unix seconds of the schedule time>`, e.g. `jobconfig-sample-1705313100`. */
export function scheduledJobName(jobConfigName: string, scheduleTimeMs: number): string {
  return `${jobConfigName}-${Math.floor(scheduleTimeMs / 1000)}`;
}

/**
 * The scheduled Job for `scheduleTimeMs`. `substitutions` are the JobConfig's default option values
 * (§4.5); the start policy carries the JobConfig's concurrency policy.
 */
export function scheduledJobFor(jobConfig: JobConfig, scheduleTimeMs: number, substitutions: Record<string, string>): Job {
  const meta = jobConfig.metadata!;
  const unixSeconds = String(Math.floor(scheduleTimeMs / 1000));
  const template = jobConfig.spec.template;
  const owner: OwnerReference = {
    apiVersion: jobConfig.apiVersion ?? 'execution.furiko.io/v1alpha1',
    kind: jobConfig.kind ?? 'JobConfig',
    name: meta.name!,
    uid: meta.uid!,
    controller: true,
    blockOwnerDeletion: true,
  };
  const job: Job = {
    apiVersion: 'execution.furiko.io/v1alpha1',
    kind: 'Job',
    metadata: {
      name: scheduledJobName(meta.name!, scheduleTimeMs),
      namespace: meta.namespace!,
      labels: { ...(template.metadata?.labels ?? {}), [LABEL_JOB_CONFIG_UID]: meta.uid! },
      annotations: { ...(template.metadata?.annotations ?? {}), [ANNOTATION_SCHEDULE_TIME]: unixSeconds },
      finalizers: [FINALIZER_DELETE_DEPENDENTS],
      ownerReferences: [owner],
    },
    spec: {
      type: 'Scheduled',
      startPolicy: { concurrencyPolicy: jobConfig.spec.concurrency.policy },
      template: cloneJson(template.spec),
    },
  };
  if (Object.keys(substitutions).length) job.spec.substitutions = { ...substitutions };
  return job;
}
