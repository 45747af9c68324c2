/**
 * TTL-after-finished (§7.7 item 8): a Job with `ttlSecondsAfterFinished` is deleted (Foreground,
 * uid precondition) that many seconds after it finished (Complete or Failed), on the cluster clock.
 */
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { asStored } from '../store/kube-object.js';
import type { StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController, ReconcileResult } from './controller-scheduler.js';
import { findCondition, finishedCondition } from './job-conditions.js';

export class TtlAfterFinishedController implements BuiltinController {
  readonly name = 'ttl-after-finished-controller';

  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock) {}

  initialKeys(): string[] {
    return this.client.list('batch/jobs').map((j) => `${j.metadata.namespace}/${j.metadata.name}`);
  }

  keysFor(event: StoreEvent): string[] {
    if (event.bucket !== 'jobs.batch' || event.type === 'DELETED') return [];
    const o = asStored<Job>(event.object);
    return typeof o.spec?.ttlSecondsAfterFinished === 'number' && finishedCondition(o) ? [`${o.metadata.namespace}/${o.metadata.name}`] : [];
  }

  reconcile(key: string): ReconcileResult | void {
    const [namespace, name] = key.split('/') as [string, string];
    const stored = this.client.get('batch/jobs', namespace, name);
    const job = stored && asStored<Job>(stored);
    const ttl = job?.spec?.ttlSecondsAfterFinished;
    const finished = job && finishedCondition(job);
    if (!job || typeof ttl !== 'number' || !finished || job.metadata.deletionTimestamp) return;
    const finishedAt = Date.parse(job.status?.completionTime ?? findCondition(job, finished)!.lastTransitionTime);
    const expireAt = finishedAt + ttl * 1000;
    const now = this.clock.now();
    if (now < expireAt) return { requeueAfterMs: expireAt - now };
    this.client.delete('batch/jobs', namespace, name, { propagationPolicy: 'Foreground', preconditions: { uid: job.metadata.uid } });
  }
}
