/** CronJob scenarios: history limits and the envtest port (§5.1 CJ-4, 5, 16, 22). */
import type { Job } from 'kubernetes-types/batch/v1.js';
import { BuiltinKinds } from 'kubeforge/runtime';
import { CronJobKind, type CronJob } from '../api/v1/cronjob_types.js';
import { at, CronJobHarness, unix } from './harness.js';

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
    await h.admin.delete(await h.cronJob('hist'));
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

describe('CJ-22 Upstream envtest port', () => {
  let h: CronJobHarness;
  const ns = 'test-cronjob';
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  function ownedJob(name: string, owner: CronJob): Job {
    return {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name, namespace: ns, ownerReferences: [{ apiVersion: 'batch.tutorial.kubebuilder.io/v1', kind: 'CronJob', name: owner.metadata!.name!, uid: owner.metadata!.uid!, controller: true, blockOwnerDeletion: true }] },
      spec: testJobSpec(),
    };
  }

  function testJobSpec(): NonNullable<Job['spec']> {
    return { template: { spec: { containers: [{ name: 'test-container', image: 'test-image' }], restartPolicy: 'OnFailure' } } };
  }

  async function writeJobStatus(name: string, status: Job['status']): Promise<void> {
    const job = await h.admin.get(BuiltinKinds.Job, { namespace: ns, name });
    await h.admin.updateStatus({ ...job, status: { ...status, ready: 0, terminating: 0, uncountedTerminatedPods: {} } });
  }

  it('counts an owned active Job, then prunes the old finished Jobs beyond limits 1/1', async () => {
    await h.admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await h.admin.create<CronJob>({
      apiVersion: 'batch.tutorial.kubebuilder.io/v1',
      kind: 'CronJob',
      metadata: { name: ns, namespace: ns },
      spec: { schedule: '1 * * * *', jobTemplate: { spec: testJobSpec() } },
    });
    await h.env.settle();
    let cj = await h.admin.get(CronJobKind, { namespace: ns, name: ns });
    expect(cj.status?.conditions?.length).toBeGreaterThan(0);
    expect(cj.status?.active).toBeUndefined();

    await h.admin.create(ownedJob('test-job', cj));
    await writeJobStatus('test-job', { active: 2 });
    await h.env.settle();
    cj = await h.admin.get(CronJobKind, { namespace: ns, name: ns });
    expect(cj.status?.active?.map((r) => r.name)).toEqual(['test-job']);
    expect(cj.status?.conditions?.filter((c) => c.type === 'Available')).toEqual([expect.objectContaining({ status: 'True', reason: 'JobsActive' })]);

    await h.admin.update({ ...cj, spec: { ...cj.spec, successfulJobsHistoryLimit: 1, failedJobsHistoryLimit: 1 } });
    const now = h.env.cluster.clock.now();
    const t = (offsetMs: number): string => new Date(Math.floor((now + offsetMs) / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    const failed = (start: string) => ({ startTime: start, failed: 1, conditions: [
      { type: 'FailureTarget', status: 'True', reason: 'BackoffLimitExceeded', lastProbeTime: t(0), lastTransitionTime: t(0) },
      { type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', lastProbeTime: t(0), lastTransitionTime: t(0) },
    ] });
    const succeeded = (start: string) => ({ startTime: start, completionTime: start, succeeded: 1, conditions: [
      { type: 'SuccessCriteriaMet', status: 'True', lastProbeTime: t(0), lastTransitionTime: t(0) },
      { type: 'Complete', status: 'True', lastProbeTime: t(0), lastTransitionTime: t(0) },
    ] });
    const finished: Array<[string, Job['status']]> = [
      ['test-failed-job-old', failed(t(-60_000))],
      ['test-failed-job-new', failed(t(1000))],
      ['test-successful-job-old', succeeded(t(-60_000))],
      ['test-successful-job-new', succeeded(t(1000))],
    ];
    for (const [name, status] of finished) {
      await h.admin.create(ownedJob(name, cj));
      await writeJobStatus(name, status);
    }
    await h.env.settle();
    const names = (await h.admin.list(BuiltinKinds.Job, { namespace: ns })).map((j) => j.metadata!.name).sort();
    expect(names).toEqual(['test-failed-job-new', 'test-job', 'test-successful-job-new']);
  });
});
