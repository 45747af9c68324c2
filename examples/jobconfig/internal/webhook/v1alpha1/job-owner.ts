/**
 * Finds the JobConfig a Job belongs to, for the Job webhooks: through `spec.configName`, or through a
 * controller owner reference of kind JobConfig — which must name an existing JobConfig whose UID matches
 * the reference and the Job's `execution.furiko.io/job-config-uid` label (Furiko's messages, exactly).
 */
import type { OwnerReference } from 'kubernetes-types/meta/v1.js';
import { ignoreNotFound, type Client } from 'kubeforge/runtime';
import { JobConfigKind, type JobConfig } from '../../../api/v1alpha1/jobconfig_types.js';
import type { Job } from '../../../api/v1alpha1/job_types.js';
import { LABEL_JOB_CONFIG_UID } from '../../furiko/keys.js';
import { duplicate, notFound, required, type FieldError } from '../../validation/field-errors.js';

/**
 * The JobConfig controller reference of a Job and its index in `metadata.ownerReferences`, if it has one:
 * as Furiko, the first controller reference, and only when its kind is JobConfig.
 */
export function jobConfigOwnerReference(job: Job): { ref: OwnerReference; index: number } | undefined {
  const refs = job.metadata?.ownerReferences ?? [];
  const index = refs.findIndex((ref) => ref.controller);
  return index >= 0 && refs[index]!.kind === 'JobConfig' ? { ref: refs[index]!, index } : undefined;
}

/** Reads a JobConfig; undefined when it does not exist. */
export async function getJobConfig(reader: Client, namespace: string, name: string): Promise<JobConfig | undefined> {
  return reader.get(JobConfigKind, { namespace, name }).catch(ignoreNotFound);
}

/** The result of resolving a Job's owner: its JobConfig (none for an independent Job), or why it is invalid. */
export type OwnerLookup = { jobConfig?: JobConfig; errors: FieldError[] };

/**
 * Resolves the JobConfig a Job's controller owner reference points to and checks it as Furiko does, one
 * problem at a time: `ownerReferences[i]` Not found, then a UID mismatch as `ownerReferences[i][uid]`
 * Duplicate value (the JobConfig was recreated under the same name), then the UID label missing or different.
 */
export async function lookupJobConfigOwner(reader: Client, job: Job): Promise<OwnerLookup> {
  const owner = jobConfigOwnerReference(job);
  if (!owner) return { errors: [] };
  const { ref, index } = owner;
  const refPath = `metadata.ownerReferences[${index}]`;
  const jobConfig = await getJobConfig(reader, job.metadata?.namespace ?? 'default', ref.name);
  if (!jobConfig) return { errors: [notFound(refPath, ref.name)] };
  const uid = jobConfig.metadata?.uid ?? '';
  if (ref.uid !== uid) return { errors: [duplicate(`${refPath}[uid]`, uid)] };
  if (job.metadata?.labels?.[LABEL_JOB_CONFIG_UID] !== uid) {
    return { errors: [required(`metadata.labels[${LABEL_JOB_CONFIG_UID}]`, 'label must be specified if ownerReferences is specified')] };
  }
  return { jobConfig, errors: [] };
}
