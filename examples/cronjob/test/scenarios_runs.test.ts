/** CronJob scenarios: runs, status and kubectl (§5.1 CJ-1, 2, 3, 15, 23, 24). */
import { parseAllDocuments } from 'yaml';
import { readFileSync } from 'node:fs';
import { type CronJob } from '../api/v1/cronjob_types.js';
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
    await h.admin.create(sample);
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
    await h.admin.delete(await h.cronJob('cronjob-sample'), { propagationPolicy: 'Background' });
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
    await h.stepTo('10:02:00');
    expect(await h.jobNames()).toEqual([`ev-${unix('10:02')}`]);
    await h.stepTo('10:03:29');
    expect(await h.jobNames()).toEqual([`ev-${unix('10:02')}`]);
    await h.stepTo('10:03:30');
    expect(await h.jobNames()).toEqual([`ev-${unix('10:02')}`, `ev-${unix('10:03:30')}`]);
    expect((await h.job(`ev-${unix('10:02')}`)).metadata!.annotations!['batch.tutorial.kubebuilder.io/scheduled-at']).toBe('2024-01-15T10:02:00Z');
    expect((await h.job(`ev-${unix('10:03:30')}`)).metadata!.annotations!['batch.tutorial.kubebuilder.io/scheduled-at']).toBe('2024-01-15T10:03:30Z');
  });
});

describe('kubectl apply -f config/samples, then Jobs appear', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  it('admits the sample through the webhooks and shows its first Job in kubectl get jobs', async () => {
    const applied = await h.env.kubectl(['apply', '-n', 'default', '-f', sampleFile]);
    expect(applied.stderr).toBe('');
    expect(applied.stdout.trim()).toBe('cronjob.batch.tutorial.kubebuilder.io/cronjob-sample created');
    await h.env.settle();
    await h.stepTo('10:01:00');
    const jobs = await h.env.kubectl(['get', 'jobs', '-n', 'default', '-o', 'name']);
    expect(jobs.stdout.trim()).toBe(`job.batch/cronjob-sample-${unix('10:01')}`);
  });
});
