/** Job and TaskRef fixtures for the pure job-status tests: a started Job and tasks in given states. */
import type { Job, JobTemplate, ParallelIndex, TaskRef, TaskResult } from '../api/v1alpha1/job_types.js';

export const t = (hhmmss: string): string => `2024-01-15T${hhmmss}Z`;
export const ms = (hhmmss: string): number => Date.parse(t(hhmmss));

export function startedJob(template: Partial<JobTemplate> = {}, extra: Partial<Job['spec']> = {}): Job {
  return {
    apiVersion: 'execution.furiko.io/v1alpha1',
    kind: 'Job',
    metadata: { name: 'j', namespace: 'default', uid: 'uid-1' },
    spec: { type: 'Adhoc', template: { taskTemplate: { pod: { spec: { containers: [] } } }, ...template }, ...extra },
    status: { phase: 'Starting', state: 'Waiting', condition: { waiting: {} }, startTime: t('10:00:00'), createdTasks: 0, runningTasks: 0 },
  };
}

/** A TaskRef: `created`, optionally `running` and `finished` (hh:mm:ss), with `result` when finished. */
export function task(name: string, times: { created: string; running?: string; finished?: string; result?: TaskResult }, retryIndex = 0, parallelIndex?: ParallelIndex): TaskRef {
  const ref: TaskRef = {
    name,
    creationTimestamp: t(times.created),
    retryIndex,
    status: { state: times.finished ? 'Terminated' : times.running ? 'Running' : 'Starting', ...(times.result ? { result: times.result } : {}) },
    containerStates: [],
  };
  if (times.running) ref.runningTimestamp = t(times.running);
  if (times.finished) ref.finishTimestamp = t(times.finished);
  if (parallelIndex) ref.parallelIndex = parallelIndex;
  return ref;
}
