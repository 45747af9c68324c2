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
 * Admission webhooks for JobConfig (execution.furiko.io/v1alpha1), as Furiko's (reference-operators spec §4.2):
 * the defaulter fills in Bool option formats, template defaults and `schedule.lastUpdated`; the validator
 * checks the name length, the template, concurrency, the cron schedule and the options.
 * `make manifests` turns the `+kubebuilder:webhook` markers below into config/webhook/manifests.yaml.
 */
import { rfc3339Seconds, type AdmissionRequest, type Clock, type Defaulter, type Manager } from 'kubeforge/runtime';
import { JobConfigKind, type JobConfig, type ScheduleSpec } from '../../../api/v1alpha1/jobconfig_types.js';
import { parseCron, parseTimeZone } from '../../cronexpr/index.js';
import { defaultFurikoConfig, sharedFurikoConfig, type FurikoConfig } from '../../furiko/config.js';
import { defaultOptionSpec, validateOptionSpec } from '../../options/index.js';
import { forbidden, invalid, required, throwIfInvalid, tooMany, type FieldError } from '../../validation/field-errors.js';
import { defaultJobTemplate, validateConcurrencyPolicy, validateJobTemplate } from '../../validation/job-template.js';
import { semanticallyEqual } from '../../validation/semantic-equal.js';
import type { CustomValidator } from 'kubeforge/runtime';

export const JOBCONFIG_MUTATING_PATH = '/mutating/jobconfigs.execution.furiko.io';
export const JOBCONFIG_VALIDATING_PATH = '/validating/jobconfigs.execution.furiko.io';

// +kubebuilder:webhook:path=/mutating/jobconfigs.execution.furiko.io,mutating=true,failurePolicy=fail,sideEffects=None,groups=execution.furiko.io,resources=jobconfigs,verbs=create;update,versions=v1alpha1,name=mutating.webhook.jobconfigs.execution.furiko.io,admissionReviewVersions=v1

/** Sets defaults on JobConfig objects when they are created or updated. */
export class JobConfigCustomDefaulter implements Defaulter<JobConfig> {
  constructor(
    private readonly clock: Clock,
    private readonly config: FurikoConfig = defaultFurikoConfig,
  ) {}

  async default(obj: JobConfig, request?: AdmissionRequest<JobConfig>): Promise<void> {
    obj.spec ??= {} as JobConfig['spec'];
    defaultOptionSpec(obj.spec.option);
    if (obj.spec.template?.spec) {
      defaultJobTemplate(obj.spec.template.spec, { taskPendingTimeoutSeconds: this.config.defaultPendingTimeoutSeconds, defaultRestartPolicy: false });
    }
    const schedule = obj.spec.schedule;
    if (!schedule) return;
    const oldSchedule = request?.operation === 'UPDATE' ? request.oldObject?.spec?.schedule : undefined;
    if (request?.operation === 'UPDATE' && sameSchedule(oldSchedule, schedule)) return;
    const now = this.clock.now();
    if (!schedule.lastUpdated || Date.parse(schedule.lastUpdated) <= now) schedule.lastUpdated = rfc3339Seconds(now);
  }
}

/** Whether two schedules are the same apart from `lastUpdated`. */
function sameSchedule(a: ScheduleSpec | undefined, b: ScheduleSpec | undefined): boolean {
  const strip = (s: ScheduleSpec | undefined) => (s ? { ...s, lastUpdated: undefined } : s);
  return semanticallyEqual(strip(a), strip(b));
}

// NOTE: change verbs to "verbs=create;update;delete" to validate deletions too.
// +kubebuilder:webhook:path=/validating/jobconfigs.execution.furiko.io,mutating=false,failurePolicy=fail,sideEffects=None,groups=execution.furiko.io,resources=jobconfigs,verbs=create;update,versions=v1alpha1,name=validation.webhook.jobconfigs.execution.furiko.io,admissionReviewVersions=v1

/** Validates JobConfig objects; a thrown Error rejects the request, returned strings are warnings. */
export class JobConfigCustomValidator implements CustomValidator<JobConfig> {
  constructor(private readonly config: FurikoConfig = defaultFurikoConfig) {}

  async validateCreate(obj: JobConfig): Promise<string[]> {
    validateJobConfig(obj, this.config);
    return [];
  }

  async validateUpdate(oldObj: JobConfig, newObj: JobConfig): Promise<string[]> {
    void oldObj; // updates get the same checks as creates
    validateJobConfig(newObj, this.config);
    return [];
  }

  async validateDelete(obj: JobConfig): Promise<string[]> {
    void obj; // deletions are not validated (the marker's verbs leave DELETE out)
    return [];
  }
}

/**
 * Job names are `<jobconfig>-<unix seconds>` and task names add `-<index hash>-<retry>`; Furiko keeps 14
 * characters of a 63-character DNS label for those suffixes.
 */
export const MAX_JOBCONFIG_NAME_LENGTH = 63 - 14;

/** Collects every problem of `jobConfig` and throws them together as one Invalid error. */
export function validateJobConfig(jobConfig: JobConfig, config: FurikoConfig = defaultFurikoConfig): void {
  const name = jobConfig.metadata?.name ?? '';
  const errors: FieldError[] = [];
  if (name.length > MAX_JOBCONFIG_NAME_LENGTH) errors.push(invalid('metadata.name', name, `cannot be more than ${MAX_JOBCONFIG_NAME_LENGTH} characters`));
  const spec = jobConfig.spec ?? ({} as JobConfig['spec']);
  if (spec.template?.spec) errors.push(...validateJobTemplate(spec.template.spec, 'spec.template.spec'));
  else errors.push(required('spec.template.spec'));
  errors.push(...validateConcurrency(spec.concurrency));
  errors.push(...validateSchedule(spec.schedule, config));
  errors.push(...validateOptionSpec(spec.option, 'spec.option'));
  throwIfInvalid('JobConfig.execution.furiko.io', name, errors);
}

function validateConcurrency(concurrency: JobConfig['spec']['concurrency'] | undefined): FieldError[] {
  const errors = validateConcurrencyPolicy(concurrency?.policy, 'spec.concurrency.policy');
  const max = concurrency?.maxConcurrency;
  if (max !== undefined && max !== null) {
    if (concurrency?.policy === 'Allow') errors.push(forbidden('spec.concurrency.maxConcurrency', 'cannot specify maxConcurrency with Allow'));
    else if (max <= 0) errors.push(invalid('spec.concurrency.maxConcurrency', max, 'must be greater than 0'));
  }
  return errors;
}

function validateSchedule(schedule: ScheduleSpec | undefined, config: FurikoConfig): FieldError[] {
  if (!schedule) return [];
  const cron = schedule.cron;
  if (!cron) return [required('spec.schedule', 'at least one schedule type must be specified')];
  const errors: FieldError[] = [];
  const expressions = cron.expressions ?? [];
  if (cron.expression && expressions.length > 0) errors.push(tooMany('spec.schedule.cron', 2, 1));
  else if (!cron.expression && expressions.length === 0) errors.push(required('spec.schedule.cron', 'expression is required'));
  const checkExpression = (expression: string, path: string) => {
    if (!parsesAsCron(expression, config)) errors.push(invalid(path, expression, 'cannot parse cron schedule'));
  };
  if (cron.expression) checkExpression(cron.expression, 'spec.schedule.cron.expression');
  expressions.forEach((expression, i) => checkExpression(expression, `spec.schedule.cron.expressions[${i}]`));
  if (cron.timezone) {
    try {
      parseTimeZone(cron.timezone);
    } catch {
      errors.push(invalid('spec.schedule.cron.timezone', cron.timezone, 'cannot parse timezone'));
    }
  }
  return errors;
}

/** Parses with the cluster's cron options and hash ID "" (Furiko validates with an empty hash ID). */
function parsesAsCron(expression: string, config: FurikoConfig): boolean {
  try {
    parseCron(expression, {
      hashId: '',
      hashNames: config.cronHashNames,
      hashFields: config.cronHashFields,
      hashSecondsByDefault: config.cronHashSecondsByDefault,
      format: config.cronFormat,
    });
    return true;
  } catch {
    return false;
  }
}

/** Registers the JobConfig webhooks with the manager's webhook server; returns their paths. */
export function setupJobConfigWebhookWithManager(mgr: Manager, config: FurikoConfig = sharedFurikoConfig): string[] {
  return [
    mgr.webhookServer.registerDefaulter(JobConfigKind, new JobConfigCustomDefaulter(mgr.clock, config), JOBCONFIG_MUTATING_PATH),
    mgr.webhookServer.registerValidator(JobConfigKind, new JobConfigCustomValidator(config), JOBCONFIG_VALIDATING_PATH),
  ];
}
