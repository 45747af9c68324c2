/** CronJob scenarios: bad schedules, ownership and template metadata (§5.1 CJ-12, 18, 20, 21). */
import { CronJobHarness, simpleTemplate, unix } from './harness.js';

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

describe('CJ-18 Ownership filter', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  it('ignores Jobs controlled by another kind or version, or owned without controller: true', async () => {
    const cj = await h.createCronJob('own', { schedule: '*/5 * * * *', successfulJobsHistoryLimit: 0, failedJobsHistoryLimit: 0 });
    const base = { apiVersion: 'batch.tutorial.kubebuilder.io/v1', kind: 'CronJob', name: 'own', uid: cj.metadata!.uid! };
    const foreign = {
      'other-kind': { ...base, kind: 'Other', controller: true },
      'other-version': { ...base, apiVersion: 'batch.tutorial.kubebuilder.io/v2', controller: true },
      'not-controller': { ...base, controller: false },
    };
    for (const [name, ref] of Object.entries(foreign)) {
      await h.admin.create({
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: { name, namespace: 'default', ownerReferences: [ref], annotations: { 'batch.tutorial.kubebuilder.io/scheduled-at': '2024-01-15T10:05:00Z' } },
        spec: simpleTemplate().spec!,
      });
    }
    await h.env.settle();
    let status = (await h.cronJob('own')).status;
    expect(status?.active).toBeUndefined();
    expect(status?.lastScheduleTime).toBeUndefined();

    await h.setJobStatus('other-kind', 'Complete');
    await h.setJobStatus('other-version', 'Failed');
    await h.setJobStatus('not-controller', 'Complete');
    await h.stepTo('10:05:00'); // a counted 10:05 annotation would have marked this run as done
    expect(await h.jobNames()).toEqual(['not-controller', 'other-kind', 'other-version', `own-${unix('10:05')}`]);
    status = (await h.cronJob('own')).status;
    expect(status?.active?.map((r) => r.name)).toEqual([`own-${unix('10:05')}`]);
    expect(status?.lastScheduleTime).toBe('2024-01-15T10:05:00Z');
  });
});

describe('CJ-20 Template metadata', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  // The tutorial's CRD gives jobTemplate.metadata no properties (controller-gen without
  // generateEmbeddedObjectMeta), so the API server prunes labels and annotations there, as a real 1.32 server
  // does; the copying itself is covered by internal/controller/job-for-run.test.ts.
  it('gets the real scheduled-at; template metadata is pruned by the CRD schema before the controller sees it', async () => {
    const template = simpleTemplate();
    template.metadata = { labels: { app: 'hello' }, annotations: { team: 'a', 'batch.tutorial.kubebuilder.io/scheduled-at': 'bogus' } };
    await h.createCronJob('meta', { jobTemplate: template });
    expect((await h.cronJob('meta')).spec.jobTemplate.metadata).toEqual({});
    await h.stepTo('10:01:00');
    const job = await h.job(`meta-${unix('10:01')}`);
    expect(job.metadata!.annotations).toEqual({ 'batch.tutorial.kubebuilder.io/scheduled-at': '2024-01-15T10:01:00Z' });
  });
});

describe('CJ-21 Webhooks off, bad schedule', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30', webhooks: false });
  });
  afterAll(async () => h?.stop());

  it('reports InvalidSchedule, creates nothing, never requeues; limits stay nil, policy defaults to Allow', async () => {
    await h.createCronJob('bad', { schedule: 'bad' });
    const cj = await h.cronJob('bad');
    expect(h.condition(cj, 'Degraded')).toEqual({
      status: 'True',
      reason: 'InvalidSchedule',
      message: 'Failed to parse schedule: unparseable schedule "bad": Expected exactly 5 fields, found 1: bad',
    });
    expect(h.condition(cj, 'Available')).toMatchObject({ status: 'True', reason: 'AllJobsCompleted' });
    expect(cj.spec.concurrencyPolicy).toBe('Allow');
    expect(cj.spec.successfulJobsHistoryLimit).toBeUndefined();
    expect(cj.spec.failedJobsHistoryLimit).toBeUndefined();
    expect(cj.spec.suspend).toBeUndefined();
    expect(await h.reconcileNow('bad')).toEqual({});
    await h.stepTo('10:05:00');
    expect(await h.jobNames()).toEqual([]);
  });

  it('without webhook defaults no history cleanup happens', async () => {
    await h.createCronJob('keep', { schedule: '*/1 * * * *' });
    for (const minute of ['10:06', '10:07', '10:08']) {
      await h.stepTo(minute);
      await h.setJobStatus(`keep-${unix(minute)}`, 'Failed');
    }
    expect((await h.jobNames()).filter((n) => n.startsWith('keep-'))).toHaveLength(3);
  });
});
