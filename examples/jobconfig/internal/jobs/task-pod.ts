/**
 * The Pod of one task (reference-operators spec §4.1 keys, §4.7.1): named `<job>-<indexHash>-<retryIndex>`,
 * controlled by the Job, carrying the template's metadata plus Furiko's task labels and parallel-index
 * annotation, with the substituted PodSpec.
 */
import type { Pod } from 'kubernetes-types/core/v1.js';
import { setControllerReference } from 'kubeforge/runtime';
import type { Job, ParallelIndex } from '../../api/v1alpha1/job_types.js';
import { ANNOTATION_TASK_PARALLEL_INDEX, LABEL_JOB_UID, LABEL_TASK_PARALLEL_INDEX_HASH, LABEL_TASK_RETRY_INDEX } from '../furiko/keys.js';
import { indexHash } from './index-hash.js';
import { parallelIndexJson } from './parallel-indexes.js';
import { substitutePodSpec } from './task-substitution.js';

export function taskName(jobName: string, index: ParallelIndex, retryIndex: number): string {
  return `${jobName}-${indexHash(index)}-${retryIndex}`;
}

/** The task Pod for `index` at `retryIndex` of a Job whose template has a Pod task template. */
export function taskPod(job: Job, index: ParallelIndex, retryIndex: number): Pod {
  const template = job.spec.template?.taskTemplate?.pod ?? {};
  const name = taskName(job.metadata!.name!, index, retryIndex);
  const namespace = job.metadata!.namespace!;
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      labels: {
        ...(template.metadata?.labels ?? {}),
        [LABEL_JOB_UID]: job.metadata!.uid!,
        [LABEL_TASK_RETRY_INDEX]: String(retryIndex),
        [LABEL_TASK_PARALLEL_INDEX_HASH]: indexHash(index),
      },
      annotations: { ...(template.metadata?.annotations ?? {}), [ANNOTATION_TASK_PARALLEL_INDEX]: parallelIndexJson(index) },
    },
    spec: substitutePodSpec(template.spec ?? { containers: [] }, job, { name, namespace, retryIndex, parallelIndex: index }),
  };
  setControllerReference(job, pod);
  return pod;
}
