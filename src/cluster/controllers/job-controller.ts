/**
 * The Job controller (batch/v1, 1.32 behaviour, §7.7): creates the Job's pods (`<job>-<5 chars>`,
 * tracking finalizer, controller owner reference), counts them through uncountedTerminatedPods,
 * applies backoffLimit, activeDeadlineSeconds, parallelism/completions and suspend, and finishes
 * with SuccessCriteriaMet→Complete or FailureTarget→Failed with the real reasons and events.
 */
import type { JobSpec } from 'kubernetes-types/batch/v1.js';
import type { ContainerStatus, Pod, PodCondition } from 'kubernetes-types/core/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { rfc3339 } from '../registry/system-metadata.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, NewKubeObject, Stored, StoreEvent, WritableObjectMeta } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController, ReconcileResult } from './controller-scheduler.js';
import type { EventRecorder } from './event-recorder.js';
import { ApiError } from '../errors/status-errors.js';
import {
  type JobCondition, findCondition, finishedCondition, jobCondition, jobReasons, jobStatus, jobTrackingFinalizer, type StoredJob, type WrittenJob,
} from './job-conditions.js';
import type { OwnerIndex } from './owner-index.js';
import { formatIndexes, indexOf, isIndexed, missingIndexes, parseIndexes, stampIndex } from './indexed-completion.js';
import { copyObject } from '../store/copy-object.js';

const podFailureBackoffBaseMs = 10_000;
/** The controller source caps the pod failure backoff at 10 minutes (the docs say 6). */
const podFailureBackoffCapMs = 600_000;

const isTerminal = (pod: Stored<Pod>): boolean => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
const isReady = (pod: Stored<Pod>): boolean => (pod.status?.conditions ?? []).some((c: PodCondition) => c.type === 'Ready' && c.status === 'True');
const tracked = (pod: Stored<Pod>): boolean => (pod.metadata.finalizers ?? []).includes(jobTrackingFinalizer);
/**
 * A failed pod, or a deleted one no kubelet will ever finish (never bound to a node). A deleted bound
 * pod stays `terminating` (and keeps the tracking finalizer) until the kubelet reports it terminal.
 */
const countsAsFailed = (pod: Stored<Pod>): boolean =>
  pod.status?.phase === 'Failed' || (Boolean(pod.metadata.deletionTimestamp) && pod.status?.phase !== 'Succeeded' && !pod.spec?.nodeName);

function controllerOf(object: KubeObject | undefined, kind: string): { name: string; uid: string } | undefined {
  return (object?.metadata.ownerReferences ?? []).find((r) => r.controller === true && r.kind === kind && r.apiVersion === 'batch/v1');
}

/** Finished pods counted so far (succeeded/failed counters, completed indexes of an Indexed Job). */
interface Tally {
  succeeded: number;
  failed: number;
  completed: Set<number>;
}

export class JobController implements BuiltinController {
  readonly name = 'job-controller';
  /** Consecutive pod failures per Job uid and when the last one was seen (pod failure backoff). */
  private readonly failures = new Map<string, { consecutive: number; lastAt: number }>();

  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock, private readonly events: EventRecorder, private readonly owners: OwnerIndex) {}

  /** The pods this Job controls (through the owner index, not a namespace scan). */
  private podsOf(job: StoredJob): Array<Stored<Pod>> {
    return this.owners
      .dependentsIn(job.metadata.uid!, 'pods')
      .map((l) => this.client.get('pods', l.namespace, l.name))
      .filter((p): p is KubeObject => p !== undefined && controllerOf(p, 'Job')?.uid === job.metadata.uid);
  }

  initialKeys(): string[] {
    return this.client.list('batch/jobs').map((j) => `${j.metadata.namespace}/${j.metadata.name}`);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.bucket === 'jobs.batch') return event.type === 'DELETED' ? [] : [`${event.object.metadata.namespace}/${event.object.metadata.name}`];
    if (event.bucket !== 'pods') return [];
    const owner = controllerOf(event.object, 'Job') ?? controllerOf(event.oldObject, 'Job');
    return owner ? [`${event.object.metadata.namespace}/${owner.name}`] : [];
  }

  reconcile(key: string): ReconcileResult | void {
    const [namespace, name] = key.split('/') as [string, string];
    const stored = this.client.get('batch/jobs', namespace, name);
    const job = stored && asStored<WrittenJob>(stored);
    if (!job) return this.releaseOrphans(namespace, name);
    const pods = this.podsOf(job);
    if (job.metadata.deletionTimestamp || finishedCondition(job)) {
      // nothing more to count: let the pods go
      for (const pod of pods) if (tracked(pod) && (isTerminal(pod) || pod.metadata.deletionTimestamp || job.metadata.deletionTimestamp)) this.releasePod(pod);
      return;
    }
    return this.sync(job, pods);
  }

  private sync(job: StoredJob, podsIn: Array<Stored<Pod>>): ReconcileResult | void {
    const now = this.clock.now();
    const spec: Partial<JobSpec> = job.spec ?? {};
    const previous: NonNullable<StoredJob['status']> = job.status ?? {};
    let startTime: string | undefined = previous.startTime;
    if (!spec.suspend && !startTime) startTime = rfc3339(now);
    const conditions: JobCondition[] = copyObject(previous.conditions ?? []);
    const tally: Tally = { succeeded: previous.succeeded ?? 0, failed: previous.failed ?? 0, completed: parseIndexes(previous.completedIndexes) };
    let pods = this.countFinished(job, podsIn, tally, { startTime, conditions, now });
    const { succeeded, failed, completed } = tally;

    let requeueAt: number | undefined;
    const requeue = (at: number): void => void (requeueAt = requeueAt === undefined ? at : Math.min(requeueAt, at));
    const active = (): Array<Stored<Pod>> => pods.filter((p) => !isTerminal(p) && !p.metadata.deletionTimestamp);
    let completionTime: string | undefined;

    const failureTarget = findCondition({ status: { conditions } }, 'FailureTarget');
    const successMet = findCondition({ status: { conditions } }, 'SuccessCriteriaMet');
    const setCondition = (c: JobCondition): void => {
      const i = conditions.findIndex((x) => x.type === c.type);
      if (i === -1) conditions.push(c);
      else if (conditions[i]!.status !== c.status) conditions[i] = c;
    };

    let failure = failureTarget?.status === 'True' ? { reason: failureTarget.reason, message: failureTarget.message } : undefined;
    const completions: number | undefined = spec.completions ?? undefined;
    const done = isIndexed(job) ? completed.size : succeeded;
    const reachedSuccess = successMet?.status === 'True' || (completions !== undefined ? done >= completions : succeeded >= 1 && active().length === 0);
    if (!failure && !reachedSuccess) failure = this.failureReason(job, pods, failed, startTime, now, requeue);

    if (failure) {
      setCondition(jobCondition('FailureTarget', 'True', failure, now));
      pods = this.deletePods(job, active(), pods);
      if (this.quiet(pods)) {
        setCondition(jobCondition('Failed', 'True', failure, now));
        this.events.record(job, 'Warning', failure.reason, failure.message);
      }
    } else if (reachedSuccess) {
      setCondition(jobCondition('SuccessCriteriaMet', 'True', jobReasons.completionsReached, now));
      pods = this.deletePods(job, active(), pods);
      if (this.quiet(pods)) {
        setCondition(jobCondition('Complete', 'True', jobReasons.completionsReached, now));
        completionTime = rfc3339(now);
        this.events.record(job, 'Normal', 'Completed', 'Job completed');
      }
    } else if (spec.suspend) {
      pods = this.deletePods(job, active(), pods);
      if (findCondition({ status: { conditions } }, 'Suspended')?.status !== 'True') {
        setCondition(jobCondition('Suspended', 'True', jobReasons.suspended, now));
        this.events.record(job, 'Normal', 'Suspended', 'Job suspended');
      }
    } else {
      if (findCondition({ status: { conditions } }, 'Suspended')?.status === 'True') {
        setCondition(jobCondition('Suspended', 'False', jobReasons.resumed, now));
        this.events.record(job, 'Normal', 'Resumed', 'Job resumed');
        startTime = rfc3339(now);
      }
      pods = this.managePods(job, pods, active(), done, completed, now, requeue);
    }
    const completedIndexes = isIndexed(job) ? formatIndexes(completed) : undefined;
    const status = jobStatus(this.counts(pods, succeeded, failed), conditions, { startTime, completionTime: completionTime ?? previous.completionTime, completedIndexes });
    this.writeStatus(job, status);
    if (requeueAt !== undefined) return { requeueAfterMs: Math.max(0, requeueAt - now) };
  }

  /**
   * Counts finished pods exactly once: their uids go to uncountedTerminatedPods (written), their
   * tracking finalizer is removed, then they move to the counters in `tally`. Returns the fresh pods.
   */
  private countFinished(job: StoredJob, pods: Array<Stored<Pod>>, tally: Tally, at: { startTime?: string; conditions: JobCondition[]; now: number }): Array<Stored<Pod>> {
    const suspended = job.spec?.suspend === true;
    const newlySucceeded = pods.filter((p) => tracked(p) && p.status?.phase === 'Succeeded');
    const removedBySuspend = (p: Stored<Pod>): boolean => suspended && Boolean(p.metadata.deletionTimestamp) && p.status?.phase !== 'Succeeded';
    const newlyFailed = pods.filter((p) => tracked(p) && countsAsFailed(p) && !removedBySuspend(p));
    // pods removed because the Job is suspended are not failures: just let them go
    for (const pod of pods) if (tracked(pod) && removedBySuspend(pod)) this.releasePod(pod);
    if (!newlySucceeded.length && !newlyFailed.length) return pods;
    const uncounted = { succeeded: newlySucceeded.map((p) => p.metadata.uid!), failed: newlyFailed.map((p) => p.metadata.uid!) };
    const previous: NonNullable<StoredJob['status']> = job.status ?? {};
    this.writeStatus(job, jobStatus(this.counts(pods, tally.succeeded, tally.failed), at.conditions, { startTime: at.startTime, completionTime: previous.completionTime, uncounted, completedIndexes: previous.completedIndexes }));
    for (const pod of [...newlySucceeded, ...newlyFailed]) this.releasePod(pod);
    tally.succeeded += newlySucceeded.length;
    tally.failed += newlyFailed.length;
    if (isIndexed(job)) for (const p of newlySucceeded) if (indexOf(p) !== undefined) tally.completed.add(indexOf(p)!);
    this.noteFailures(job.metadata.uid!, newlySucceeded.length, newlyFailed.length, at.now);
    return this.podsOf(job);
  }

  /** BackoffLimitExceeded, then DeadlineExceeded; schedules the deadline check. */
  private failureReason(job: StoredJob, pods: Array<Stored<Pod>>, failed: number, startTime: string | undefined, now: number, requeue: (at: number) => void): { reason: string; message: string } | undefined {
    const spec: Partial<JobSpec> = job.spec ?? {};
    const backoffLimit: number = spec.backoffLimit ?? 6;
    if (spec.template?.spec?.restartPolicy === 'OnFailure') {
      const restarts = pods.filter((p) => !isTerminal(p)).reduce((n, p) => n + (p.status?.containerStatuses ?? []).reduce((m: number, c: ContainerStatus) => m + (c.restartCount ?? 0), 0), 0);
      if (backoffLimit === 0 ? restarts > 0 : restarts >= backoffLimit) return jobReasons.backoffLimitExceeded;
    }
    if (failed > backoffLimit) return jobReasons.backoffLimitExceeded;
    if (typeof spec.activeDeadlineSeconds === 'number' && startTime && !spec.suspend) {
      const deadline = Date.parse(startTime) + spec.activeDeadlineSeconds * 1000;
      if (now >= deadline) return jobReasons.deadlineExceeded;
      requeue(deadline);
    }
    return undefined;
  }

  /** Creates or deletes pods so that `want` run, honouring the pod failure backoff. */
  private managePods(job: StoredJob, pods: Array<Stored<Pod>>, active: Array<Stored<Pod>>, succeeded: number, completed: Set<number>, now: number, requeue: (at: number) => void): Array<Stored<Pod>> {
    const spec: Partial<JobSpec> = job.spec ?? {};
    const parallelism: number = spec.parallelism ?? 1;
    const want = spec.completions !== undefined && spec.completions !== null
      ? Math.max(0, Math.min(parallelism, spec.completions - succeeded))
      : succeeded > 0 ? Math.min(active.length, parallelism) : parallelism;
    if (active.length > want) {
      const extras = [...active].sort((a, b) => (isReady(a) === isReady(b) ? 0 : isReady(a) ? 1 : -1)).slice(0, active.length - want);
      return this.deletePods(job, extras, pods);
    }
    if (active.length === want) return pods;
    // podReplacementPolicy Failed: a terminating pod still holds its slot until it has failed
    const terminating = spec.podReplacementPolicy === 'Failed' ? pods.filter((p) => p.metadata.deletionTimestamp && !isTerminal(p)).length : 0;
    if (active.length + terminating >= want) return pods;
    const failures = this.failures.get(job.metadata.uid!);
    if (failures && failures.consecutive > 0) {
      const delay = Math.min(podFailureBackoffBaseMs * 2 ** (failures.consecutive - 1), podFailureBackoffCapMs);
      if (now < failures.lastAt + delay) {
        requeue(failures.lastAt + delay);
        return pods;
      }
    }
    const created: Array<Stored<Pod>> = [];
    const running = new Set(active.map(indexOf).filter((i) => i !== undefined));
    const indexes = isIndexed(job) ? missingIndexes(spec.completions ?? 0, completed, running, want - active.length - terminating) : [];
    for (let i = active.length + terminating; i < want; i++) {
      const body = podFor(job);
      if (isIndexed(job)) {
        const index = indexes.shift();
        if (index === undefined) break;
        stampIndex(body, job.metadata.name, index);
      }
      let pod: KubeObject;
      try {
        pod = this.client.create('pods', job.metadata.namespace, body);
      } catch (err) {
        // refused (admission: PodSecurity, ResourceQuota, LimitRanger…): the pod control's event, then retry with backoff
        if (err instanceof ApiError) this.events.record(job, 'Warning', 'FailedCreate', `Error creating: ${err.message}`);
        throw err;
      }
      created.push(pod);
      this.events.record(job, 'Normal', 'SuccessfulCreate', `Created pod: ${pod.metadata.name}`);
    }
    return [...pods, ...created];
  }

  private deletePods(job: StoredJob, victims: Array<Stored<Pod>>, pods: Array<Stored<Pod>>): Array<Stored<Pod>> {
    if (victims.length === 0) return pods;
    for (const pod of victims) {
      this.client.delete('pods', pod.metadata.namespace, pod.metadata.name, { preconditions: { uid: pod.metadata.uid } });
      this.events.record(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
    }
    return this.podsOf(job);
  }

  /** No active or terminating pod and nothing left to count: the Job may take its final condition. */
  private quiet(pods: Array<Stored<Pod>>): boolean {
    return pods.every((p) => isTerminal(p) && !tracked(p)) || pods.length === 0;
  }

  private counts(pods: Array<Stored<Pod>>, succeeded: number, failed: number) {
    const live = pods.filter((p) => !isTerminal(p));
    return {
      active: live.filter((p) => !p.metadata.deletionTimestamp).length,
      ready: live.filter((p) => !p.metadata.deletionTimestamp && isReady(p)).length,
      terminating: live.filter((p) => p.metadata.deletionTimestamp).length,
      succeeded,
      failed,
    };
  }

  private noteFailures(uid: string, succeeded: number, failed: number, now: number): void {
    const entry = this.failures.get(uid) ?? { consecutive: 0, lastAt: now };
    if (succeeded > 0) entry.consecutive = 0;
    if (failed > 0) {
      entry.consecutive += failed;
      entry.lastAt = now;
    }
    this.failures.set(uid, entry);
  }

  /** Pods still tracked by a Job that no longer exists lose the finalizer (nobody else would count them). */
  private releaseOrphans(namespace: string, jobName: string): void {
    for (const pod of this.client.list('pods', namespace)) {
      const owner = controllerOf(pod, 'Job');
      if (owner?.name === jobName && tracked(pod)) this.releasePod(pod);
    }
  }

  private releasePod(pod: Stored<Pod>): void {
    const current = this.client.get('pods', pod.metadata.namespace, pod.metadata.name);
    if (!current || !tracked(current)) return;
    const rest = current.metadata.finalizers!.filter((f) => f !== jobTrackingFinalizer);
    if (rest.length) current.metadata.finalizers = rest;
    else delete current.metadata.finalizers;
    this.client.update('pods', current);
  }

  private writeStatus(job: StoredJob, status: Record<string, unknown>): void {
    const current = this.client.get('batch/jobs', job.metadata.namespace, job.metadata.name);
    if (!current) return;
    this.client.updateStatus('batch/jobs', { ...current, status });
  }
}

/** The pod a Job creates from its template. */
function podFor(job: StoredJob): NewKubeObject {
  const template = job.spec?.template ?? {};
  const metadata: WritableObjectMeta = {
    generateName: `${job.metadata.name}-`,
    namespace: job.metadata.namespace,
    labels: { ...(template.metadata?.labels ?? {}) },
    finalizers: [jobTrackingFinalizer],
    ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: job.metadata.name, uid: job.metadata.uid!, controller: true, blockOwnerDeletion: true }],
  };
  if (template.metadata?.annotations) metadata.annotations = { ...template.metadata.annotations };
  return { apiVersion: 'v1', kind: 'Pod', metadata, spec: copyObject(template.spec ?? {}) };
}
