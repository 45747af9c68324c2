/**
 * The batch/v1 CronJob controller (v2, §7.8): finds the most recent unmet schedule time on the
 * cluster clock, creates Job `<cronjob>-<scheduled minutes since epoch>` with the scheduled-timestamp
 * annotation, applies concurrencyPolicy, suspend, startingDeadlineSeconds and the history limits,
 * keeps status.active/lastScheduleTime/lastSuccessfulTime, and records the upstream Events.
 */
import type { CronJob, CronJobSpec, CronJobStatus, Job, JobTemplateSpec } from 'kubernetes-types/batch/v1.js';
import type { ObjectReference } from 'kubernetes-types/core/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { isApiError } from './controller-client.js';
import { rfc3339 } from '../registry/system-metadata.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, Stored, StoredObjectMeta, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController, ReconcileResult } from './controller-scheduler.js';
import { ScheduleError, type Schedule, parseSchedule, rfc1123z, rfc3339InZone, splitZonePrefix } from './cron-schedule.js';
import type { EventRecorder } from './event-recorder.js';
import { finishedCondition } from './job-conditions.js';
import type { OwnerIndex } from './owner-index.js';
import { copyObject } from '../store/copy-object.js';

export const scheduledTimestampAnnotation = 'batch.kubernetes.io/cronjob-scheduled-timestamp';
/** The upstream controller wakes 100 ms after each schedule time. */
const wakeSlackMs = 100;
const tooManyMissed = 100;

/**
 * `SawCompletedJob` message. Releases through 1.30 (and the EventJob reference) say `status:`;
 * current upstream master says `condition:`. The 1.32 form is unverified; kubeforge writes `status:`.
 */
export const sawCompletedJobMessage = (job: string, condition: string): string => `Saw completed job: ${job}, status: ${condition}`;

/** Job name for a schedule time: `<cronjob>-<unix minutes>`. */
export const jobNameFor = (cronJobName: string, scheduledMs: number): string => `${cronJobName}-${Math.floor(scheduledMs / 60_000)}`;

/** The status a reconcile works on: the stored one, with its own copy of the active list. */
type WorkingStatus = CronJobStatus & { active: ObjectReference[] };

function controlledBy(job: KubeObject, uid: string): boolean {
  return (job.metadata.ownerReferences ?? []).some((r) => r.controller === true && r.uid === uid);
}

function jobReference(job: KubeObject): ObjectReference {
  return { kind: 'Job', namespace: job.metadata.namespace, name: job.metadata.name, uid: job.metadata.uid, apiVersion: 'batch/v1', resourceVersion: job.metadata.resourceVersion };
}

export class CronJobController implements BuiltinController {
  readonly name = 'cronjob-controller';

  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock, private readonly events: EventRecorder, private readonly owners: OwnerIndex) {}

  /** The Jobs this CronJob controls (through the owner index, not a namespace scan). */
  private jobsOf(cronJob: Stored<CronJob>): KubeObject[] {
    return this.owners
      .dependentsIn(cronJob.metadata.uid!, 'jobs.batch')
      .map((l) => this.client.get('batch/jobs', l.namespace, l.name))
      .filter((j): j is KubeObject => j !== undefined && controlledBy(j, cronJob.metadata.uid!));
  }

  initialKeys(): string[] {
    return this.client.list('batch/cronjobs').map((c) => `${c.metadata.namespace}/${c.metadata.name}`);
  }

  keysFor(event: StoreEvent): string[] {
    const o = event.object;
    if (event.bucket === 'cronjobs.batch') return event.type === 'DELETED' ? [] : [`${o.metadata.namespace}/${o.metadata.name}`];
    if (event.bucket !== 'jobs.batch') return [];
    const owner = (o.metadata.ownerReferences ?? []).find((r) => r.controller === true && r.kind === 'CronJob' && r.apiVersion === 'batch/v1');
    return owner ? [`${o.metadata.namespace}/${owner.name}`] : [];
  }

  reconcile(key: string): ReconcileResult | void {
    const [namespace, name] = key.split('/') as [string, string];
    const cronJob = this.client.get('batch/cronjobs', namespace, name);
    if (!cronJob) return;
    const jobs = this.jobsOf(cronJob);
    const previous: CronJobStatus = copyObject(cronJob.status ?? {});
    const status: WorkingStatus = { ...previous, active: [...(previous.active ?? [])] };
    this.syncChildren(cronJob, jobs, status);
    const result = this.syncSchedule(cronJob, status);
    this.cleanupHistory(cronJob, status);
    this.writeStatus(cronJob, status);
    return result;
  }

  /** Step 1: completed, unexpected and missing children. */
  private syncChildren(cronJob: Stored<CronJob>, jobs: KubeObject[], status: WorkingStatus): void {
    for (const job of jobs) {
      const inActive = status.active.some((a) => a.uid === job.metadata.uid);
      const finished = finishedCondition(job);
      if (!finished && !inActive) {
        this.events.record(cronJob, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${job.metadata.name}`);
      } else if (finished && inActive) {
        status.active = status.active.filter((a) => a.uid !== job.metadata.uid);
        this.events.record(cronJob, 'Normal', 'SawCompletedJob', sawCompletedJobMessage(job.metadata.name, finished));
      }
      const completion = asStored<Job>(job).status?.completionTime;
      if (finished === 'Complete' && completion && (!status.lastSuccessfulTime || Date.parse(completion) > Date.parse(status.lastSuccessfulTime))) {
        status.lastSuccessfulTime = completion;
      }
    }
    for (const ref of [...status.active]) {
      const job = this.client.get('batch/jobs', ref.namespace ?? cronJob.metadata.namespace, ref.name!);
      if (!job || job.metadata.uid !== ref.uid) {
        this.events.record(cronJob, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
        status.active = status.active.filter((a) => a !== ref);
      }
    }
  }

  /** Steps 2–8: decide whether a Job is due now and start it; returns when to look again. */
  private syncSchedule(cronJob: Stored<CronJob>, status: WorkingStatus): ReconcileResult | void {
    const spec: Partial<CronJobSpec> = cronJob.spec ?? {};
    if (cronJob.metadata.deletionTimestamp || spec.suspend) return;
    const now = this.clock.now();
    let schedule: Schedule;
    try {
      if (splitZonePrefix(spec.schedule ?? '').zone) {
        this.events.record(cronJob, 'Warning', 'UnsupportedSchedule', `CRON_TZ or TZ used in schedule "${spec.schedule}" is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details`);
      }
      schedule = parseSchedule(spec.schedule ?? '', spec.timeZone ?? undefined);
    } catch (err) {
      if (err instanceof ScheduleError) this.events.record(cronJob, 'Warning', err.kind, err.message);
      else throw err;
      return;
    }
    const wakeAt = (): ReconcileResult => ({ requeueAfterMs: schedule.next(now) + wakeSlackMs - now });
    const scheduled = this.mostRecentUnmet(cronJob, schedule, now);
    if (scheduled === undefined) return wakeAt();
    if (typeof spec.startingDeadlineSeconds === 'number' && scheduled + spec.startingDeadlineSeconds * 1000 < now) {
      this.events.record(cronJob, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`);
      return wakeAt();
    }
    const jobName = jobNameFor(cronJob.metadata.name, scheduled);
    if (status.active.some((a) => a.name === jobName) || (status.lastScheduleTime && Date.parse(status.lastScheduleTime) === scheduled)) return wakeAt();
    if (spec.concurrencyPolicy === 'Forbid' && status.active.length > 0) {
      this.events.record(cronJob, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
      return wakeAt();
    }
    if (spec.concurrencyPolicy === 'Replace') {
      for (const ref of [...status.active]) {
        this.deleteJob(cronJob, ref.name!);
        status.active = status.active.filter((a) => a !== ref);
      }
    }
    const job = this.createJob(cronJob, jobName, scheduled);
    if (!job) return wakeAt();
    if (!status.active.some((a) => a.uid === job.metadata.uid)) status.active.push(jobReference(job));
    status.lastScheduleTime = rfc3339(scheduled);
    return wakeAt();
  }

  /** The latest schedule time in (max(lastScheduleTime, creation, now − deadline), now]. */
  private mostRecentUnmet(cronJob: Stored<CronJob>, schedule: Schedule, now: number): number | undefined {
    const spec: Partial<CronJobSpec> = cronJob.spec ?? {};
    let earliest = Date.parse(cronJob.status?.lastScheduleTime ?? cronJob.metadata.creationTimestamp!);
    if (typeof spec.startingDeadlineSeconds === 'number') earliest = Math.max(earliest, now - spec.startingDeadlineSeconds * 1000);
    let latest: number | undefined;
    let t = schedule.next(earliest);
    for (let missed = 0; t <= now; missed++) {
      if (missed >= tooManyMissed) {
        this.events.record(cronJob, 'Warning', 'TooManyMissedTimes', 'too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew');
        const previous = schedule.previous(now);
        return previous !== undefined && previous > earliest ? previous : latest;
      }
      latest = t;
      t = schedule.next(t);
    }
    return latest;
  }

  private createJob(cronJob: Stored<CronJob>, name: string, scheduled: number): KubeObject | undefined {
    const template: JobTemplateSpec = cronJob.spec?.jobTemplate ?? {};
    const metadata: StoredObjectMeta = { name, namespace: cronJob.metadata.namespace };
    if (template.metadata?.labels) metadata.labels = { ...template.metadata.labels };
    metadata.annotations = { ...(template.metadata?.annotations ?? {}), [scheduledTimestampAnnotation]: rfc3339InZone(scheduled, cronJob.spec?.timeZone) };
    metadata.ownerReferences = [{ apiVersion: 'batch/v1', kind: 'CronJob', name: cronJob.metadata.name, uid: cronJob.metadata.uid!, controller: true, blockOwnerDeletion: true }];
    try {
      const job = this.client.create('batch/jobs', cronJob.metadata.namespace, { apiVersion: 'batch/v1', kind: 'Job', metadata, spec: copyObject(template.spec ?? {}) });
      this.events.record(cronJob, 'Normal', 'SuccessfulCreate', `Created job ${name}`);
      return job;
    } catch (err) {
      if (isApiError(err, 409)) {
        const existing = this.client.get('batch/jobs', cronJob.metadata.namespace, name);
        return existing && controlledBy(existing, cronJob.metadata.uid!) ? existing : undefined;
      }
      this.events.record(cronJob, 'Warning', 'FailedCreate', `Error creating job: ${(err as Error).message}`);
      return undefined;
    }
  }

  private deleteJob(cronJob: Stored<CronJob>, name: string): void {
    try {
      this.client.delete('batch/jobs', cronJob.metadata.namespace, name, { propagationPolicy: 'Background' });
      this.events.record(cronJob, 'Normal', 'SuccessfulDelete', `Deleted job ${name}`);
    } catch (err) {
      this.events.record(cronJob, 'Warning', 'FailedDelete', `Deleted job: ${(err as Error).message}`);
    }
  }

  /** Step 9: keep only the newest finished Jobs within the history limits (oldest startTime goes first). */
  private cleanupHistory(cronJob: Stored<CronJob>, status: WorkingStatus): void {
    const jobs = this.jobsOf(cronJob).filter((j) => !j.metadata.deletionTimestamp);
    const byStart = (a: Stored<Job>, b: Stored<Job>): number => Date.parse(a.status?.startTime ?? a.metadata.creationTimestamp!) - Date.parse(b.status?.startTime ?? b.metadata.creationTimestamp!) || (a.metadata.name < b.metadata.name ? -1 : 1);
    for (const [condition, limit] of [['Complete', cronJob.spec?.successfulJobsHistoryLimit], ['Failed', cronJob.spec?.failedJobsHistoryLimit]] as const) {
      if (typeof limit !== 'number') continue;
      const finished = jobs.filter((j) => finishedCondition(j) === condition).sort(byStart);
      for (const job of finished.slice(0, Math.max(0, finished.length - limit))) {
        this.deleteJob(cronJob, job.metadata.name);
        status.active = status.active.filter((a) => a.uid !== job.metadata.uid);
      }
    }
  }

  private writeStatus(cronJob: Stored<CronJob>, status: WorkingStatus): void {
    const ordered: Record<string, unknown> = {};
    if (status.active?.length) ordered.active = status.active;
    if (status.lastScheduleTime) ordered.lastScheduleTime = status.lastScheduleTime;
    if (status.lastSuccessfulTime) ordered.lastSuccessfulTime = status.lastSuccessfulTime;
    const current = this.client.get('batch/cronjobs', cronJob.metadata.namespace, cronJob.metadata.name);
    if (current) this.client.updateStatus('batch/cronjobs', { ...current, status: ordered });
  }
}
