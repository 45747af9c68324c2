/**
 * The AT's child Job, as pure functions: its name, how it is built from the AT's template, and what the
 * AT's status says about it (reference-operators.md §2.2 with the kubeforge rules KF-AT-2 and KF-AT-3).
 */
import type { Job } from 'kubernetes-types/batch/v1.js';
import { rfc3339Seconds } from 'kubeforge/runtime';
import { scheduledTimeAnnotation, type AT, type ATStatus } from '../../api/v1/at_types.js';

/** `spec.schedule` as epoch milliseconds; the CRD's `date-time` format guarantees it parses. */
export function scheduleMillis(at: AT): number {
  const ms = Date.parse(at.spec.schedule);
  if (Number.isNaN(ms)) throw new Error(`AT ${at.metadata?.namespace}/${at.metadata?.name}: spec.schedule: not an RFC 3339 time: ${JSON.stringify(at.spec.schedule)}`);
  return ms;
}

/** `<at-name>-<spec.schedule as Unix seconds>`: one name per scheduled instant. */
export function childJobName(at: AT): string {
  return `${at.metadata?.name ?? ''}-${Math.floor(scheduleMillis(at) / 1000)}`;
}

/**
 * The Job to create at `now`: the template's labels and annotations, the annotation recording `now`
 * (not the schedule), and a copy of the template's spec. The caller sets the controller reference.
 */
export function constructChildJob(at: AT, now: number): Job {
  const template = at.spec.jobTemplate;
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: childJobName(at),
      namespace: at.metadata?.namespace,
      labels: { ...(template.metadata?.labels ?? {}) },
      annotations: { ...(template.metadata?.annotations ?? {}), [scheduledTimeAnnotation]: rfc3339Seconds(now) },
    },
    spec: structuredClone(template.spec ?? { template: {} }),
  };
}

/**
 * The status the AT reports for an existing child Job. Throws (so the reconcile is retried and nothing is
 * written) when the Job lacks a readable scheduled-time annotation, with the reference's messages.
 */
export function statusFromChildJob(job: Job): Required<Pick<ATStatus, 'lastScheduleTime' | 'status'>> {
  const raw = job.metadata?.annotations?.[scheduledTimeAnnotation];
  if (!raw) throw new Error(`Failed to get ${scheduledTimeAnnotation} from childJob`);
  const ms = Date.parse(raw);
  if (!isRfc3339(raw) || Number.isNaN(ms)) throw new Error(`Failed to parse time annotation parsing time ${JSON.stringify(raw)} as RFC 3339`);
  return { lastScheduleTime: rfc3339Seconds(ms), status: phaseOf(job) };
}

/** KF-AT-3: a `Failed=True` condition wins; KF-AT-2: nil completions count as 1 and `>=` is enough. */
function phaseOf(job: Job): 'Failed' | 'Succeeded' | 'Running' {
  if (job.status?.conditions?.some((c) => c.type === 'Failed' && c.status === 'True')) return 'Failed';
  const completions = job.spec?.completions ?? 1;
  return (job.status?.succeeded ?? 0) >= completions ? 'Succeeded' : 'Running';
}

const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** Go's time.RFC3339 layout accepts only this shape (Date.parse alone also accepts `2024-01-15`). */
function isRfc3339(text: string): boolean {
  return rfc3339.test(text);
}
