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
 * The JobConfig controller (Furiko's JobConfigController): keeps a JobConfig's status — state, queued and
 * active Jobs, lastScheduled, lastExecuted — in step with the Jobs it owns (§4.1.2), and records `Finished`
 * / `Deleted` when a previously active Job ends or disappears (§4.7.3). Its setup also registers the
 * CronController, which schedules the JobConfigs (cron_controller.ts).
 */
import { isDeepStrictEqual } from 'node:util';
import { cloneJson, ignoreNotFound, isConflict, retryOnConflict, type EventRecorder, type Manager, type ReconcileContext, type Request, type Result } from 'kubeforge/runtime';
import { JobConfigKind, type JobConfig } from '../../api/v1alpha1/jobconfig_types.js';
import { JobKind, type Job } from '../../api/v1alpha1/job_types.js';
import { sharedFurikoConfig, type FurikoConfig } from '../furiko/config.js';
import { LABEL_JOB_CONFIG_UID } from '../furiko/keys.js';
import { formerlyActiveJobs, jobConfigStatusFrom } from '../schedule/jobconfig-status.js';
import { setupCronController } from './cron_controller.js';

// +kubebuilder:rbac:groups=execution.furiko.io,resources=jobconfigs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=execution.furiko.io,resources=jobconfigs/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=execution.furiko.io,resources=jobconfigs/finalizers,verbs=update
// +kubebuilder:rbac:groups=execution.furiko.io,resources=jobs,verbs=get;list;watch
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch

/** The event source component of the JobConfig status controller. */
export const JOBCONFIG_CONTROLLER_COMPONENT = 'JobConfigController';

/** JobConfigReconciler reconciles a JobConfig object. */
export class JobConfigReconciler {
  constructor(
    private readonly mgr: Manager,
    private readonly recorder: EventRecorder = mgr.eventRecorderFor(JOBCONFIG_CONTROLLER_COMPONENT),
  ) {}

  /** Rebuilds the JobConfig's status from its Jobs (listed by the `job-config-uid` label) and reports the changes. */
  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    // Deleted after the request was queued: nothing to do (owned Jobs are garbage-collected).
    const jobConfig = await this.mgr.client.get(JobConfigKind, request).catch(ignoreNotFound);
    if (!jobConfig) return {};
    const jobs = await this.mgr.client.list(JobKind, { namespace: request.namespace, labelSelector: { [LABEL_JOB_CONFIG_UID]: jobConfig.metadata!.uid! } });
    const baseline = await this.writeStatus(jobConfig, jobs);
    const { finished, deleted } = formerlyActiveJobs(baseline.status?.activeJobs, jobs);
    context.log.debug({ jobconfig: request, jobs: jobs.length }, 'reconciled JobConfig status');

    for (const job of finished) await this.recorder.event(jobConfig, 'Normal', 'Finished', `Job ${job.metadata!.name} is complete`);
    for (const name of deleted) await this.recorder.event(jobConfig, 'Normal', 'Deleted', `Job ${name} is deleted`);
    return {};
  }

  /**
   * Writes the computed status when it differs; a conflict (a stale cache) re-reads the JobConfig and
   * recomputes. Returns the JobConfig whose status the written one replaced: events are judged against it,
   * so a reconcile on a stale cache never reports the same finished Job twice.
   */
  private async writeStatus(jobConfig: JobConfig, jobs: Job[]): Promise<JobConfig> {
    let current = jobConfig;
    return retryOnConflict(async () => {
      const status = jobConfigStatusFrom(current, jobs);
      if (isDeepStrictEqual(cloneJson(current.status ?? {}), status)) return current;
      try {
        await this.mgr.client.updateStatus({ ...current, status });
        return current;
      } catch (err) {
        if (isConflict(err)) current = await this.mgr.apiReader().get(JobConfigKind, { namespace: jobConfig.metadata!.namespace!, name: jobConfig.metadata!.name! });
        throw err;
      }
    });
  }
}

/**
 * Registers the JobConfig status controller and the CronController with the manager (called from
 * internal/controller/index.ts).
 */
export function setupJobConfigController(mgr: Manager, config: Readonly<FurikoConfig> = sharedFurikoConfig): void {
  mgr
    .controllerFor(JobConfigKind)
    .owns(JobKind)
    .named('jobconfig')
    .complete(new JobConfigReconciler(mgr));
  setupCronController(mgr, config);
}
