/*
Copyright 2026 The jobconfig Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

/**
 * The JobController (reference-operators spec §4.7): runs a started Furiko Job by creating its task Pods,
 * retrying them, reaping tasks past their pending timeout or kill time, computing the Job's status from its
 * Pods, deleting the Job after its TTL and finalizing it. `setupJobController` also registers the
 * JobQueueController (§4.6), which decides when queued Jobs start.
 */
import type { Pod } from 'kubernetes-types/core/v1.js';
import {
  ApiError,
  BuiltinKinds,
  ignoreNotFound,
  isAlreadyExists,
  isInvalid,
  isNotFound,
  retryOnConflict,
  type EventRecorder,
  type Manager,
  type ReconcileContext,
  type Request,
  type Result,
} from 'kubeforge/runtime';
import { isDeepStrictEqual } from 'node:util';
import { JobKind, type Job, type JobStatus, type TaskRef, type TaskStatus } from '../../api/v1alpha1/job_types.js';
import { defaultFurikoConfig, sharedFurikoConfig, type FurikoConfig } from '../furiko/config.js';
import { ANNOTATION_ADMISSION_ERROR, FINALIZER_DELETE_DEPENDENTS, LABEL_JOB_UID } from '../furiko/keys.js';
import { goDurationSeconds, rfc3339 } from '../jobs/go-format.js';
import { admissionErrorOf, killTimeReached } from '../jobs/job-condition.js';
import { computeJobStatus } from '../jobs/job-status.js';
import { missingTasks, parallelStatus } from '../jobs/parallel-status.js';
import { mergeTaskRefs, sortTaskRefs, taskRefFromPod, withDeletedStatus } from '../jobs/task-refs.js';
import { taskPod } from '../jobs/task-pod.js';
import { setupJobQueueControllers } from './job_queue_controller.js';
import { WakeUps } from './wake_ups.js';

// +kubebuilder:rbac:groups=execution.furiko.io,resources=jobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=execution.furiko.io,resources=jobs/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=execution.furiko.io,resources=jobs/finalizers,verbs=update
// +kubebuilder:rbac:groups=execution.furiko.io,resources=jobconfigs,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=pods,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch

/** The event recorder component of Furiko's Job events. */
export const JOB_CONTROLLER_COMPONENT = 'JobController';

/** A task Pod to delete in this reconcile, and the status its TaskRef keeps once the Pod is gone. */
interface PlannedDeletion {
  pod: Pod;
  status: TaskStatus;
  force: boolean;
}

const KILLED_BY_DELETION: TaskStatus = { state: 'Terminated', result: 'Killed', reason: 'Deleted', message: 'Task was killed via deletion' };
const KILLED_BY_JOB_DELETION: TaskStatus = { state: 'Terminated', result: 'Killed', reason: 'JobDeleted', message: 'Task was killed in response to deletion of Job' };
const FORCE_DELETED: TaskStatus = { state: 'Terminated', result: 'Killed', reason: 'ForceDeleted', message: 'Forcefully deleted the task, container may still be running' };

/** JobReconciler reconciles a Job object: its tasks, its status, its TTL and its finalizer. */
export class JobReconciler {
  constructor(
    private readonly mgr: Manager,
    private readonly config: FurikoConfig = defaultFurikoConfig,
    // One recorder per component: two recorders naming Events of one object in the same second collide.
    private readonly recorder: EventRecorder = mgr.eventRecorderFor(JOB_CONTROLLER_COMPONENT),
  ) {}

  /**
   * One pass over a Job. A write that loses a race with the JobQueueController (409) is redone at once
   * on a fresh read rather than after the retry backoff, so start and task times stay exact.
   */
  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    return retryOnConflict(() => this.sync(request, context), { attempts: 3 });
  }

  private async sync(request: Request, context: ReconcileContext): Promise<Result> {
    // From the API server: the status this controller wrote a moment ago must be the one it builds on.
    let job = await this.mgr.apiReader().get(JobKind, request).catch(ignoreNotFound);
    if (!job) return {};
    const log = context.log.child({ job: `${request.namespace}/${request.name}` });
    const now = context.clock.now();
    const wakeUps = new WakeUps(now);
    const pods = await this.podsOf(job);
    let refs = mergeTaskRefs(job.status?.tasks ?? [], pods, rfc3339(now));
    let deletions: PlannedDeletion[] = [];

    if (job.status?.startTime && !job.metadata?.deletionTimestamp) {
      ({ job, refs } = await this.createTasks(job, refs, now, wakeUps, log));
      deletions = this.planTaskDeletions(job, refs, pods, now, wakeUps);
    } else if (job.metadata?.deletionTimestamp) {
      deletions = pods.filter((pod) => !pod.metadata?.deletionTimestamp).map((pod) => ({ pod, status: KILLED_BY_JOB_DELETION, force: false }));
    }
    for (const { pod, status, force } of deletions) {
      refs = force ? refs.map((r) => (r.name === pod.metadata!.name ? { ...r, deletedStatus: { ...status } } : r)) : withDeletedStatus(refs, pod.metadata!.name!, status);
    }

    const previous = job.status;
    job = await this.writeStatus(job, computeJobStatus(job, refs, now));
    this.recordTransitions(job, previous, job.status!);
    await this.deleteTasks(job, deletions, log);

    if (job.metadata?.deletionTimestamp) {
      if (pods.length === 0) await this.removeFinalizer(job);
      return {};
    }
    await this.expireAfterTtl(job, now, wakeUps, log);
    return wakeUps.result();
  }

  /** The Pods this Job controls, read from the API server (a Pod created a moment ago is never taken for lost). */
  private async podsOf(job: Job): Promise<Pod[]> {
    const pods = await this.mgr.apiReader().list(BuiltinKinds.Pod, { namespace: job.metadata!.namespace!, labelSelector: { [LABEL_JOB_UID]: job.metadata!.uid! } });
    return pods.filter((pod) => isControlledBy(pod, job));
  }

  /** Creates the task of every index that needs one now; a retry that is not yet due becomes a wake-up. */
  private async createTasks(job: Job, refs: TaskRef[], now: number, wakeUps: WakeUps, log: ReconcileContext['log']): Promise<{ job: Job; refs: TaskRef[] }> {
    const current: Job = { ...job, status: { ...job.status!, tasks: refs } };
    if (admissionErrorOf(job) !== undefined || killTimeReached(job, now) || !job.spec.template?.taskTemplate?.pod) return { job, refs };
    if (parallelStatus(current, refs).complete) return { job, refs };
    for (const request of missingTasks(current, refs)) {
      if (request.earliestMs > now) {
        wakeUps.at(request.earliestMs);
        continue;
      }
      const pod = taskPod(job, request.index, request.retryIndex);
      try {
        const created = await this.mgr.client.create(pod);
        log.info({ task: created.metadata?.name }, 'created task');
        void this.recorder.event(job, 'Normal', 'Created', `Created task of kind Pod: ${created.metadata!.name}`);
        refs = [...refs.filter((r) => r.name !== created.metadata!.name), taskRefFromPod(created)];
      } catch (err) {
        const refused = await this.refusedTaskMessage(job, pod, err);
        if (refused === undefined) {
          if (isAlreadyExists(err)) continue; // adopted: the next pass sees it among the Job's Pods
          throw err;
        }
        job = await this.markAdmissionError(job, refused.annotation);
        void this.recorder.event(job, 'Warning', 'AdmissionError', refused.event);
        return { job, refs };
      }
    }
    return { job, refs: sortTaskRefs(refs) };
  }

  /**
   * Why a task can never be created: an invalid Pod, or a Pod of that name this Job does not control.
   * Undefined for errors worth retrying and for a Pod of this Job that already exists (adopted).
   */
  private async refusedTaskMessage(job: Job, pod: Pod, err: unknown): Promise<{ annotation: string; event: string } | undefined> {
    if (isInvalid(err)) {
      const message = `Cannot create task: ${errorText(err)}`;
      return { annotation: message, event: message };
    }
    if (!isAlreadyExists(err)) return undefined;
    const existing = await this.mgr.apiReader().get(BuiltinKinds.Pod, { namespace: pod.metadata!.namespace!, name: pod.metadata!.name! });
    if (isControlledBy(existing, job)) return undefined;
    return { annotation: `task already exists: ${pod.metadata!.name}`, event: `Task already exists and cannot be adopted: ${pod.metadata!.name}` };
  }

  /**
   * The task Pods to delete now: pending past the timeout, unfinished at the kill time, unfinished after the
   * Job completed, or stuck in deletion past the force-delete timeout. Future deadlines become wake-ups.
   */
  private planTaskDeletions(job: Job, refs: TaskRef[], pods: Pod[], now: number, wakeUps: WakeUps): PlannedDeletion[] {
    const byName = new Map(refs.map((r) => [r.name, r]));
    const template = job.spec.template;
    const pendingTimeoutSeconds = template?.taskPendingTimeoutSeconds ?? this.config.defaultPendingTimeoutSeconds;
    const killAt = job.spec.killTimestamp ? Date.parse(job.spec.killTimestamp) : undefined;
    const complete = parallelStatus({ ...job, status: { ...job.status!, tasks: refs } }, refs).complete;
    const planned: PlannedDeletion[] = [];
    for (const pod of pods) {
      const ref = byName.get(pod.metadata!.name!);
      if (!ref || ref.finishTimestamp) continue;
      const deletingSince = pod.metadata?.deletionTimestamp;
      if (deletingSince) {
        if (template?.forbidTaskForceDeletion || this.config.forceDeleteTaskTimeoutSeconds <= 0) continue;
        const forceAt = Date.parse(deletingSince) + this.config.forceDeleteTaskTimeoutSeconds * 1000;
        if (forceAt <= now) planned.push({ pod, status: FORCE_DELETED, force: true });
        else wakeUps.at(forceAt);
        continue;
      }
      if (killAt !== undefined && killAt <= now) {
        planned.push({ pod, status: KILLED_BY_DELETION, force: false });
        continue;
      }
      if (killAt !== undefined) wakeUps.at(killAt);
      if (complete) {
        planned.push({ pod, status: KILLED_BY_DELETION, force: false });
        continue;
      }
      if (!ref.runningTimestamp && pendingTimeoutSeconds > 0) {
        const deadline = Date.parse(ref.creationTimestamp) + pendingTimeoutSeconds * 1000;
        if (deadline <= now) {
          const message = `Task exceeded pending timeout of ${goDurationSeconds(pendingTimeoutSeconds)}`;
          planned.push({ pod, status: { state: 'Terminated', result: 'Killed', reason: 'PendingTimeout', message }, force: false });
        } else wakeUps.at(deadline);
      }
    }
    return planned;
  }

  private async deleteTasks(job: Job, deletions: PlannedDeletion[], log: ReconcileContext['log']): Promise<void> {
    for (const { pod, force } of deletions) {
      try {
        await this.mgr.client.delete(pod, force ? { gracePeriodSeconds: 0 } : {});
      } catch (err) {
        if (isNotFound(err)) continue;
        throw err;
      }
      log.info({ task: pod.metadata?.name, force }, 'deleted task');
      void this.recorder.event(job, 'Warning', force ? 'ForceDeleted' : 'Deleted', `Deleted task ${pod.metadata!.name}`);
    }
  }

  /** Writes the status when it changed; returns the Job as stored. */
  private async writeStatus(job: Job, status: JobStatus): Promise<Job> {
    if (isDeepStrictEqual(job.status, status)) return job;
    return this.mgr.client.updateStatus({ ...job, status });
  }

  /** Events when the Job first runs and when it first finishes (§4.7.3 "Events"). */
  private recordTransitions(job: Job, before: JobStatus | undefined, after: JobStatus): void {
    if (!before?.condition?.running && after.condition.running) void this.recorder.event(job, 'Normal', 'Running', 'Job started running');
    const finished = after.condition.finished;
    if (!before?.condition?.finished && finished) {
      if (finished.result === 'Success' || finished.result === 'FinalStateUnknown') void this.recorder.event(job, 'Normal', 'Finished', `Job finished with result: ${finished.result}`);
      else void this.recorder.event(job, 'Warning', 'Failed', `Job failed with result: ${finished.result}`);
    }
  }

  private async markAdmissionError(job: Job, message: string): Promise<Job> {
    return this.mgr.client.patch(job, { metadata: { annotations: { [ANNOTATION_ADMISSION_ERROR]: message } } });
  }

  /** Deletes a finished Job `ttlSecondsAfterFinished` after it finished; until then, a wake-up. */
  private async expireAfterTtl(job: Job, now: number, wakeUps: WakeUps, log: ReconcileContext['log']): Promise<void> {
    const finishTime = job.status?.condition?.finished?.finishTime;
    if (!finishTime) return;
    const expiresAt = Date.parse(finishTime) + (job.spec.ttlSecondsAfterFinished ?? this.config.defaultTTLSecondsAfterFinished) * 1000;
    if (expiresAt > now) {
      wakeUps.at(expiresAt);
      return;
    }
    try {
      await this.mgr.client.delete(job, { propagationPolicy: 'Background' });
      log.info('deleted Job after its TTL');
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  /** Once every task Pod is gone, lets the Job go. */
  private async removeFinalizer(job: Job): Promise<void> {
    const finalizers = job.metadata?.finalizers ?? [];
    if (!finalizers.includes(FINALIZER_DELETE_DEPENDENTS)) return;
    try {
      await this.mgr.client.update({ ...job, metadata: { ...job.metadata, finalizers: finalizers.filter((f) => f !== FINALIZER_DELETE_DEPENDENTS) } });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}

function isControlledBy(pod: Pod, job: Job): boolean {
  return (pod.metadata?.ownerReferences ?? []).some((ref) => ref.controller && ref.uid === job.metadata?.uid);
}

function errorText(err: unknown): string {
  if (err instanceof ApiError && err.status?.message) return err.status.message;
  return err instanceof Error ? err.message : String(err);
}

/** Registers the JobController and the JobQueueController with the manager (called from internal/controller/index.ts). */
export function setupJobController(mgr: Manager, config: FurikoConfig = sharedFurikoConfig): void {
  const recorder = mgr.eventRecorderFor(JOB_CONTROLLER_COMPONENT);
  mgr
    .controllerFor(JobKind)
    .owns(BuiltinKinds.Pod)
    .named('job')
    .complete(new JobReconciler(mgr, config, recorder));
  setupJobQueueControllers(mgr, recorder);
}
