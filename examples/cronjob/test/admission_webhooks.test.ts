/** CJ-13 / CJ-14: the defaulting and validating webhooks, called by the local API server on create/update. */
import { BuiltinKinds, isNotFound, type KubeObject } from 'kubeforge/runtime';
import type { CronJob } from '../api/v1/cronjob_types.js';
import { CronJobHarness } from './harness.js';

describe('CronJob admission webhooks', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  /** Creates and returns the API error text, or '' when the object was admitted. */
  async function createError(name: string, schedule: string): Promise<string> {
    try {
      await h.createCronJob(name, { schedule });
      return '';
    } catch (err) {
      return (err as Error).message;
    }
  }

  async function exists(name: string): Promise<boolean> {
    try {
      await h.cronJob(name);
      return true;
    } catch (err) {
      if (isNotFound(err)) return false;
      throw err;
    }
  }

  it('CJ-13 Defaulting webhook: unset fields get Allow/false/3/1, explicit ones are kept', async () => {
    await h.createCronJob('defaults', {});
    expect((await h.cronJob('defaults')).spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
    await h.createCronJob('explicit', { concurrencyPolicy: 'Forbid', suspend: true, successfulJobsHistoryLimit: 5, failedJobsHistoryLimit: 2 });
    expect((await h.cronJob('explicit')).spec).toMatchObject({ concurrencyPolicy: 'Forbid', suspend: true, successfulJobsHistoryLimit: 5, failedJobsHistoryLimit: 2 });
  });

  it('CJ-14 Validating webhook: names up to 52 characters', async () => {
    const ok = 'a'.repeat(52);
    expect(await createError(ok, '*/1 * * * *')).toBe('');
    const long = 'b'.repeat(53);
    expect(await createError(long, '*/1 * * * *')).toContain(`metadata.name: Invalid value: "${long}": must be no more than 52 characters`);
    // the denial keeps the Invalid status (422), as controller-runtime answers for apierrors.NewInvalid
    await expect(h.createCronJob(long, { schedule: '*/1 * * * *' })).rejects.toMatchObject({ code: 422 });
    expect(await exists(long)).toBe(false);
  });

  it.each([
    ['invalid-cron-schedule', 'spec.schedule: Invalid value: "invalid-cron-schedule": Expected exactly 5 fields, found 1: invalid-cron-schedule'],
    ['0 0 * * 7', 'End of range (7) above maximum (6): 7'],
    ['60 * * * *', 'End of range (60) above maximum (59): 60'],
    ['*/0 * * * *', 'Step of range should be a positive number: */0'],
    ['', 'Empty spec string'],
  ])('CJ-14 Validating webhook: schedule %j is rejected', async (schedule, message) => {
    const name = `bad-${Buffer.from(schedule).toString('hex').slice(0, 20) || 'empty'}`;
    const error = await createError(name, schedule);
    expect(error).toContain(message);
    expect(error).toContain(`CronJob.batch.tutorial.kubebuilder.io "${name}" is invalid`);
    expect(await exists(name)).toBe(false);
  });

  it.each(['@hourly', '@every 90s', '0 0 * * sun'])('CJ-14 Validating webhook: schedule %j is accepted', async (schedule) => {
    const name = `good-${Buffer.from(schedule).toString('hex').slice(0, 20)}`;
    expect(await createError(name, schedule)).toBe('');
  });

  it('CJ-14 Validating webhook: an update with a bad name and a bad schedule lists both, and changes nothing', async () => {
    // A 53-character CronJob can only exist if it was created while the validating webhook was off.
    const admin = h.admin;
    const config = await admin.get(BuiltinKinds.ValidatingWebhookConfiguration, { name: 'validating-webhook-configuration' });
    await h.admin.delete(config);
    const long = 'c'.repeat(53);
    await h.createCronJob(long, { schedule: '*/1 * * * *' });
    const { resourceVersion: _rv, uid: _uid, creationTimestamp: _ct, managedFields: _mf, generation: _g, ...metadata } = config.metadata!;
    await h.admin.create({ ...config, metadata } as KubeObject);
    await h.env.settle();

    const before = await h.cronJob(long);
    let error = '';
    try {
      await h.admin.update<CronJob>({ ...before, spec: { ...before.spec, schedule: '0 0 * * 7' } });
    } catch (err) {
      error = (err as Error).message;
    }
    expect(error).toContain(
      `[metadata.name: Invalid value: "${long}": must be no more than 52 characters, spec.schedule: Invalid value: "0 0 * * 7": End of range (7) above maximum (6): 7]`,
    );
    expect((await h.cronJob(long)).spec.schedule).toBe('*/1 * * * *');
  });
});
