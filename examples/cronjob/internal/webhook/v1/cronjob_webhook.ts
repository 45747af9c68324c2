/*
Copyright 2026 The project Authors.

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
 * Admission webhooks for CronJob (batch.tutorial.kubebuilder.io/v1). The defaulter fills in fields the user left out.
 * The validator rejects objects that the schema alone cannot rule out.
 * `make manifests` turns the `+kubebuilder:webhook` markers below into config/webhook/manifests.yaml.
 */
import { field, newInvalid, type CustomDefaulter, type CustomValidator, type ErrorList, type Manager } from 'kubeforge/runtime';
import { CronJobKind, type CronJob } from '../../../api/v1/cronjob_types.js';
import { parseStandard } from '../../cron/standard-schedule.js';

// +kubebuilder:webhook:path=/mutate-batch-tutorial-kubebuilder-io-v1-cronjob,mutating=true,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.kubebuilder.io,resources=cronjobs,verbs=create;update,versions=v1,name=mcronjob-v1.kb.io,admissionReviewVersions=v1

/** Sets defaults on CronJob objects when they are created or updated. */
export class CronJobCustomDefaulter implements CustomDefaulter<CronJob> {
  // Only fields the user left unset are filled in; explicit values are never overwritten.
  async default(obj: CronJob): Promise<void> {
    if (!obj.spec.concurrencyPolicy) obj.spec.concurrencyPolicy = DEFAULT_CONCURRENCY_POLICY;
    obj.spec.suspend ??= false;
    obj.spec.successfulJobsHistoryLimit ??= DEFAULT_SUCCESSFUL_JOBS_HISTORY_LIMIT;
    obj.spec.failedJobsHistoryLimit ??= DEFAULT_FAILED_JOBS_HISTORY_LIMIT;
  }
}

// NOTE: change verbs to "verbs=create;update;delete" to validate deletions too.
// +kubebuilder:webhook:path=/validate-batch-tutorial-kubebuilder-io-v1-cronjob,mutating=false,failurePolicy=fail,sideEffects=None,groups=batch.tutorial.kubebuilder.io,resources=cronjobs,verbs=create;update,versions=v1,name=vcronjob-v1.kb.io,admissionReviewVersions=v1

/** Validates CronJob objects; a thrown Error rejects the request, returned strings are warnings. */
export class CronJobCustomValidator implements CustomValidator<CronJob> {
  async validateCreate(obj: CronJob): Promise<string[]> {
    validateCronJob(obj);
    return [];
  }

  async validateUpdate(oldObj: CronJob, newObj: CronJob): Promise<string[]> {
    void oldObj; // updates get the same checks as creates
    validateCronJob(newObj);
    return [];
  }

  async validateDelete(obj: CronJob): Promise<string[]> {
    void obj; // deletions are not validated (the marker's verbs leave DELETE out)
    return [];
  }
}

export const DEFAULT_CONCURRENCY_POLICY = 'Allow';
export const DEFAULT_SUCCESSFUL_JOBS_HISTORY_LIMIT = 3;
export const DEFAULT_FAILED_JOBS_HISTORY_LIMIT = 1;

/**
 * Job names are `<cronjob-name>-<unix seconds>` and must fit a 63-character DNS-1035 label: 11 characters
 * are kept for the `-` and a 10-digit timestamp.
 */
const MAX_CRONJOB_NAME_LENGTH = 63 - 11;

/** Collects every problem of `cronjob` and throws them together as one Invalid error. */
export function validateCronJob(cronjob: CronJob): void {
  const errors: ErrorList = [];
  const name = cronjob.metadata?.name ?? '';
  if (name.length > MAX_CRONJOB_NAME_LENGTH) errors.push(field.invalid(field.newPath('metadata', 'name'), name, `must be no more than ${MAX_CRONJOB_NAME_LENGTH} characters`));
  try {
    parseStandard(cronjob.spec.schedule);
  } catch (err) {
    errors.push(field.invalid(field.newPath('spec', 'schedule'), cronjob.spec.schedule, (err as Error).message));
  }
  if (errors.length > 0) throw newInvalid({ group: CronJobKind.group, kind: CronJobKind.kind }, name, errors);
}

/** Registers the CronJob webhooks with the manager's webhook server; returns their paths. */
export function setupCronJobWebhookWithManager(mgr: Manager): string[] {
  return [
    mgr.webhookServer.registerDefaulter(CronJobKind, new CronJobCustomDefaulter(), '/mutate-batch-tutorial-kubebuilder-io-v1-cronjob'),
    mgr.webhookServer.registerValidator(CronJobKind, new CronJobCustomValidator(), '/validate-batch-tutorial-kubebuilder-io-v1-cronjob'),
  ];
}
