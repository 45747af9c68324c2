/*
Copyright 2026 The project Authors.

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
 * The CronJob controller: reconciles CronJob objects (batch.tutorial.kubebuilder.io/v1). Each pass rebuilds
 * the status from the Jobs that exist, prunes finished Jobs beyond the history limits, starts the latest
 * missed run (honouring suspend, the starting deadline and the concurrency policy) and asks to be woken
 * at the next scheduled time.
 */
import type { Job } from 'kubernetes-types/batch/v1.js';
import {
  ApiError,
  BuiltinKinds,
  cloneJson,
  isConflict,
  isNotFound,
  retryOnConflict,
  rfc3339Seconds,
  setStatusCondition,
  type ConditionInput,
  type Manager,
  type ReconcileContext,
  type Request,
  type Result,
} from 'kubeforge/runtime';
import { CronJobKind, type CronJob } from '../../api/v1/cronjob_types.js';
import { classifyJobs, indexJobByController, JOB_OWNER_KEY, jobsBeyondLimit, referenceTo, type ClassifiedJobs } from './child-jobs.js';
import { goTimeString, jobForRun } from './job-for-run.js';
import { scheduleWindow } from './schedule-window.js';

// +kubebuilder:rbac:groups=batch.tutorial.kubebuilder.io,resources=cronjobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=batch.tutorial.kubebuilder.io,resources=cronjobs/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=batch.tutorial.kubebuilder.io,resources=cronjobs/finalizers,verbs=update
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=batch,resources=jobs/status,verbs=get

/** Condition types of a CronJob's status. */
export const ConditionTypes = { Available: 'Available', Progressing: 'Progressing', Degraded: 'Degraded' } as const;

/** CronJobReconciler reconciles a CronJob object. */
export class CronJobReconciler {
  constructor(private readonly mgr: Manager) {}

  /**
   * Moves the cluster toward the state a CronJob asks for. Reconcile is level-based: read the object,
   * compare it with the world, act, and return when to look again (`{ requeueAfter: ms }`). Use
   * `context.clock`, never the wall clock, so the same code runs under the test clock.
   */
  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    let cronJob: CronJob;
    try {
      cronJob = await this.mgr.client.get(CronJobKind, request);
    } catch (err) {
      // Deleted after the request was queued: nothing to do (owned objects are garbage-collected).
      if (isNotFound(err)) return {};
      throw err;
    }
    const log = context.log.child({ cronjob: `${request.namespace}/${request.name}` });
    const nowMs = (): number => context.clock.now();

    if (!cronJob.status?.conditions?.length) {
      cronJob = await this.writeConditions(cronJob, nowMs(), [{ type: ConditionTypes.Progressing, status: 'Unknown', reason: 'Reconciling', message: 'Starting reconciliation' }]);
    }

    let children: Job[];
    try {
      children = await this.mgr.client.list(BuiltinKinds.Job, { namespace: request.namespace, matchingFields: { [JOB_OWNER_KEY]: request.name } });
    } catch (err) {
      await this.reportDegraded(request, nowMs(), 'ReconciliationError', `Failed to list child jobs: ${errorText(err)}`, log);
      throw err;
    }
    const jobs = classifyJobs(children);
    for (const bad of jobs.unparsableAnnotations) log.error({ job: bad.name, value: bad.value }, 'unable to parse schedule time for child job');

    cronJob = await this.writeObservedStatus(cronJob, jobs, nowMs());
    await this.pruneHistory(cronJob, jobs, log);

    if (cronJob.spec.suspend) {
      log.debug('cronjob suspended, skipping');
      return {};
    }

    const now = nowMs();
    let window;
    try {
      const lastSchedule = cronJob.status?.lastScheduleTime;
      window = scheduleWindow({
        schedule: cronJob.spec.schedule,
        earliestMs: Date.parse(lastSchedule ?? cronJob.metadata!.creationTimestamp!),
        nowMs: now,
        ...(cronJob.spec.startingDeadlineSeconds !== undefined ? { startingDeadlineSeconds: cronJob.spec.startingDeadlineSeconds } : {}),
      });
    } catch (err) {
      log.error({ err }, 'unable to figure out CronJob schedule');
      await this.reportDegraded(request, nowMs(), 'InvalidSchedule', `Failed to parse schedule: ${(err as Error).message}`, log);
      return {}; // a broken schedule waits for the user to change the object
    }

    const result: Result = { requeueAfter: Math.max(0, window.nextMs - now) };
    if (window.missedMs === undefined) return result;
    const missedMs = window.missedMs;

    const deadline = cronJob.spec.startingDeadlineSeconds;
    if (deadline !== undefined && missedMs + deadline * 1000 < nowMs()) {
      await this.reportDegraded(request, nowMs(), 'MissedSchedule', `Missed starting deadline for run at ${goTimeString(missedMs)}`, log);
      return result;
    }

    const policy = cronJob.spec.concurrencyPolicy ?? 'Allow';
    if (policy === 'Forbid' && jobs.active.length > 0) {
      log.debug({ active: jobs.active.length }, 'concurrency policy blocks concurrent runs, skipping');
      return result;
    }
    if (policy === 'Replace') {
      for (const job of jobs.active) {
        try {
          await this.mgr.client.delete(job, { propagationPolicy: 'Background' });
        } catch (err) {
          if (!isNotFound(err)) throw err;
        }
      }
    }

    const job = jobForRun(cronJob, missedMs);
    try {
      await this.mgr.client.create(job);
    } catch (err) {
      await this.reportDegraded(request, nowMs(), 'JobCreationFailed', `Failed to create job: ${errorText(err)}`, log);
      throw err;
    }
    log.info({ job: job.metadata!.name }, 'created Job for CronJob run');
    try {
      const fresh = await this.mgr.apiReader().get(CronJobKind, request);
      await this.writeConditions(fresh, nowMs(), [{ type: ConditionTypes.Progressing, status: 'True', reason: 'JobCreated', message: `Created job ${job.metadata!.name}` }]);
    } catch (err) {
      log.error({ err }, 'failed to record the created Job in the status');
    }
    return result;
  }

  /** Step 5: status rebuilt from the child Jobs (never from the previous status, except kubeforge's rule below). */
  private async writeObservedStatus(cronJob: CronJob, jobs: ClassifiedJobs, nowMs: number): Promise<CronJob> {
    return this.updateStatus(cronJob, (status) => {
      // [KF-CJ-1] lastScheduleTime never moves backwards: a deleted newest Job must not make a run repeat.
      const previousMs = status.lastScheduleTime ? Date.parse(status.lastScheduleTime) : undefined;
      const lastMs = maxDefined(previousMs, jobs.mostRecentScheduledMs);
      if (lastMs === undefined) delete status.lastScheduleTime;
      else status.lastScheduleTime = rfc3339Seconds(lastMs);
      if (jobs.active.length) status.active = jobs.active.map(referenceTo);
      else delete status.active;
      for (const condition of observedConditions(cronJob, jobs)) setStatusCondition(status.conditions!, condition, nowMs);
    });
  }

  /** Step 6: best-effort deletion of the oldest finished Jobs beyond each history limit. */
  private async pruneHistory(cronJob: CronJob, jobs: ClassifiedJobs, log: ReconcileContext['log']): Promise<void> {
    const limits: Array<[Job[], number | undefined]> = [
      [jobs.failed, cronJob.spec.failedJobsHistoryLimit],
      [jobs.successful, cronJob.spec.successfulJobsHistoryLimit],
    ];
    for (const [finished, limit] of limits) {
      if (limit === undefined) continue;
      for (const job of jobsBeyondLimit(finished, limit)) {
        try {
          await this.mgr.client.delete(job, { propagationPolicy: 'Background' });
          log.debug({ job: job.metadata?.name }, 'deleted old finished job');
        } catch (err) {
          if (!isNotFound(err)) log.error({ err, job: job.metadata?.name }, 'unable to delete old finished job');
        }
      }
    }
  }

  private async writeConditions(cronJob: CronJob, nowMs: number, conditions: ConditionInput[]): Promise<CronJob> {
    return this.updateStatus(cronJob, (status) => {
      for (const condition of conditions) setStatusCondition(status.conditions!, condition, nowMs);
    });
  }

  /**
   * Writes `change` applied to a copy of the status. A 409 means the cache was behind our own last write:
   * the change is re-applied to the object read from the API server (client-go's RetryOnConflict).
   */
  private async updateStatus(cronJob: CronJob, change: (status: NonNullable<CronJob['status']>) => void): Promise<CronJob> {
    let current = cronJob;
    return retryOnConflict(async () => {
      const status: NonNullable<CronJob['status']> = cloneJson(current.status ?? {});
      status.conditions ??= [];
      change(status);
      try {
        return await this.mgr.client.updateStatus({ ...current, status });
      } catch (err) {
        if (isConflict(err)) current = await this.mgr.apiReader().get(CronJobKind, { namespace: cronJob.metadata!.namespace!, name: cronJob.metadata!.name! });
        throw err;
      }
    });
  }

  /** Re-reads the CronJob and marks it Degraded; write errors are only logged (the caller has its own outcome). */
  private async reportDegraded(request: Request, nowMs: number, reason: string, message: string, log: ReconcileContext['log']): Promise<void> {
    try {
      const fresh = await this.mgr.apiReader().get(CronJobKind, request);
      await this.writeConditions(fresh, nowMs, [{ type: ConditionTypes.Degraded, status: 'True', reason, message }]);
    } catch (err) {
      log.error({ err }, `failed to report ${reason}`);
    }
  }
}

/** The conditions that describe the observed children; the first matching situation wins. */
function observedConditions(cronJob: CronJob, jobs: ClassifiedJobs): ConditionInput[] {
  if (cronJob.spec.suspend) return [{ type: ConditionTypes.Available, status: 'False', reason: 'Suspended', message: 'CronJob is suspended' }];
  if (jobs.failed.length) {
    const message = `${jobs.failed.length} job(s) have failed`;
    return [
      { type: ConditionTypes.Degraded, status: 'True', reason: 'JobsFailed', message },
      { type: ConditionTypes.Available, status: 'False', reason: 'JobsFailed', message },
    ];
  }
  if (jobs.active.length) {
    const n = jobs.active.length;
    return [
      { type: ConditionTypes.Progressing, status: 'True', reason: 'JobsActive', message: `${n} job(s) are currently active` },
      { type: ConditionTypes.Available, status: 'True', reason: 'JobsActive', message: `CronJob is progressing with ${n} active job(s)` },
    ];
  }
  return [
    { type: ConditionTypes.Available, status: 'True', reason: 'AllJobsCompleted', message: 'All jobs have completed successfully' },
    { type: ConditionTypes.Progressing, status: 'False', reason: 'NoJobsActive', message: 'No jobs are currently active' },
  ];
}

/** An error as Go's StatusError prints it: the server's message alone (`jobs.batch "x" already exists`). */
function errorText(err: unknown): string {
  if (err instanceof ApiError && err.status?.message) return err.status.message;
  return err instanceof Error ? err.message : String(err);
}

function maxDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.max(a, b);
}

/** Registers the CronJob controller with the manager (called from internal/controller/index.ts). */
export function setupCronJobController(mgr: Manager): void {
  mgr.indexField(BuiltinKinds.Job, JOB_OWNER_KEY, indexJobByController);
  mgr
    .controllerFor(CronJobKind)
    .owns(BuiltinKinds.Job)
    .named('cronjob')
    .complete(new CronJobReconciler(mgr));
}
