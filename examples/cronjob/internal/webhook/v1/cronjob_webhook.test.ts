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

/** The CronJob webhook handlers, called directly (no server needed). */
/** The CronJob webhooks' defaulting and validation rules (reference-operators.md §1.2, §1.6 unit tests). */
import { InvalidError, type Manager } from 'kubeforge/runtime';
import type { CronJob } from '../../../api/v1/cronjob_types.js';
import { CronJobCustomDefaulter, CronJobCustomValidator, setupCronJobWebhookWithManager } from './cronjob_webhook.js';

function newCronJob(name = 'test', schedule = '*/5 * * * *'): CronJob {
  return {
    apiVersion: 'batch.tutorial.kubebuilder.io/v1',
    kind: 'CronJob',
    metadata: { name, namespace: 'default' },
    spec: { schedule, jobTemplate: { spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'OnFailure' } } } } },
  };
}

describe('CronJob defaulting webhook', () => {
  it('fills in Allow, suspend false and history limits 3/1 when unset', async () => {
    const obj = newCronJob();
    await new CronJobCustomDefaulter().default(obj);
    expect(obj.spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
  });

  it('keeps explicit values, including zero limits', async () => {
    const obj = newCronJob();
    Object.assign(obj.spec, { concurrencyPolicy: 'Forbid', suspend: true, successfulJobsHistoryLimit: 5, failedJobsHistoryLimit: 2 });
    await new CronJobCustomDefaulter().default(obj);
    expect(obj.spec).toMatchObject({ concurrencyPolicy: 'Forbid', suspend: true, successfulJobsHistoryLimit: 5, failedJobsHistoryLimit: 2 });
    const zero = newCronJob();
    Object.assign(zero.spec, { successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 0 });
    await new CronJobCustomDefaulter().default(zero);
    expect(zero.spec).toMatchObject({ successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 0 });
  });
});

describe('CronJob validating webhook', () => {
  const validator = new CronJobCustomValidator();

  it('admits valid schedules on create, update and delete', async () => {
    for (const schedule of ['*/5 * * * *', '0 0 * * *', '@hourly', '@every 90s', '0 0 * * sun']) {
      await expect(validator.validateCreate(newCronJob('ok', schedule))).resolves.toEqual([]);
      await expect(validator.validateUpdate(newCronJob('ok'), newCronJob('ok', schedule))).resolves.toEqual([]);
    }
    await expect(validator.validateDelete(newCronJob('ok', 'not validated on delete'))).resolves.toEqual([]);
  });

  it('allows names of 52 characters and rejects 53 and more', async () => {
    await expect(validator.validateCreate(newCronJob('a'.repeat(52)))).resolves.toEqual([]);
    const long = 'b'.repeat(79);
    await expect(validator.validateCreate(newCronJob(long))).rejects.toThrow(
      `CronJob.batch.tutorial.kubebuilder.io "${long}" is invalid: metadata.name: Invalid value: "${long}": must be no more than 52 characters`,
    );
  });

  it('rejects an unparsable schedule with the cron parser message', async () => {
    await expect(validator.validateCreate(newCronJob('s', 'invalid-cron-schedule'))).rejects.toThrow(
      'CronJob.batch.tutorial.kubebuilder.io "s" is invalid: spec.schedule: Invalid value: "invalid-cron-schedule": Expected exactly 5 fields, found 1: invalid-cron-schedule',
    );
    await expect(validator.validateCreate(newCronJob('s', ''))).rejects.toThrow('spec.schedule: Invalid value: "": Empty spec string');
  });

  it('lists every problem of an update in one Invalid error', async () => {
    const name = 'c'.repeat(53);
    const rejection = validator.validateUpdate(newCronJob('x'), newCronJob(name, '0 0 * * 7'));
    await expect(rejection).rejects.toBeInstanceOf(InvalidError);
    await expect(rejection).rejects.toThrow(
      `CronJob.batch.tutorial.kubebuilder.io "${name}" is invalid: [metadata.name: Invalid value: "${name}": must be no more than 52 characters, spec.schedule: Invalid value: "0 0 * * 7": End of range (7) above maximum (6): 7]`,
    );
  });
});

describe('CronJob webhook registration', () => {
  it('registers each handler at its marker path', () => {
    const registered: string[] = [];
    const record = (_kind: unknown, _handler: unknown, path: string): string => (registered.push(path), path);
    const mgr = { webhookServer: { registerDefaulter: record, registerValidator: record } } as unknown as Manager;
    expect(setupCronJobWebhookWithManager(mgr)).toEqual(['/mutate-batch-tutorial-kubebuilder-io-v1-cronjob', '/validate-batch-tutorial-kubebuilder-io-v1-cronjob']);
    expect(registered).toEqual(['/mutate-batch-tutorial-kubebuilder-io-v1-cronjob', '/validate-batch-tutorial-kubebuilder-io-v1-cronjob']);
  });
});
