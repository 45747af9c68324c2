/**
 * batch/v1 Job and CronJob: the API server's defaulting (parallelism/completions, generated
 * selector and labels), validation and immutability rules, and their kubectl columns.
 */
import type { CronJob, CronJobSpec, Job, JobCondition, JobSpec } from 'kubernetes-types/batch/v1.js';
import type { Container } from 'kubernetes-types/core/v1.js';
import { parseGoDurationNanos } from '../../../apimachinery/go-duration.js';
import { type FieldError, invalid, required } from '../../errors/field-errors.js';
import type { KubeObject } from '../../store/object-store.js';
import { asStored } from '../../store/kube-object.js';
import { defineKind } from '../define-kind.js';
import type { ResourceType } from '../resource-type.js';
import { age, ageColumn, column, humanDuration, nameColumn } from '../table-format.js';
import { defaultPodTemplate, validatePodSpec } from './core-kinds.js';

function defaultJobSpec(spec: Partial<JobSpec>): void {
  if (spec.parallelism === undefined && spec.completions === undefined) spec.completions = 1;
  spec.parallelism ??= 1;
  if (spec.backoffLimitPerIndex === undefined) spec.backoffLimit ??= 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  spec.podReplacementPolicy ??= spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  spec.manualSelector ??= undefined;
  if (spec.manualSelector === undefined) delete spec.manualSelector;
  spec.template ??= {};
  defaultPodTemplate(spec.template);
}

function validateJobSpec(spec: JobSpec | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!spec || typeof spec !== 'object') return [required(path)];
  for (const f of ['parallelism', 'completions', 'backoffLimit', 'ttlSecondsAfterFinished'] as const) {
    const value = spec[f];
    if (typeof value === 'number' && value < 0) errs.push(invalid(`${path}.${f}`, value, 'must be greater than or equal to 0'));
  }
  if (typeof spec.activeDeadlineSeconds === 'number' && spec.activeDeadlineSeconds <= 0) {
    errs.push(invalid(`${path}.activeDeadlineSeconds`, spec.activeDeadlineSeconds, 'must be greater than 0'));
  }
  errs.push(...validatePodSpec(spec.template?.spec, `${path}.template.spec`, ['OnFailure', 'Never']));
  return errs;
}

export const jobs = defineKind({
  group: 'batch',
  resource: 'jobs',
  kind: 'Job',
  namespaced: true,
  categories: ['all'],
  statusSubresource: true,
  hasGeneration: true,
  defaultPropagation: 'Orphan',
  fields: ['spec', 'status'],
  table: {
    columns: [
      nameColumn,
      column('Status', 'string', 'Status of the job.'),
      column('Completions', 'string', 'The completion status of the job.'),
      column('Duration', 'string', 'Time required to complete the job.'),
      ageColumn,
      column('Containers', 'string', 'Names of each container in the template.', 1),
      column('Images', 'string', 'Images referenced by each container in the template.', 1),
      column('Selector', 'string', 'Selector for pods.', 1),
    ],
    cells: (stored, now) => {
      const o = asStored<Job>(stored);
      const conds: JobCondition[] = o.status?.conditions ?? [];
      const has = (t: string): boolean => conds.some((c) => c.type === t && c.status === 'True');
      const status = has('Complete') ? 'Complete' : has('Failed') ? 'Failed' : o.metadata.deletionTimestamp ? 'Terminating' : has('Suspended') ? 'Suspended' : 'Running';
      const completions = o.spec?.completions !== undefined ? `${o.status?.succeeded ?? 0}/${o.spec.completions}` : `${o.status?.succeeded ?? 0}/1 of ${o.spec?.parallelism ?? 1}`;
      const start = o.status?.startTime ? Date.parse(o.status.startTime) : undefined;
      const end = o.status?.completionTime ? Date.parse(o.status.completionTime) : now;
      const containers: Container[] = o.spec?.template?.spec?.containers ?? [];
      const selector = Object.entries(o.spec?.selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`).join(',');
      return [o.metadata.name, status, completions, start === undefined ? '' : humanDuration(end - start), age(o.metadata.creationTimestamp, now), containers.map((c) => c.name).join(','), containers.map((c) => c.image).join(','), selector || '<none>'];
    },
  },
  strategy: {
    prepareForCreate(o) {
      o.spec = o.spec ?? {};
      const spec = asStored<Job>(o).spec!;
      defaultJobSpec(spec);
      if (spec.manualSelector !== true && !spec.selector) {
        const uid = o.metadata.uid!;
        spec.selector = { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } };
        const tmeta = (spec.template.metadata ??= {});
        tmeta.labels = { 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': o.metadata.name, 'controller-uid': uid, 'job-name': o.metadata.name, ...(tmeta.labels ?? {}) };
      }
      o.status = {};
    },
    prepareForUpdate(o) {
      const spec = asStored<Job>(o).spec;
      if (spec) defaultJobSpec(spec);
    },
    validateCreate(stored) {
      const o = asStored<Job>(stored);
      const errs = validateJobSpec(o.spec, 'spec');
      if (o.spec?.selector && o.spec.manualSelector !== true) {
        const generated = o.spec.selector.matchLabels?.['batch.kubernetes.io/controller-uid'] === o.metadata.uid;
        if (!generated) errs.push(invalid('spec.selector', o.spec.selector, '`selector` not auto-generated'));
      }
      return errs;
    },
    validateUpdate(stored, storedOld) {
      const o = asStored<Job>(stored);
      const old = asStored<Job>(storedOld);
      const errs = validateJobSpec(o.spec, 'spec');
      const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
      if (!same(o.spec?.selector, old.spec?.selector)) errs.push(invalid('spec.selector', o.spec?.selector, 'field is immutable'));
      if (!same(o.spec?.template, old.spec?.template)) errs.push(invalid('spec.template', o.spec?.template, 'field is immutable'));
      if (!same(o.spec?.completions, old.spec?.completions)) errs.push(invalid('spec.completions', o.spec?.completions, 'field is immutable'));
      if (!same(o.spec?.completionMode, old.spec?.completionMode)) errs.push(invalid('spec.completionMode', o.spec?.completionMode, 'field is immutable'));
      return errs;
    },
    fieldLabels: (o) => ({ 'status.successful': String(asStored<Job>(o).status?.succeeded ?? 0) }),
    deleteWarning:
      'child pods are preserved by default when jobs are deleted; set propagationPolicy=Background to remove them or set propagationPolicy=Orphan to suppress this warning',
  },
});

const cronShortcuts = ['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'];

/** A cheap structural check of a 5-field cron expression or a descriptor. */
export function cronScheduleError(schedule: string): string | undefined {
  const s = schedule.trim();
  if (s === '') return 'empty spec string';
  if (/^(TZ|CRON_TZ)=/.test(s)) return 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead';
  if (s.startsWith('@')) {
    if (cronShortcuts.includes(s)) return undefined;
    if (s.startsWith('@every ')) {
      // robfig/cron's parseDescriptor: time.ParseDuration of the rest, its error wrapped
      try {
        parseGoDurationNanos(s.slice('@every '.length));
        return undefined;
      } catch (err) {
        return `failed to parse duration ${s}: ${(err as Error).message}`;
      }
    }
    return `unrecognized descriptor: ${s}`;
  }
  const fields = s.split(/\s+/);
  if (fields.length !== 5) return `expected exactly 5 fields, found ${fields.length}: ${s}`;
  const field = /^(\*|\?|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(\/\d+)?(,(\*|\?|[0-9A-Za-z]+(-[0-9A-Za-z]+)?)(\/\d+)?)*$/;
  for (const f of fields) if (!field.test(f)) return `failed to parse int from ${f}: strconv.Atoi: parsing "${f}": invalid syntax`;
  return undefined;
}

function validateCronJob(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  if (o.metadata.name && o.metadata.name.length > 52) errs.push(invalid('metadata.name', o.metadata.name, 'must be no more than 52 characters'));
  const spec: Partial<CronJobSpec> = asStored<CronJob>(o).spec ?? {};
  if (typeof spec.schedule !== 'string' || spec.schedule === '') errs.push(required('spec.schedule'));
  else {
    const why = cronScheduleError(spec.schedule);
    if (why) errs.push(invalid('spec.schedule', spec.schedule, why));
  }
  if (typeof spec.startingDeadlineSeconds === 'number' && spec.startingDeadlineSeconds < 0) {
    errs.push(invalid('spec.startingDeadlineSeconds', spec.startingDeadlineSeconds, 'must be greater than or equal to 0'));
  }
  if (!(['Allow', 'Forbid', 'Replace'] as Array<string | undefined>).includes(spec.concurrencyPolicy)) {
    errs.push({ type: 'FieldValueNotSupported', field: 'spec.concurrencyPolicy', value: spec.concurrencyPolicy ?? '', detail: 'supported values: "Allow", "Forbid", "Replace"' });
  }
  errs.push(...validateJobSpec(spec.jobTemplate?.spec, 'spec.jobTemplate.spec'));
  return errs;
}

export const cronJobs = defineKind({
  group: 'batch',
  resource: 'cronjobs',
  kind: 'CronJob',
  namespaced: true,
  shortNames: ['cj'],
  categories: ['all'],
  statusSubresource: true,
  hasGeneration: true,
  fields: ['spec', 'status'],
  table: {
    columns: [
      nameColumn,
      column('Schedule', 'string', 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.'),
      column('Timezone', 'string', 'The time zone name for the given schedule.'),
      column('Suspend', 'boolean', 'This flag tells the controller to suspend subsequent executions.'),
      column('Active', 'integer', 'A list of pointers to currently running jobs.'),
      column('Last Schedule', 'string', 'Information when was the last time the job was successfully scheduled.'),
      ageColumn,
      column('Containers', 'string', 'Names of each container in the template.', 1),
      column('Images', 'string', 'Images referenced by each container in the template.', 1),
      column('Selector', 'string', 'Selector for created jobs (if any).', 1),
    ],
    cells: (stored, now) => {
      const o = asStored<CronJob>(stored);
      const containers: Container[] = o.spec?.jobTemplate?.spec?.template?.spec?.containers ?? [];
      return [
        o.metadata.name,
        o.spec?.schedule ?? '',
        o.spec?.timeZone ?? '<none>',
        o.spec?.suspend ?? false,
        (o.status?.active ?? []).length,
        o.status?.lastScheduleTime ? age(o.status.lastScheduleTime, now) : '<none>',
        age(o.metadata.creationTimestamp, now),
        containers.map((c) => c.name).join(','),
        containers.map((c) => c.image).join(','),
        '<none>',
      ];
    },
  },
  strategy: {
    prepareForCreate(o) {
      defaultCronJob(o);
      o.status = {};
    },
    prepareForUpdate: (o) => defaultCronJob(o),
    validateCreate: validateCronJob,
    validateUpdate: validateCronJob,
  },
});

function defaultCronJob(o: KubeObject): void {
  o.spec ??= {};
  const spec: Partial<CronJobSpec> = asStored<CronJob>(o).spec!;
  spec.concurrencyPolicy ??= 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  const jobTemplate: { spec?: Partial<JobSpec> } = (spec.jobTemplate ??= {});
  const jobSpec = (jobTemplate.spec ??= {});
  if (jobSpec.parallelism === undefined && jobSpec.completions === undefined) jobSpec.completions = 1;
  jobSpec.parallelism ??= 1;
  jobSpec.backoffLimit ??= 6;
  jobSpec.completionMode ??= 'NonIndexed';
  jobSpec.suspend ??= false;
  jobSpec.podReplacementPolicy ??= 'TerminatingOrFailed';
  defaultPodTemplate(jobSpec.template);
}

export const batchKinds: ResourceType[] = [jobs, cronJobs];
