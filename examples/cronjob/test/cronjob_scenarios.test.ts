/** Acceptance scenarios of the CronJob operator (reference-operators.md §5.1), on the virtual clock. */
import { parseAllDocuments } from 'yaml';
import { readFileSync } from 'node:fs';
import type { CronJob } from '../api/v1/cronjob_types.js';
import { at, CronJobHarness, sampleFile, unix } from './harness.js';

describe('CJ-1 Sample, first run', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  it('defaults the sample, reports no jobs, and creates the 10:01 Job at 10:01:00', async () => {
    const sample = parseAllDocuments(readFileSync(sampleFile, 'utf8'))[0]!.toJS() as CronJob;
    sample.metadata!.namespace = 'default';
    await h.env.client.create(sample);
    await h.env.settle();

    let cj = await h.cronJob('cronjob-sample');
    expect(cj.spec).toMatchObject({ suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1, concurrencyPolicy: 'Allow' });
    expect(await h.jobNames()).toEqual([]);
    expect(cj.status?.active).toBeUndefined();
    expect(cj.status?.lastScheduleTime).toBeUndefined();
    expect(h.condition(cj, 'Available')).toEqual({ status: 'True', reason: 'AllJobsCompleted', message: 'All jobs have completed successfully' });
    expect(h.condition(cj, 'Progressing')).toEqual({ status: 'False', reason: 'NoJobsActive', message: 'No jobs are currently active' });

    await h.stepTo('10:00:59');
    expect(await h.jobNames()).toEqual([]);
    await h.stepTo('10:01:00');
    const name = `cronjob-sample-${unix('10:01')}`;
    expect(await h.jobNames()).toEqual([name]);
    const job = await h.job(name);
    expect(job.metadata!.annotations!['batch.tutorial.kubebuilder.io/scheduled-at']).toBe('2024-01-15T10:01:00Z');
    expect(job.metadata!.ownerReferences).toEqual([
      { apiVersion: 'batch.tutorial.kubebuilder.io/v1', kind: 'CronJob', name: 'cronjob-sample', uid: cj.metadata!.uid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(job.spec).toMatchObject(sample.spec.jobTemplate.spec!); // the server adds Job/Pod defaults on top
    expect(new Date(job.metadata!.creationTimestamp!)).toEqual(at('10:01'));

    cj = await h.cronJob('cronjob-sample');
    expect(cj.status?.active).toEqual([{ apiVersion: 'batch/v1', kind: 'Job', name, namespace: 'default', uid: job.metadata!.uid, resourceVersion: expect.any(String) }]);
    expect(cj.status?.lastScheduleTime).toBe('2024-01-15T10:01:00Z');
    expect(h.condition(cj, 'Progressing')).toEqual({ status: 'True', reason: 'JobsActive', message: '1 job(s) are currently active' });
    expect(h.condition(cj, 'Available')).toEqual({ status: 'True', reason: 'JobsActive', message: 'CronJob is progressing with 1 active job(s)' });
  });
});

describe('CJ-2 Allow keeps both, CJ-23 Cascade, CJ-24 kubectl', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
    await h.createCronJob('cronjob-sample', { startingDeadlineSeconds: 60, concurrencyPolicy: 'Allow' });
  });
  afterAll(async () => h?.stop());

  it('CJ-2: a second run starts while the first is still active', async () => {
    await h.stepTo('10:01:00');
    await h.stepTo('10:02:00');
    const names = [`cronjob-sample-${unix('10:01')}`, `cronjob-sample-${unix('10:02')}`];
    expect(await h.jobNames()).toEqual(names);
    const cj = await h.cronJob('cronjob-sample');
    expect(new Set(cj.status?.active?.map((r) => r.name))).toEqual(new Set(names));
    expect(cj.status?.lastScheduleTime).toBe('2024-01-15T10:02:00Z');
    expect(h.condition(cj, 'Progressing')?.message).toBe('2 job(s) are currently active');
  });

  it('CJ-24: kubectl get shows only NAME and AGE', async () => {
    const out = await h.env.kubectl(['get', 'cronjobs.batch.tutorial.kubebuilder.io', '-n', 'default']);
    expect(out.code).toBe(0);
    const [header, row] = out.stdout.trim().split('\n');
    expect(header!.trim().split(/\s+/)).toEqual(['NAME', 'AGE']);
    expect(row!.trim().split(/\s+/)[0]).toBe('cronjob-sample');
  });

  it('CJ-23: deleting the CronJob (background) deletes the Jobs it controls', async () => {
    await h.env.client.delete(await h.cronJob('cronjob-sample'), { propagationPolicy: 'Background' });
    await h.env.settle();
    expect(await h.jobNames()).toEqual([]);
  });
});

describe('CJ-3 Completion', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  it('a completed Job leaves active empty and is kept (1 ≤ 3)', async () => {
    await h.createCronJob('cronjob-sample', { startingDeadlineSeconds: 60 });
    await h.stepTo('10:01:00');
    await h.stepTo('10:01:40');
    const name = `cronjob-sample-${unix('10:01')}`;
    await h.setJobStatus(name, 'Complete', { start: at('10:01'), end: at('10:01:40') });
    const cj = await h.cronJob('cronjob-sample');
    expect(cj.status?.active).toBeUndefined();
    expect(cj.status?.lastScheduleTime).toBe('2024-01-15T10:01:00Z');
    expect(h.condition(cj, 'Available')).toMatchObject({ status: 'True', reason: 'AllJobsCompleted' });
    expect(h.condition(cj, 'Progressing')).toMatchObject({ status: 'False', reason: 'NoJobsActive' });
    expect(await h.jobNames()).toEqual([name]);
  });
});

describe('CJ-4 Successful history limit', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  it('keeps the two newest completed Jobs, deleting the oldest startTime first', async () => {
    await h.createCronJob('hist', { successfulJobsHistoryLimit: 2 });
    for (const minute of ['10:01', '10:02', '10:03', '10:04']) {
      await h.stepTo(minute);
      await h.stepTo(`${minute}:30`);
      await h.setJobStatus(`hist-${unix(minute)}`, 'Complete');
    }
    expect(await h.jobNames()).toEqual([`hist-${unix('10:03')}`, `hist-${unix('10:04')}`]);
    expect((await h.cronJob('hist')).status?.lastScheduleTime).toBe('2024-01-15T10:04:00Z');
  });

  it('variant: a completed Job without startTime is deleted before any Job that has one', async () => {
    await h.env.client.delete(await h.cronJob('hist'));
    await h.createCronJob('nostart', { successfulJobsHistoryLimit: 1, schedule: '*/10 * * * *' });
    await h.stepTo('10:10:00');
    await h.setJobStatus(`nostart-${unix('10:10')}`, 'Complete', { start: at('10:10') });
    await h.stepTo('10:20:00');
    await h.setJobStatus(`nostart-${unix('10:20')}`, 'Complete', { start: null });
    expect((await h.jobNames()).filter((n) => n.startsWith('nostart'))).toEqual([`nostart-${unix('10:10')}`]);
  });
});

describe('CJ-5 Failed history + sticky conditions', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  it('keeps only the newest failed Job and stays Degraded / not Available', async () => {
    await h.createCronJob('fl', {});
    for (const minute of ['10:01', '10:02']) {
      await h.stepTo(minute);
      await h.stepTo(`${minute}:20`);
      await h.setJobStatus(`fl-${unix(minute)}`, 'Failed');
    }
    expect(await h.jobNames()).toEqual([`fl-${unix('10:02')}`]);
    let cj = await h.cronJob('fl');
    expect(h.condition(cj, 'Degraded')).toEqual({ status: 'True', reason: 'JobsFailed', message: '1 job(s) have failed' });
    expect(h.condition(cj, 'Available')).toMatchObject({ status: 'False', reason: 'JobsFailed' });

    await h.stepTo('10:03:00');
    expect(await h.jobNames()).toEqual([`fl-${unix('10:02')}`, `fl-${unix('10:03')}`]);
    cj = await h.cronJob('fl');
    expect(h.condition(cj, 'Available')).toMatchObject({ status: 'False', reason: 'JobsFailed' });
    expect(h.condition(cj, 'Degraded')).toMatchObject({ status: 'True' });
  });
});

describe('CJ-6 Forbid = late start of the latest missed run', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  it('blocks runs while a Job is active, then starts only the latest missed one', async () => {
    await h.createCronJob('fb', { concurrencyPolicy: 'Forbid' });
    await h.stepTo('10:03:00');
    expect(await h.jobNames()).toEqual([`fb-${unix('10:01')}`]);
    expect((await h.cronJob('fb')).status?.lastScheduleTime).toBe('2024-01-15T10:01:00Z');

    await h.stepTo('10:03:30');
    await h.setJobStatus(`fb-${unix('10:01')}`, 'Complete');
    expect(await h.jobNames()).toEqual([`fb-${unix('10:01')}`, `fb-${unix('10:03')}`]);
    const late = await h.job(`fb-${unix('10:03')}`);
    expect(late.metadata!.creationTimestamp).toBe('2024-01-15T10:03:30Z');
    expect(late.metadata!.annotations!['batch.tutorial.kubebuilder.io/scheduled-at']).toBe('2024-01-15T10:03:00Z');

    await h.stepTo('10:04:00');
    expect(await h.jobNames()).toEqual([`fb-${unix('10:01')}`, `fb-${unix('10:03')}`]);
  });
});

describe('CJ-8 Replace', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  it('deletes the active Job and starts the new run', async () => {
    await h.createCronJob('rp', { concurrencyPolicy: 'Replace' });
    await h.stepTo('10:01:00');
    await h.stepTo('10:02:00');
    expect(await h.jobNames()).toEqual([`rp-${unix('10:02')}`]);
    expect((await h.cronJob('rp')).status?.active?.map((r) => r.name)).toEqual([`rp-${unix('10:02')}`]);
  });
});

describe('CJ-9 Suspend/resume', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  it('creates nothing while suspended and only the latest run on resume', async () => {
    await h.createCronJob('sp', {});
    await h.stepTo('10:01:30');
    await h.setJobStatus(`sp-${unix('10:01')}`, 'Complete');
    await h.stepTo('10:01:45');
    await h.updateSpec('sp', { suspend: true });
    expect(h.condition(await h.cronJob('sp'), 'Available')).toEqual({ status: 'False', reason: 'Suspended', message: 'CronJob is suspended' });
    expect(await h.reconcileNow('sp')).toEqual({});

    await h.stepTo('10:05:10');
    expect(await h.jobNames()).toEqual([`sp-${unix('10:01')}`]);
    await h.updateSpec('sp', { suspend: false });
    expect(await h.jobNames()).toEqual([`sp-${unix('10:01')}`, `sp-${unix('10:05')}`]);
    expect((await h.job(`sp-${unix('10:05')}`)).metadata!.creationTimestamp).toBe('2024-01-15T10:05:10Z');
  });
});

describe('CJ-12 Impossible date', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  it('reports the too-many-missed error as InvalidSchedule and never requeues', async () => {
    await h.createCronJob('f30', { schedule: '0 0 30 2 *' });
    expect(await h.jobNames()).toEqual([]);
    const cj = await h.cronJob('f30');
    expect(h.condition(cj, 'Degraded')).toEqual({
      status: 'True',
      reason: 'InvalidSchedule',
      message: 'Failed to parse schedule: Too many missed start times (> 100). Set or decrease .spec.startingDeadlineSeconds or check clock skew.',
    });
    expect(await h.reconcileNow('f30')).toEqual({});
  });
});

describe('CJ-15 @every', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  it('runs 90 s after creation, then every 90 s', async () => {
    await h.createCronJob('ev', { schedule: '@every 90s' });
    await h.stepTo('10:01:59');
    expect(await h.jobNames()).toEqual([]);
    await h.stepTo('10:03:30');
    expect(await h.jobNames()).toEqual([`ev-${unix('10:02')}`, `ev-${unix('10:03:30')}`]);
    expect((await h.job(`ev-${unix('10:02')}`)).metadata!.annotations!['batch.tutorial.kubebuilder.io/scheduled-at']).toBe('2024-01-15T10:02:00Z');
    expect((await h.job(`ev-${unix('10:03:30')}`)).metadata!.annotations!['batch.tutorial.kubebuilder.io/scheduled-at']).toBe('2024-01-15T10:03:30Z');
  });
});

describe('CJ-16 History limit 0 [KF-CJ-1]', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  it('deletes the completed Job without re-running it; the next Job comes at 10:10', async () => {
    await h.createCronJob('z0', { schedule: '*/5 * * * *', successfulJobsHistoryLimit: 0 });
    await h.stepTo('10:05:00');
    expect(await h.jobNames()).toEqual([`z0-${unix('10:05')}`]);
    await h.stepTo('10:06:00');
    await h.setJobStatus(`z0-${unix('10:05')}`, 'Complete');
    expect(await h.jobNames()).toEqual([]);
    expect((await h.cronJob('z0')).status?.lastScheduleTime).toBe('2024-01-15T10:05:00Z');
    await h.stepTo('10:09:59');
    expect(await h.jobNames()).toEqual([]);
    await h.stepTo('10:10:00');
    expect(await h.jobNames()).toEqual([`z0-${unix('10:10')}`]);
  });
});
