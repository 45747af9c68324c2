/**
 * The JobQueueController (reference-operators spec §4.6): decides when a queued Job starts, by setting its
 * `status.startTime`. Jobs of a JobConfig are taken per JobConfig, oldest first, under the JobConfig's
 * `maxConcurrency` and each Job's start policy; Jobs without a JobConfig start at once (or at `startAfter`).
 */
import {
  enqueueRequestForOwner,
  getControllerOf,
  ignoreNotFound,
  retryOnConflict,
  splitApiVersion,
  type EventRecorder,
  type Manager,
  type ReconcileContext,
  type Request,
  type Result,
} from 'kubeforge/runtime';
import { JobKind, type Job } from '../../api/v1alpha1/job_types.js';
import { JobConfigKind } from '../../api/v1alpha1/jobconfig_types.js';
import { ANNOTATION_ADMISSION_ERROR, LABEL_JOB_CONFIG_UID } from '../furiko/keys.js';
import { rfc3339 } from '../jobs/go-format.js';
import { computeJobStatus, emptyStatus, isJobFinished } from '../jobs/job-status.js';
import { isJobStarted } from '../schedule/job-activity.js';
import { WakeUps } from './wake_ups.js';

const GROUP = 'execution.furiko.io';
/** Upstream never re-checks a not-yet-due Job sooner than this. */
const MIN_RESYNC_MS = 1000;

/** The JobConfig that controls `job`, by name, if any. */
export function jobConfigOwnerOf(job: Job): string | undefined {
  const owner = getControllerOf(job);
  return owner && owner.kind === 'JobConfig' && splitApiVersion(owner.apiVersion).group === GROUP ? owner.name : undefined;
}

// Finished here also counts a refusal whose annotation the JobController has not turned into status yet.
const isQueued = (job: Job): boolean => !isJobStarted(job) && !isJobFinished(job) && !job.metadata?.deletionTimestamp;
const byAge = (a: Job, b: Job): number =>
  Date.parse(a.metadata!.creationTimestamp!) - Date.parse(b.metadata!.creationTimestamp!) || (a.metadata!.name! < b.metadata!.name! ? -1 : 1);

/** Starting a Job: its startTime is now and its status is recomputed around it (the status schema needs all of it). */
async function startJob(mgr: Manager, recorder: EventRecorder, job: Job, now: number): Promise<void> {
  const started: Job = { ...job, status: { ...(job.status ?? emptyStatus()), startTime: rfc3339(now) } };
  await mgr.client.updateStatus({ ...job, status: computeJobStatus(started, job.status?.tasks ?? [], now) });
  void recorder.event(job, 'Normal', 'Started', 'Started job successfully');
}

/** Redoes `pass` at once when it lost a write race (409), on fresh reads. */
const retryingConflicts = (pass: () => Promise<Result>): Promise<Result> => retryOnConflict(pass, { attempts: 3 });

/** Starts the queued Jobs of one JobConfig (the request names the JobConfig). */
export class JobConfigQueueReconciler {
  constructor(
    private readonly mgr: Manager,
    private readonly recorder: EventRecorder,
  ) {}

  reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    return retryingConflicts(() => this.sync(request, context));
  }

  private async sync(request: Request, context: ReconcileContext): Promise<Result> {
    const jobConfig = await this.mgr.client.get(JobConfigKind, request).catch(ignoreNotFound);
    if (!jobConfig) return {};
    // Jobs from the API server: a start this controller wrote a moment ago must count against maxConcurrency.
    const jobs = (await this.mgr.apiReader().list(JobKind, { namespace: request.namespace, labelSelector: { [LABEL_JOB_CONFIG_UID]: jobConfig.metadata!.uid! } })).sort(byAge);
    const maxConcurrency = jobConfig.spec.concurrency?.maxConcurrency ?? 1;
    let activeCount = jobs.filter((job) => isJobStarted(job) && !isJobFinished(job)).length;
    const now = context.clock.now();
    const wakeUps = new WakeUps(now);
    for (const job of jobs.filter(isQueued)) {
      const startAfter = job.spec.startPolicy?.startAfter;
      if (startAfter && Date.parse(startAfter) > now) {
        wakeUps.at(Math.max(Date.parse(startAfter), now + MIN_RESYNC_MS));
        continue;
      }
      const policy = job.spec.startPolicy?.concurrencyPolicy;
      const full = activeCount + 1 > maxConcurrency;
      if (policy === 'Forbid' && full) {
        await this.refuse(job, `Cannot start new Job, ${jobConfig.metadata!.name} has ${activeCount} active Jobs but concurrency policy is Forbid`);
        continue;
      }
      if (policy === 'Enqueue' && full) continue;
      await startJob(this.mgr, this.recorder, job, now);
      context.log.info({ job: job.metadata?.name, jobConfig: request.name }, 'started Job');
      activeCount++;
    }
    return wakeUps.result();
  }

  /** A Forbid Job that finds its JobConfig full at start time ends with an admission error. */
  private async refuse(job: Job, message: string): Promise<void> {
    await this.mgr.client.patch(job, { metadata: { annotations: { [ANNOTATION_ADMISSION_ERROR]: message } } });
    void this.recorder.event(job, 'Warning', 'AdmissionRefused', message);
  }
}

/** Starts a Job without a JobConfig as soon as its startAfter (if any) is reached (the request names the Job). */
export class IndependentJobQueueReconciler {
  constructor(
    private readonly mgr: Manager,
    private readonly recorder: EventRecorder,
  ) {}

  reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    return retryingConflicts(() => this.sync(request, context));
  }

  private async sync(request: Request, context: ReconcileContext): Promise<Result> {
    const job = await this.mgr.apiReader().get(JobKind, request).catch(ignoreNotFound);
    if (!job) return {};
    if (jobConfigOwnerOf(job) !== undefined || !isQueued(job)) return {};
    const now = context.clock.now();
    const startAfter = job.spec.startPolicy?.startAfter;
    if (startAfter && Date.parse(startAfter) > now) return { requeueAfter: Math.max(Date.parse(startAfter) - now, MIN_RESYNC_MS) };
    await startJob(this.mgr, this.recorder, job, now);
    context.log.info({ job: request.name }, 'started independent Job');
    return {};
  }
}

/** Registers both queues: per JobConfig (woken by any change of its Jobs) and for independent Jobs. */
export function setupJobQueueControllers(mgr: Manager, recorder: EventRecorder): void {
  mgr
    .controllerFor(JobConfigKind)
    .watches(JobKind, enqueueRequestForOwner<Job>({ group: GROUP, kind: 'JobConfig' }))
    .named('jobqueue-jobconfig')
    .complete(new JobConfigQueueReconciler(mgr, recorder));
  mgr
    .controllerFor(JobKind)
    .named('jobqueue-independent')
    .complete(new IndependentJobQueueReconciler(mgr, recorder));
}
