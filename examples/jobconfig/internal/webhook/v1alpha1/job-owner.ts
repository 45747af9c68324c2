/**
 * Finds the JobConfig a Job belongs to, for the Job webhooks: through `spec.configName`, or through a
 * controller owner reference of kind JobConfig — which must name an existing JobConfig whose UID matches
 * the reference and the Job's `execution.furiko.io/job-config-uid` label.
 */
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import { ignoreNotFound, type Client } from 'kubeforge/runtime';
import { JobConfigKind, type JobConfig } from '../../../api/v1alpha1/jobconfig_types.js';
import type { Job } from '../../../api/v1alpha1/job_types.js';
import { LABEL_JOB_CONFIG_UID } from '../../furiko/keys.js';
import { invalid, notFound, required, type FieldError } from '../../validation/field-errors.js';

/** The JobConfig controller reference of a Job, if it has one. */
export function jobConfigOwnerReference(job: Job): OwnerReference | undefined {
  return job.metadata?.ownerReferences?.find(
    (ref) => ref.controller && ref.kind === 'JobConfig' && ref.apiVersion.split('/')[0] === 'execution.furiko.io',
  );
}

/** Reads a JobConfig; undefined when it does not exist. */
export async function getJobConfig(reader: Client, namespace: string, name: string): Promise<JobConfig | undefined> {
  return reader.get(JobConfigKind, { namespace, name }).catch(ignoreNotFound);
}

/** The result of resolving a Job's owner: its JobConfig (none for an independent Job), or why it is invalid. */
export type OwnerLookup = { jobConfig?: JobConfig; errors: FieldError[] };

/** Resolves the JobConfig a Job's controller owner reference points to and checks the UID label. */
export async function lookupJobConfigOwner(reader: Client, job: Job): Promise<OwnerLookup> {
  const ref = jobConfigOwnerReference(job);
  if (!ref) return { errors: [] };
  const jobConfig = await getJobConfig(reader, job.metadata?.namespace ?? 'default', ref.name);
  if (!jobConfig) return { errors: [notFound('metadata.ownerReferences', ref.name)] };
  const uid = jobConfig.metadata?.uid ?? '';
  const errors: FieldError[] = [];
  if (ref.uid !== uid) errors.push(invalid('metadata.ownerReferences', ref.uid, `does not match UID of JobConfig ${ref.name}: ${uid}`));
  const labelPath = `metadata.labels[${LABEL_JOB_CONFIG_UID}]`;
  const label = job.metadata?.labels?.[LABEL_JOB_CONFIG_UID];
  if (!label) errors.push(required(labelPath, `must be set to the UID of JobConfig ${ref.name}`));
  else if (label !== uid) errors.push(invalid(labelPath, label, `does not match UID of JobConfig ${ref.name}: ${uid}`));
  return errors.length ? { errors } : { jobConfig, errors };
}
