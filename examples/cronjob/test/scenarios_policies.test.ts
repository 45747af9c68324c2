/** CronJob scenarios: concurrency, suspend, restart and the active cap (§5.1 CJ-6, 8, 9; §0.3.3; Q-CJ-3). */
import { CronJobHarness, unix } from './harness.js';

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

describe('Controller restart (§0.3.3): runs missed while the manager was down', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  it('starts only the latest missed run after the re-list, and never repeats an existing one', async () => {
    await h.createCronJob('rs', {});
    await h.stepTo('10:01:00');
    await h.env.stopManager();
    await h.stepTo('10:04:20');
    expect(await h.jobNames()).toEqual([`rs-${unix('10:01')}`]);
    await h.env.startManager();
    expect(await h.jobNames()).toEqual([`rs-${unix('10:01')}`, `rs-${unix('10:04')}`]);
    expect((await h.job(`rs-${unix('10:04')}`)).metadata!.creationTimestamp).toBe('2024-01-15T10:04:20Z');
    expect((await h.cronJob('rs')).status?.lastScheduleTime).toBe('2024-01-15T10:04:00Z');
  });
});

describe('Q-CJ-3 status.active holds at most 10 Jobs', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  it('stops creating Jobs once an 11th active Job makes the status write fail validation', async () => {
    await h.createCronJob('many', {});
    await h.stepTo('10:11:00');
    expect(await h.jobNames()).toHaveLength(11);
    expect((await h.cronJob('many')).status?.active).toHaveLength(10);
    await h.stepTo('10:12:00'); // the 10:12 run is not started: every pass fails at the status write
    expect(await h.jobNames()).toHaveLength(11);
  });
});
