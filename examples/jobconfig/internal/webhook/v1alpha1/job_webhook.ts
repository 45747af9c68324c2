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
 * Admission webhooks for Job (execution.furiko.io/v1alpha1), as Furiko's (reference-operators spec §4.2).
 * The defaulter adds the dependents finalizer, expands `configName` from its JobConfig, evaluates option
 * values into substitutions and fills in defaults; the validator checks the spec, the JobConfig's
 * concurrency and queue limits on create, and the immutable fields on update.
 * `make manifests` turns the `+kubebuilder:webhook` markers below into config/webhook/manifests.yaml.
 */
import { setControllerReference, type AdmissionRequest, type Client, type Clock, type Defaulter, type Manager, type Validator } from 'kubeforge/runtime';
import type { JobConfig } from '../../../api/v1alpha1/jobconfig_types.js';
import { JOB_TYPES, JobKind, type Job, type JobTemplate } from '../../../api/v1alpha1/job_types.js';
import { defaultFurikoConfig, sharedFurikoConfig, type FurikoConfig } from '../../furiko/config.js';
import { ANNOTATION_OPTION_SPEC_HASH, ANNOTATION_SCHEDULE_TIME, FINALIZER_DELETE_DEPENDENTS, LABEL_JOB_CONFIG_UID } from '../../furiko/keys.js';
import { compactOptionValues, evaluateOptionValues, hashOptionSpec, parseOptionValues } from '../../options/index.js';
import { forbidden, invalid, notFound, notSupported, required, throwIfInvalid, type FieldError } from '../../validation/field-errors.js';
import { defaultJobTemplate, validateConcurrencyPolicy, validateJobTemplate, validateNonNegative } from '../../validation/job-template.js';
import { semanticallyEqual } from '../../validation/semantic-equal.js';
import { goStartPolicy, goStringMap, goTime } from '../../validation/go-values.js';
import { getJobConfig, lookupJobConfigOwner } from './job-owner.js';

export const JOB_MUTATING_PATH = '/mutating/jobs.execution.furiko.io';
export const JOB_VALIDATING_PATH = '/validating/jobs.execution.furiko.io';
const QUALIFIED_KIND = 'Job.execution.furiko.io';

export const WARNING_TEMPLATE_OVERWRITTEN = "JobTemplateSpec was overwritten with JobConfig's template";
export const warningOptionValuesIgnored = (optionValues: string) => `optionValues will be ignored without a JobConfig: ${optionValues}`;

// +kubebuilder:webhook:path=/mutating/jobs.execution.furiko.io,mutating=true,failurePolicy=fail,sideEffects=None,groups=execution.furiko.io,resources=jobs,verbs=create;update,versions=v1alpha1,name=mutating.webhook.jobs.execution.furiko.io,admissionReviewVersions=v1

/** Sets defaults on Job objects when they are created or updated; returns warnings. */
export class JobCustomDefaulter implements Defaulter<Job> {
  /** `reader` reads JobConfigs straight from the API server (the manager's `apiReader()`). */
  constructor(
    private readonly reader: Client,
    private readonly config: FurikoConfig = defaultFurikoConfig,
  ) {}

  async default(obj: Job, request?: AdmissionRequest<Job>): Promise<string[]> {
    obj.spec ??= {};
    const warnings = request?.operation === 'UPDATE' ? [] : await this.defaultCreate(obj);
    this.defaultCreateAndUpdate(obj);
    return warnings;
  }

  /** Create only: finalizer, `configName` expansion, option evaluation and substitutions. */
  private async defaultCreate(job: Job): Promise<string[]> {
    const warnings: string[] = [];
    job.metadata ??= {};
    const finalizers = job.metadata.finalizers ?? [];
    if (!finalizers.includes(FINALIZER_DELETE_DEPENDENTS)) job.metadata.finalizers = [...finalizers, FINALIZER_DELETE_DEPENDENTS];
    if (job.spec.configName) {
      const jobConfig = await getJobConfig(this.reader, job.metadata.namespace ?? 'default', job.spec.configName);
      if (!jobConfig) throwIfInvalid(QUALIFIED_KIND, job.metadata.name ?? '', [notFound('spec.configName', job.spec.configName)]);
      if (expandFromJobConfig(job, jobConfig!)) warnings.push(WARNING_TEMPLATE_OVERWRITTEN);
    }
    const owner = await lookupJobConfigOwner(this.reader, job);
    throwIfInvalid(QUALIFIED_KIND, job.metadata.name ?? '', owner.errors);
    if (owner.jobConfig) applyOptionValues(job, owner.jobConfig);
    else if (job.spec.optionValues) warnings.push(warningOptionValuesIgnored(job.spec.optionValues));
    return warnings;
  }

  private defaultCreateAndUpdate(job: Job): void {
    if (!job.spec.type) job.spec.type = 'Adhoc';
    job.spec.ttlSecondsAfterFinished ??= this.config.defaultTTLSecondsAfterFinished;
    job.spec.template ??= { taskTemplate: {} };
    defaultJobTemplate(job.spec.template, { taskPendingTimeoutSeconds: this.config.defaultPendingTimeoutSeconds, defaultRestartPolicy: true });
  }
}

/**
 * Copies the JobConfig's template metadata (under the Job's own), the UID label and the controller owner
 * reference onto the Job, replaces its template, defaults its start policy and clears `configName`.
 * Returns whether a template the Job carried was overwritten.
 */
export function expandFromJobConfig(job: Job, jobConfig: JobConfig): boolean {
  const meta = (job.metadata ??= {});
  const templateMeta = jobConfig.spec.template?.metadata ?? {};
  meta.labels = { ...templateMeta.labels, [LABEL_JOB_CONFIG_UID]: jobConfig.metadata!.uid!, ...meta.labels };
  const annotations: Record<string, string> = { ...templateMeta.annotations, ...meta.annotations };
  if (job.spec.type !== 'Scheduled') delete annotations[ANNOTATION_SCHEDULE_TIME];
  if (Object.keys(annotations).length) meta.annotations = annotations;
  setControllerReference(jobConfig, job);
  const overwritten = job.spec.template !== undefined;
  job.spec.template = structuredClone(jobConfig.spec.template.spec) as JobTemplate;
  job.spec.startPolicy ??= {} as NonNullable<Job['spec']['startPolicy']>;
  if (!job.spec.startPolicy.concurrencyPolicy) job.spec.startPolicy.concurrencyPolicy = jobConfig.spec.concurrency.policy;
  delete job.spec.configName;
  return overwritten;
}

/**
 * Evaluates `optionValues` against the JobConfig's options (errors reject the Job), re-serialises them as
 * compact JSON with the option-spec hash, and merges substitutions: `jobconfig.*` under the evaluated
 * options under the Job's own `substitutions`.
 */
export function applyOptionValues(job: Job, jobConfig: JobConfig): void {
  const name = job.metadata?.name ?? job.metadata?.generateName ?? '';
  let values: Record<string, unknown>;
  try {
    values = parseOptionValues(job.spec.optionValues);
  } catch (err) {
    throwIfInvalid(QUALIFIED_KIND, name, [invalid('spec.optionValues', job.spec.optionValues, `cannot unmarshal as json or yaml: ${(err as Error).message}`)]);
    return;
  }
  const { substitutions, errors } = evaluateOptionValues(values, jobConfig.spec.option);
  throwIfInvalid(QUALIFIED_KIND, name, errors);
  if (job.spec.optionValues) {
    job.spec.optionValues = compactOptionValues(values);
    job.metadata!.annotations = { ...job.metadata!.annotations, [ANNOTATION_OPTION_SPEC_HASH]: hashOptionSpec(jobConfig.spec.option) };
  }
  job.spec.substitutions = {
    'jobconfig.uid': jobConfig.metadata!.uid!,
    'jobconfig.name': jobConfig.metadata!.name!,
    'jobconfig.namespace': jobConfig.metadata!.namespace!,
    ...substitutions,
    ...job.spec.substitutions,
  };
}

// NOTE: change verbs to "verbs=create;update;delete" to validate deletions too.
// +kubebuilder:webhook:path=/validating/jobs.execution.furiko.io,mutating=false,failurePolicy=fail,sideEffects=None,groups=execution.furiko.io,resources=jobs,verbs=create;update,versions=v1alpha1,name=validation.webhook.jobs.execution.furiko.io,admissionReviewVersions=v1

/** Validates Job objects; a thrown Error rejects the request, returned strings are warnings. */
export class JobCustomValidator implements Validator<Job> {
  constructor(
    private readonly reader: Client,
    private readonly clock: Clock,
    private readonly config: FurikoConfig = defaultFurikoConfig,
  ) {}

  async validateCreate(obj: Job): Promise<string[]> {
    const errors = validateJob(obj);
    if (!errors.length) {
      const owner = await lookupJobConfigOwner(this.reader, obj);
      errors.push(...owner.errors);
      if (owner.jobConfig) errors.push(...validateAgainstJobConfig(obj, owner.jobConfig, this.config));
    }
    throwIfInvalid(QUALIFIED_KIND, obj.metadata?.name ?? '', errors);
    return [];
  }

  async validateUpdate(oldObj: Job, newObj: Job): Promise<string[]> {
    const errors = [...validateJob(newObj), ...validateJobUpdate(oldObj, newObj, this.clock.now())];
    throwIfInvalid(QUALIFIED_KIND, newObj.metadata?.name ?? '', errors);
    return [];
  }

  async validateDelete(obj: Job): Promise<string[]> {
    void obj; // deletions are not validated (the marker's verbs leave DELETE out)
    return [];
  }
}

/** Task names add `-<retry>` to the Job's name; Furiko keeps 3 characters of a 63-character DNS label. */
export const MAX_JOB_NAME_LENGTH = 63 - 3;

/** The problems of a Job on its own: name length, type, start policy, template, TTL. */
export function validateJob(job: Job): FieldError[] {
  const errors: FieldError[] = [];
  const name = job.metadata?.name ?? '';
  if (name.length > MAX_JOB_NAME_LENGTH) errors.push(invalid('metadata.name', name, `cannot be more than ${MAX_JOB_NAME_LENGTH} characters`));
  const spec = job.spec ?? {};
  if (!spec.type) errors.push(required('spec.type'));
  else if (!JOB_TYPES.includes(spec.type)) errors.push(notSupported('spec.type', spec.type, JOB_TYPES));
  if (spec.startPolicy) errors.push(...validateConcurrencyPolicy(spec.startPolicy.concurrencyPolicy, 'spec.startPolicy.concurrencyPolicy'));
  if (!spec.template) errors.push(required('spec.template'));
  else errors.push(...validateJobTemplate(spec.template, 'spec.template'));
  errors.push(...validateNonNegative(spec.ttlSecondsAfterFinished, 'spec.ttlSecondsAfterFinished'));
  return errors;
}

/** On create of a JobConfig's Job: Forbid beyond maxConcurrency and a full queue are rejected. */
export function validateAgainstJobConfig(job: Job, jobConfig: JobConfig, config: FurikoConfig): FieldError[] {
  const errors: FieldError[] = [];
  const name = jobConfig.metadata?.name ?? '';
  const active = jobConfig.status?.active ?? 0;
  const queued = jobConfig.status?.queued ?? 0;
  const maxConcurrency = jobConfig.spec.concurrency?.maxConcurrency ?? 1;
  if (job.spec.startPolicy?.concurrencyPolicy === 'Forbid' && active + 1 > maxConcurrency) {
    errors.push(
      forbidden(
        'spec.startPolicy.concurrencyPolicy',
        `${name} currently has ${active} active job(s), but concurrency policy forbids exceeding maximum concurrency of ${maxConcurrency}`,
      ),
    );
  }
  if (queued >= config.maxEnqueuedJobs) {
    errors.push(forbidden('spec.startPolicy', `cannot create new Job for JobConfig ${name}, which would exceed maximum queue length of ${config.maxEnqueuedJobs}`));
  }
  return errors;
}

/** On update: the immutable fields, `killTimestamp` once passed, `startPolicy` once started. */
export function validateJobUpdate(oldJob: Job, job: Job, nowMs: number): FieldError[] {
  const errors: FieldError[] = [];
  // `rendered` is the new value as Furiko's field.Invalid prints it (a Go string, pointer, map or struct).
  const immutable = (path: string, before: unknown, after: unknown, rendered: unknown, detail = 'field is immutable') => {
    if (!semanticallyEqual(before, after)) errors.push(invalid(path, rendered, detail));
  };
  const string = (before: string | undefined, after: string | undefined) => [before, after, after ?? ''] as const;
  const pointer = (before: unknown, after: unknown) => [before, after, after ?? null] as const;
  const labelPath = `metadata.labels[${LABEL_JOB_CONFIG_UID}]`;
  immutable(labelPath, ...string(oldJob.metadata?.labels?.[LABEL_JOB_CONFIG_UID], job.metadata?.labels?.[LABEL_JOB_CONFIG_UID]));
  const [before, after] = [oldJob.spec ?? {}, job.spec ?? {}];
  immutable('spec.configName', ...string(before.configName, after.configName));
  immutable('spec.type', ...string(before.type, after.type));
  immutable('spec.optionValues', ...string(before.optionValues, after.optionValues));
  immutable('spec.substitutions', before.substitutions, after.substitutions, goStringMap(after.substitutions));
  immutable('spec.template.taskTemplate', ...pointer(before.template?.taskTemplate, after.template?.taskTemplate));
  immutable('spec.template.parallelism', ...pointer(before.template?.parallelism, after.template?.parallelism));
  immutable('spec.template.maxAttempts', ...pointer(before.template?.maxAttempts, after.template?.maxAttempts));
  immutable('spec.template.retryDelaySeconds', ...pointer(before.template?.retryDelaySeconds, after.template?.retryDelaySeconds));
  const oldKill = before.killTimestamp ? Date.parse(before.killTimestamp) : undefined;
  const newKill = after.killTimestamp ? Date.parse(after.killTimestamp) : undefined;
  if (oldKill !== undefined && oldKill < nowMs && oldKill !== newKill) {
    errors.push(invalid('spec.killTimestamp', goTime(after.killTimestamp), 'field is immutable once passed'));
  }
  if (job.status?.startTime) {
    immutable('spec.startPolicy', before.startPolicy, after.startPolicy, goStartPolicy(after.startPolicy), 'cannot update startPolicy once Job is started');
  }
  return errors;
}

/** Registers the Job webhooks with the manager's webhook server; returns their paths. */
export function setupJobWebhookWithManager(mgr: Manager, config: FurikoConfig = sharedFurikoConfig): string[] {
  const reader = mgr.apiReader();
  return [
    mgr.webhookServer.registerDefaulter(JobKind, new JobCustomDefaulter(reader, config), JOB_MUTATING_PATH),
    mgr.webhookServer.registerValidator(JobKind, new JobCustomValidator(reader, mgr.clock, config), JOB_VALIDATING_PATH),
  ];
}

