/**
 * The CronController (§4.4): keeps every JobConfig with an enabled cron schedule in a schedule heap, ticks
 * on the manager's clock at whole seconds, and creates one Job per due schedule instant unless the
 * concurrency policy or the queue length forbids it. Events on the JobConfig come from `CronController`.
 * The heap and ticks live in cron_schedule_source.ts and ../schedule/.
 */
import {
  ApiError,
  Controller,
  enqueueRequestForObject,
  isAlreadyExists,
  ignoreNotFound,
  isInvalid,
  type EventRecorder,
  type Manager,
  type ReconcileContext,
  type Request,
  type Result,
} from 'kubeforge/runtime';
import type { Logger } from 'pino';
import { JobConfigKind, type JobConfig } from '../../api/v1alpha1/jobconfig_types.js';
import { JobKind, type Job } from '../../api/v1alpha1/job_types.js';
import { defaultFurikoConfig, type FurikoConfig } from '../furiko/config.js';
import { LABEL_JOB_CONFIG_UID } from '../furiko/keys.js';
import { defaultOptionSubstitutions, OptionValuesError } from '../options/evaluate.js';
import { CronBook } from '../schedule/cron-book.js';
import { isJobActive } from '../schedule/job-activity.js';
import { scheduledJobFor } from '../schedule/scheduled-job.js';
import { cronScheduleSource } from './cron_schedule_source.js';

// +kubebuilder:rbac:groups=execution.furiko.io,resources=jobs,verbs=get;list;watch;create
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch

/** The event source component of everything the cron side records. */
export const CRON_CONTROLLER_COMPONENT = 'CronController';

/** Creates the Jobs of a JobConfig's due schedule times, oldest first (the cron work items of §4.4 step 3). */
export class CronReconciler {
  constructor(
    private readonly mgr: Manager,
    private readonly book: CronBook,
    private readonly recorder: EventRecorder,
    private readonly config: Readonly<FurikoConfig> = defaultFurikoConfig,
  ) {}

  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    const key = `${request.namespace}/${request.name}`;
    const due = this.book.takeDue(key);
    for (let i = 0; i < due.length; i++) {
      try {
        await this.createScheduledJob(request, due[i]!, context.log);
      } catch (err) {
        this.book.returnDue(key, due.slice(i)); // retried with backoff, this schedule time first
        throw err;
      }
    }
    return {};
  }

  private async createScheduledJob(request: Request, scheduleTimeMs: number, log: Logger): Promise<void> {
    const jobConfig = await this.mgr.client.get(JobConfigKind, request).catch(ignoreNotFound);
    if (!jobConfig) return;
    const jobs = await this.mgr.client.list(JobKind, { namespace: request.namespace, labelSelector: { [LABEL_JOB_CONFIG_UID]: jobConfig.metadata!.uid! } });
    const activeCount = jobs.filter(isJobActive).length;
    const { policy, maxConcurrency } = jobConfig.spec.concurrency;
    if (policy === 'Forbid' && activeCount + 1 > (maxConcurrency ?? 1)) {
      await this.skipped(jobConfig, 'Skipped creating job due to concurrency policy Forbid');
      return;
    }
    if ((jobConfig.status?.queued ?? 0) >= this.config.maxEnqueuedJobs) {
      await this.skipped(jobConfig, `Skipped creating job, cannot exceed maximum queue length of ${this.config.maxEnqueuedJobs}`);
      return;
    }

    let substitutions: Record<string, string>;
    try {
      substitutions = defaultOptionSubstitutions(jobConfig.spec.option);
    } catch (err) {
      if (!(err instanceof OptionValuesError)) throw err;
      await this.recorder.event(jobConfig, 'Warning', 'CreateJobFailed', `Failed to create new Job: ${err.errors.map(String).join(', ')}`);
      return;
    }
    const job = scheduledJobFor(jobConfig, scheduleTimeMs, substitutions);
    if (await this.exists(job)) return;
    try {
      await this.mgr.client.create(job);
    } catch (err) {
      if (isAlreadyExists(err)) return;
      if (!isInvalid(err)) throw err;
      log.error({ err: String(err), job: job.metadata!.name }, 'cron: failed to create job');
      await this.recorder.event(jobConfig, 'Warning', 'CreateJobFailed', `Failed to create new Job: ${invalidCauses(err)}`);
      return;
    }
    log.info({ job: job.metadata!.name }, 'cron: created scheduled job');
    await this.recorder.event(jobConfig, 'Normal', 'CreatedJob', `Successfully scheduled a new Job: ${job.metadata!.name}`);
  }

  private async exists(job: Job): Promise<boolean> {
    return (await this.mgr.client.get(JobKind, { namespace: job.metadata!.namespace!, name: job.metadata!.name! }).catch(ignoreNotFound)) !== undefined;
  }

  private skipped(jobConfig: JobConfig, message: string): Promise<void> {
    return this.recorder.event(jobConfig, 'Warning', 'SkippedJobSchedule', message);
  }
}

/** `field: message` of every cause of an Invalid error, joined by ", " (the server's message without causes). */
export function invalidCauses(err: unknown): string {
  if (err instanceof ApiError) {
    const causes = err.status?.details?.causes ?? [];
    if (causes.length) return causes.map((cause) => `${cause.field ?? ''}: ${cause.message ?? ''}`).join(', ');
    if (err.status?.message) return err.status.message;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Registers the cron controller; returns its book (tests read next schedule times from it). */
export function setupCronController(mgr: Manager, config: Readonly<FurikoConfig> = defaultFurikoConfig): CronBook {
  const book = new CronBook(config, (info) => {
    if (info.reason === 'invalid') mgr.logger.error({ jobConfig: info.key, err: String(info.error) }, 'cron: cannot parse schedule, not scheduling');
    else mgr.logger.debug({ jobConfig: info.key, reason: info.reason }, 'cron: not scheduled');
  });
  const recorder = mgr.eventRecorderFor(CRON_CONTROLLER_COMPONENT);
  const controller = new Controller('cron', new CronReconciler(mgr, book, recorder, config));
  controller.watch(cronScheduleSource(book), enqueueRequestForObject());
  mgr.addController(controller);
  return book;
}
