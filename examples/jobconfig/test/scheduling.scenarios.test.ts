/**
 * JobConfig scheduling scenarios (reference-operators.md §5.4: JC-1, JC-3, JC-4, JC-5, JC-10, JC-12, JC-13,
 * JC-14) with the whole operator — webhooks, CronController, JobConfigController, JobQueueController,
 * JobController — on the virtual clock; the tests play the kubelet (§5.4 "the Pod harness").
 */
import { SchedulingHarness, at, sampleJobConfig, unix } from './scheduling-harness.js';

describe('JC-1 Sample, hash schedule, creation [KF-F1]; JC-3 Forbid skip', () => {
  let h: SchedulingHarness;
  const name = 'jobconfig-sample';
  const jobName = `${name}-${unix('10:05')}`;
  const podName = `${jobName}-gezdqo-0`;
  beforeAll(async () => {
    h = await SchedulingHarness.start({ start: '10:00:00', mode: 'operator' });
  });
  afterAll(async () => h?.stop());

  it('JC-1: the created sample is defaulted and ReadyEnabled', async () => {
    await h.admin.create(sampleJobConfig());
    await h.env.settle();
    const jobConfig = await h.jobConfig(name);
    expect(jobConfig.spec.schedule!.lastUpdated).toBe(at('10:00'));
    expect(jobConfig.spec.template.spec).toMatchObject({ maxAttempts: 1, taskPendingTimeoutSeconds: 600 });
    expect(jobConfig.status).toEqual({ state: 'ReadyEnabled', active: 0, queued: 0 });
  });

  it('JC-1: kubectl get jobconfigs shows state, counts, schedule and time zone', async () => {
    const out = await h.env.kubectl(['get', 'jobconfigs', '-n', 'default']);
    expect(out.code).toBe(0);
    const [header, row] = out.stdout.trimEnd().split('\n');
    // Cells cut at the header's column offsets, so an empty cell shows as ''. The spec shows `<none>` for the
    // two unset date columns; real kubectl 1.32 prints nothing for the null cells the server sends.
    const starts = [...header!.matchAll(/\S+(?: \S+)*/g)].map((m) => m.index!);
    const cells = starts.map((start, i) => row!.slice(start, starts[i + 1]).trim());
    expect(header!.trim().split(/\s{2,}/)).toEqual(['NAME', 'AGE', 'STATE', 'ACTIVE', 'QUEUED', 'LAST EXECUTED', 'LAST SCHEDULED', 'CRON SCHEDULE', 'TIMEZONE']);
    expect(cells).toEqual([name, '0s', 'ReadyEnabled', '0', '0', '', '', 'H/15 * * * *', 'Asia/Singapore']);
  });

  it('JC-1: at 10:05 the scheduled Job is created, admitted, started, and its Pod created', async () => {
    await h.stepTo('10:04:59');
    expect(await h.jobNames()).toEqual([]);
    await h.stepTo('10:05:00');
    expect(await h.jobNames()).toEqual([jobName]);
    const jobConfig = await h.jobConfig(name);
    const uid = jobConfig.metadata!.uid!;
    const job = await h.job(jobName);
    expect(job.spec.type).toBe('Scheduled');
    expect(job.metadata!.annotations).toMatchObject({ 'app.kubernetes.io/name': name, 'execution.furiko.io/schedule-time': '1705313100' });
    expect(job.metadata!.labels).toMatchObject({ 'execution.furiko.io/job-config-uid': uid });
    expect(job.metadata!.finalizers).toEqual(['execution.furiko.io/delete-dependents-finalizer']);
    expect(job.metadata!.ownerReferences).toEqual([{ apiVersion: 'execution.furiko.io/v1alpha1', kind: 'JobConfig', name, uid, controller: true, blockOwnerDeletion: true }]);
    expect(job.spec.startPolicy).toEqual({ concurrencyPolicy: 'Forbid' });
    expect(job.spec.ttlSecondsAfterFinished).toBe(3600);
    expect(job.spec.substitutions).toEqual({
      'option.user-name': 'Example User',
      'option.image-tag': 'latest',
      'jobconfig.name': name,
      'jobconfig.namespace': 'default',
      'jobconfig.uid': uid,
    });
    expect(job.status?.startTime).toBe(at('10:05'));
    expect(await h.eventDetails(name)).toEqual([
      { reason: 'CreatedJob', message: `Successfully scheduled a new Job: ${jobName}`, type: 'Normal', component: 'CronController', kind: 'JobConfig', count: 1 },
    ]);
    expect(await h.events(jobName)).toEqual(expect.arrayContaining(['Started: Started job successfully', `Created: Created task of kind Pod: ${podName}`]));

    const pod = await h.pod(podName);
    expect(pod.metadata!.labels).toMatchObject({ 'execution.furiko.io/job-uid': job.metadata!.uid, 'execution.furiko.io/task-retry-index': '0', 'execution.furiko.io/task-parallel-index-hash': 'gezdqo' });
    expect(pod.metadata!.annotations).toMatchObject({ 'app.kubernetes.io/name': 'jobconfig-sample-pod', 'execution.furiko.io/task-parallel-index': '{"indexNumber":0}' });
    expect(pod.spec!.restartPolicy).toBe('Never');
    const container = pod.spec!.containers[0]!;
    expect(container.image).toBe('alpine:latest');
    expect(container.args).toEqual(['echo', 'Hello world, Example User!']);
    expect(container.env).toEqual([
      { name: 'JOBCONFIG_NAME', value: name },
      { name: 'JOB_NAME', value: jobName },
      { name: 'TASK_NAME', value: podName },
    ]);
    expect(job.status).toMatchObject({
      phase: 'Pending',
      state: 'Waiting',
      condition: { waiting: { reason: 'WaitingForTasks', message: 'Waiting for 1 task(s) to start running' } },
      createdTasks: 1,
      runningTasks: 0,
    });
    expect(jobConfig.status).toMatchObject({ state: 'Executing', active: 1, queued: 0, lastScheduled: at('10:05'), lastExecuted: at('10:05') });
  });

  it('JC-3: the Pod still runs at 10:20, so the 10:20 schedule is skipped', async () => {
    await h.stepTo('10:05:03');
    await h.runPod(podName, '10:05:03');
    await h.stepTo('10:20:00');
    expect(await h.jobNames()).toEqual([jobName]);
    expect((await h.eventDetails(name)).at(-1)).toEqual({
      reason: 'SkippedJobSchedule',
      message: 'Skipped creating job due to concurrency policy Forbid',
      type: 'Warning',
      component: 'CronController',
      kind: 'JobConfig',
      count: 1,
    });
  });

  it('JC-3: after the Pod succeeds at 10:25 the 10:35 Job is created normally (no late start)', async () => {
    await h.stepTo('10:25:00');
    await h.finishPod(podName, '10:25:00', 'Succeeded');
    expect((await h.job(jobName)).status?.phase).toBe('Succeeded');
    const jobConfig = await h.jobConfig(name);
    expect(jobConfig.status).toMatchObject({ state: 'ReadyEnabled', active: 0, queued: 0 });
    expect(await h.events(name)).toContain(`Finished: Job ${jobName} is complete`);
    await h.stepTo('10:34:59');
    expect(await h.jobNames()).toEqual([jobName]);
    await h.stepTo('10:35:00');
    expect(await h.jobNames()).toEqual([jobName, `${name}-${unix('10:35')}`]);
    expect((await h.job(`${name}-${unix('10:35')}`)).status?.startTime).toBe(at('10:35'));
  });
});

describe('JC-4 Enqueue', () => {
  let h: SchedulingHarness;
  const first = `enq-${unix('10:05')}`;
  const second = `enq-${unix('10:10')}`;
  beforeAll(async () => {
    h = await SchedulingHarness.start({ start: '10:00:00', mode: 'operator' });
    await h.createJobConfig('enq', { concurrency: { policy: 'Enqueue' }, schedule: { cron: { expression: '*/5 * * * *' } } });
  });
  afterAll(async () => h?.stop());

  it('the 10:10 Job waits in the queue while the 10:05 Job runs', async () => {
    await h.stepTo('10:05:00');
    await h.runPod(`${first}-gezdqo-0`, '10:05:00');
    await h.stepTo('10:10:00');
    expect(await h.jobNames()).toEqual([first, second]);
    const queued = await h.job(second);
    expect(queued.status).toMatchObject({
      phase: 'Queued',
      state: 'Queued',
      condition: { queueing: { reason: 'Queued', message: 'Job is queued and may be pending other concurrent jobs to be finished' } },
    });
    expect(queued.status?.startTime).toBeUndefined();
    expect((await h.jobConfig('enq')).status).toMatchObject({ state: 'Executing', active: 1, queued: 1 });
  });

  it('starts the queued Job when the first Pod succeeds at 10:12', async () => {
    await h.stepTo('10:12:00');
    await h.finishPod(`${first}-gezdqo-0`, '10:12:00', 'Succeeded');
    const started = await h.job(second);
    expect(started.status?.startTime).toBe(at('10:12'));
    expect((await h.pods()).map((p) => p.metadata!.name)).toContain(`${second}-gezdqo-0`);
    expect((await h.jobConfig('enq')).status).toMatchObject({ state: 'Executing', active: 1, queued: 0, lastExecuted: at('10:12'), lastScheduled: at('10:10') });
  });
});

describe('JC-5 Allow and maxConcurrency', () => {
  let h: SchedulingHarness;
  beforeAll(async () => {
    h = await SchedulingHarness.start({ start: '10:00:00', mode: 'operator' });
    await h.createJobConfig('al', { concurrency: { policy: 'Allow' }, schedule: { cron: { expression: '*/5 * * * *' } } });
    await h.createJobConfig('mc', { concurrency: { policy: 'Forbid', maxConcurrency: 2 }, schedule: { cron: { expression: '*/5 * * * *' } } });
  });
  afterAll(async () => h?.stop());

  it('Allow: at 10:10 two Jobs are active', async () => {
    await h.stepTo('10:10:00');
    expect(await h.jobNames('al')).toEqual([`al-${unix('10:05')}`, `al-${unix('10:10')}`]);
    const status = (await h.jobConfig('al')).status!;
    expect(status).toMatchObject({ state: 'Executing', active: 2, queued: 0 });
    expect(status.activeJobs!.map((r) => r.name)).toEqual([`al-${unix('10:05')}`, `al-${unix('10:10')}`]);
  });

  it('Forbid with maxConcurrency 2: the 10:05 and 10:10 Jobs start, 10:15 is skipped', async () => {
    for (const name of [`mc-${unix('10:05')}`, `mc-${unix('10:10')}`]) expect((await h.job(name)).status?.startTime).toBeDefined();
    await h.stepTo('10:15:00');
    expect(await h.jobNames('mc')).toEqual([`mc-${unix('10:05')}`, `mc-${unix('10:10')}`]);
    expect(await h.events('mc')).toEqual([
      `CreatedJob: Successfully scheduled a new Job: mc-${unix('10:05')}`,
      `CreatedJob: Successfully scheduled a new Job: mc-${unix('10:10')}`,
      'SkippedJobSchedule: Skipped creating job due to concurrency policy Forbid',
    ]);
    expect(await h.jobNames('al')).toHaveLength(3);
  });
});

describe('JC-10 Disable / enable without back-scheduling', () => {
  let h: SchedulingHarness;
  const name = 'jobconfig-sample';
  beforeAll(async () => {
    h = await SchedulingHarness.start({ start: '10:00:00', mode: 'operator' });
    const sample = sampleJobConfig();
    sample.spec.schedule!.disabled = true;
    await h.admin.create(sample);
    await h.env.settle();
  });
  afterAll(async () => h?.stop());

  it('a disabled schedule is ReadyDisabled and makes no Jobs at 10:05 or 10:20', async () => {
    expect((await h.jobConfig(name)).status).toEqual({ state: 'ReadyDisabled', active: 0, queued: 0 });
    await h.stepTo('10:05:00');
    await h.stepTo('10:20:00');
    expect(await h.jobNames()).toEqual([]);
  });

  it('enabling at 10:27 bumps lastUpdated and schedules 10:35, not the missed 10:20', async () => {
    await h.stepTo('10:27:00');
    await h.updateJobConfigSpec(name, (spec) => (spec.schedule!.disabled = false));
    const jobConfig = await h.jobConfig(name);
    expect(jobConfig.spec.schedule!.lastUpdated).toBe(at('10:27'));
    expect(jobConfig.status!.state).toBe('ReadyEnabled');
    await h.stepTo('10:34:59');
    expect(await h.jobNames()).toEqual([]);
    await h.stepTo('10:35:00');
    expect(await h.jobNames()).toEqual([`${name}-${unix('10:35')}`]);
  });
});

describe('JC-12 Constraints', () => {
  let h: SchedulingHarness;
  beforeAll(async () => {
    h = await SchedulingHarness.start({ start: '10:00:00', mode: 'operator' });
    await h.createJobConfig('nb', { schedule: { cron: { expression: '0 * * * *' }, constraints: { notBefore: '2024-01-16T00:00:00Z' } } });
    await h.createJobConfig('na', { schedule: { cron: { expression: '0 * * * *' }, constraints: { notAfter: '2024-01-15T12:00:00Z' } } });
  });
  afterAll(async () => h?.stop());

  it('notAfter (inclusive): Jobs at 11:00 and 12:00, none afterwards', async () => {
    await h.stepTo('11:00:00');
    expect(await h.jobNames('na')).toEqual([`na-${unix('11:00')}`]);
    await h.stepTo('12:00:00');
    expect(await h.jobNames('na')).toEqual([`na-${unix('11:00')}`, `na-${unix('12:00')}`]);
    expect(await h.events('na')).toContain(`CreatedJob: Successfully scheduled a new Job: na-${unix('12:00')}`);
    // Finished Jobs are deleted an hour after finishing (TTL) and Events expire, but lastScheduled never
    // decreases and every scheduled Job raises it: still 12:00 at 15:00 means nothing was scheduled after.
    await h.stepTo('15:00:00');
    expect((await h.jobNames('na')).filter((n) => n > `na-${unix('12:00')}`)).toEqual([]);
    expect((await h.jobConfig('na')).status!.lastScheduled).toBe(at('12:00'));
  });

  it('notBefore (inclusive): nothing before, the first Job at 2024-01-16T00:00:00Z', async () => {
    expect(await h.jobNames('nb')).toEqual([]);
    await h.env.advanceTo('2024-01-15T23:59:00Z');
    await h.stepTo('2024-01-15T23:59:59Z');
    expect(await h.jobNames('nb')).toEqual([]);
    await h.stepTo('2024-01-16T00:00:00Z');
    expect(await h.jobNames('nb')).toEqual(['nb-1705363200']);
  });
});

describe('JC-13 Time zones and multiple expressions', () => {
  let h: SchedulingHarness;
  beforeAll(async () => {
    h = await SchedulingHarness.start({ start: '10:00:00', mode: 'operator' });
  });
  afterAll(async () => h?.stop());

  it('admits UTC+1 and rejects an unknown zone', async () => {
    await h.createJobConfig('utcplus', { schedule: { cron: { expression: '0 10 * * *', timezone: 'UTC+1' } } });
    expect((await h.jobConfig('utcplus')).status!.state).toBe('ReadyEnabled');
    await expect(h.createJobConfig('mars', { schedule: { cron: { expression: '0 10 * * *', timezone: 'Mars/Olympus' } } })).rejects.toThrow(
      'spec.schedule.cron.timezone: Invalid value: "Mars/Olympus": cannot parse timezone',
    );
  });

  it('an instant produced by two expressions yields one Job', async () => {
    await h.createJobConfig('multi', { schedule: { cron: { expressions: ['0/30 * * * *', '0 * * * *'] } } });
    await h.stepTo('11:00:00');
    expect(await h.jobNames('multi')).toEqual([`multi-${unix('10:30')}`, `multi-${unix('11:00')}`]);
    expect((await h.events('multi')).filter((e) => e.startsWith('CreatedJob'))).toEqual([`CreatedJob: Successfully scheduled a new Job: multi-${unix('10:30')}`, `CreatedJob: Successfully scheduled a new Job: multi-${unix('11:00')}`]);
    await h.admin.delete(await h.jobConfig('multi'));
    await h.env.settle();
  });

  it('0 10 * * * in Asia/Singapore first runs at 2024-01-16T02:00:00Z; UTC+1 at 09:00Z', async () => {
    await h.createJobConfig('sg', { schedule: { cron: { expression: '0 10 * * *', timezone: 'Asia/Singapore' } } });
    await h.env.advanceTo('2024-01-16T01:59:00Z');
    expect(await h.jobNames('sg')).toEqual([]);
    await h.stepTo('2024-01-16T02:00:00Z');
    expect(await h.jobNames('sg')).toEqual(['sg-1705370400']);
    await h.env.advanceTo('2024-01-16T08:59:00Z');
    await h.stepTo('2024-01-16T09:00:00Z');
    expect(await h.jobNames('utcplus')).toEqual([`utcplus-${Date.parse('2024-01-16T09:00:00Z') / 1000}`]);
  });
});

describe('JC-14 Hash vectors', () => {
  let h: SchedulingHarness;
  beforeAll(async () => {
    h = await SchedulingHarness.start({ start: '10:00:00', mode: 'operator' });
    await h.createJobConfig('nightly', { schedule: { cron: { expression: 'H H * * *' } } });
    await h.createJobConfig('hash-cron-expression', { concurrency: { policy: 'Forbid' }, schedule: { cron: { expression: 'H H/5 * * * * *' } } });
    // Q-F4: `H/3` in day-of-month starts at value(0, 2): 1 for default/job-d, 0 (a parse error) for default/job-f.
    await h.createJobConfig('job-d', { schedule: { cron: { expression: '0 0 H/3 * *' } } });
    await h.createJobConfig('job-f', { schedule: { cron: { expression: '0 0 H/3 * *' } } });
  });
  afterAll(async () => h?.stop());

  it('H H/5 * * * * * runs at 10:00:25, 10:05:25, …', async () => {
    await h.stepTo('10:00:24');
    expect(await h.jobNames('hash-cron-expression')).toEqual([]);
    await h.stepTo('10:00:25');
    expect(await h.jobNames('hash-cron-expression')).toEqual(['hash-cron-expression-1705312825']);
    await h.finishPod('hash-cron-expression-1705312825-gezdqo-0', '10:00:30', 'Succeeded');
    await h.stepTo('10:05:25');
    expect(await h.jobNames('hash-cron-expression')).toEqual(['hash-cron-expression-1705312825', 'hash-cron-expression-1705313125']);
    await h.admin.delete(await h.jobConfig('hash-cron-expression'));
    await h.env.settle();
  });

  it('H H * * * for default/nightly runs daily at 17:03', async () => {
    await h.env.advanceTo(at('17:02:00'));
    expect(await h.jobNames('nightly')).toEqual([]);
    await h.stepTo('17:03:00');
    expect(await h.jobNames('nightly')).toEqual(['nightly-1705338180']);
    expect(await h.events('nightly')).toContain('CreatedJob: Successfully scheduled a new Job: nightly-1705338180');
    await h.env.advanceTo('2024-01-16T17:02:00Z');
    // lastScheduled still at the first Job's time shows nothing was scheduled in between.
    expect((await h.jobConfig('nightly')).status!.lastScheduled).toBe(at('17:03'));
    await h.stepTo('2024-01-16T17:02:59Z');
    expect(await h.jobNames('nightly')).toEqual(['nightly-1705338180']);
    await h.stepTo('2024-01-16T17:03:00Z');
    expect(await h.jobNames('nightly')).toEqual(['nightly-1705338180', `nightly-${1705338180 + 86400}`]);
    expect((await h.jobConfig('nightly')).status!.lastScheduled).toBe('2024-01-16T17:03:00Z');
  });

  it('Q-F4: H/3 in day-of-month runs job-d on days 1, 4, …, 19; job-f is admitted yet never scheduled', async () => {
    expect((await h.jobConfig('job-f')).status!.state).toBe('ReadyEnabled');
    await h.env.advanceTo('2024-01-18T23:59:00Z');
    await h.stepTo('2024-01-19T00:00:00Z');
    expect(await h.jobNames('job-d')).toContain(`job-d-${Date.parse('2024-01-19T00:00:00Z') / 1000}`);
    expect(await h.jobNames('job-f')).toEqual([]);
    expect(await h.events('job-f')).toEqual([]);
  });
});
