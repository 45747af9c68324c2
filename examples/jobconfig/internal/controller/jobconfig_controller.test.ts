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
 * The JobConfigController and the CronController on their own, against the local cluster on a virtual
 * clock: the test plays the Job side (JobQueueController/JobController) by writing Job status, so these
 * tests pin down exactly what the scheduling controllers decide — which Jobs, when, with which shape,
 * which events, and the JobConfig status computed from the Jobs.
 */
import { ApiError } from 'kubeforge/runtime';
import { SchedulingHarness, at, unix } from '../../test/scheduling-harness.js';
import { invalidCauses } from './cron_controller.js';

describe('scheduling a JobConfig created after start (JC-1, JC-3 [KF-F1])', () => {
  let h: SchedulingHarness;
  const name = 'jobconfig-sample';
  const first = `${name}-${unix('10:05')}`;
  beforeAll(async () => {
    h = await SchedulingHarness.start({ start: '10:00:00', mode: 'scheduling' });
  });
  afterAll(async () => h?.stop());

  it('reports ReadyEnabled with no Jobs right after creation', async () => {
    await h.createJobConfig(name, {
      template: { metadata: { annotations: { 'app.kubernetes.io/name': name } }, spec: { taskTemplate: { pod: { spec: { containers: [{ name: 'c', image: 'alpine' }] } } } } },
      concurrency: { policy: 'Forbid' },
      schedule: { cron: { expression: 'H/15 * * * *', timezone: 'Asia/Singapore' }, disabled: false },
    });
    expect((await h.jobConfig(name)).status).toEqual({ state: 'ReadyEnabled', active: 0, queued: 0 });
  });

  it('creates the scheduled Job at the hashed minute 10:05 with the documented shape', async () => {
    await h.stepTo('10:04:59');
    expect(await h.jobNames()).toEqual([]);
    await h.stepTo('10:05:00');
    expect(await h.jobNames()).toEqual([first]);
    const jobConfig = await h.jobConfig(name);
    const job = await h.job(first);
    expect(job.metadata!.labels).toEqual({ 'execution.furiko.io/job-config-uid': jobConfig.metadata!.uid });
    expect(job.metadata!.annotations).toEqual({ 'app.kubernetes.io/name': name, 'execution.furiko.io/schedule-time': String(unix('10:05')) });
    expect(job.metadata!.finalizers).toEqual(['execution.furiko.io/delete-dependents-finalizer']);
    expect(job.metadata!.ownerReferences).toEqual([{ apiVersion: 'execution.furiko.io/v1alpha1', kind: 'JobConfig', name, uid: jobConfig.metadata!.uid, controller: true, blockOwnerDeletion: true }]);
    expect(job.spec).toEqual({ type: 'Scheduled', startPolicy: { concurrencyPolicy: 'Forbid' }, template: jobConfig.spec.template.spec });
    expect(job.metadata!.creationTimestamp).toBe(at('10:05'));
    expect(await h.eventDetails(name)).toEqual([
      { reason: 'CreatedJob', message: `Successfully scheduled a new Job: ${first}`, type: 'Normal', component: 'CronController', kind: 'JobConfig', count: 1 },
    ]);
    expect(jobConfig.status).toEqual({
      state: 'JobQueued',
      active: 0,
      queued: 1,
      queuedJobs: [{ uid: job.metadata!.uid, name: first, creationTimestamp: at('10:05'), phase: 'Queued' }],
      lastScheduled: at('10:05'),
    });
  });

  it('counts the started Job as active and records lastExecuted', async () => {
    await h.setJobStatus(first, 'Pending', '10:05:00');
    const jobConfig = await h.jobConfig(name);
    expect(jobConfig.status).toMatchObject({ state: 'Executing', active: 1, queued: 0, lastScheduled: at('10:05'), lastExecuted: at('10:05') });
    expect(jobConfig.status!.activeJobs).toEqual([{ uid: expect.any(String), name: first, creationTimestamp: at('10:05'), phase: 'Pending', startTime: at('10:05') }]);
    expect(jobConfig.status!.queuedJobs).toBeUndefined();
  });

  it('JC-3: skips 10:20 under Forbid while the 10:05 Job runs', async () => {
    await h.stepTo('10:20:00');
    expect(await h.jobNames()).toEqual([first]);
    expect((await h.eventDetails(name)).at(-1)).toEqual({
      reason: 'SkippedJobSchedule',
      message: 'Skipped creating job due to concurrency policy Forbid',
      type: 'Warning',
      component: 'CronController',
      kind: 'JobConfig',
      count: 1,
    });
  });

  it('JC-3: reports Finished when the Job succeeds, then schedules 10:35 normally', async () => {
    await h.stepTo('10:25:00');
    await h.setJobStatus(first, 'Succeeded', '10:05:00');
    const jobConfig = await h.jobConfig(name);
    expect(jobConfig.status).toEqual({ state: 'ReadyEnabled', active: 0, queued: 0, lastScheduled: at('10:05'), lastExecuted: at('10:05') });
    expect((await h.eventDetails(name)).at(-1)).toMatchObject({ reason: 'Finished', message: `Job ${first} is complete`, type: 'Normal', component: 'JobConfigController' });
    await h.stepTo('10:34:59');
    expect(await h.jobNames()).toEqual([first]);
    await h.stepTo('10:35:00');
    expect(await h.jobNames()).toEqual([first, `${name}-${unix('10:35')}`]);
    expect((await h.jobConfig(name)).status!.lastScheduled).toBe(at('10:35'));
  });

  it('reports Deleted when an active Job disappears, and keeps lastScheduled', async () => {
    const second = `${name}-${unix('10:35')}`;
    await h.setJobStatus(second, 'Running', '10:35:00');
    expect((await h.jobConfig(name)).status!.active).toBe(1);
    const job = await h.job(second);
    await h.admin.update({ ...job, metadata: { ...job.metadata, finalizers: [] } }); // the JobController's part
    await h.admin.delete(await h.job(second));
    await h.env.settle();
    expect((await h.eventDetails(name)).at(-1)).toMatchObject({ reason: 'Deleted', message: `Job ${second} is deleted`, component: 'JobConfigController' });
    expect((await h.jobConfig(name)).status).toEqual({ state: 'ReadyEnabled', active: 0, queued: 0, lastScheduled: at('10:35'), lastExecuted: at('10:35') });
  });
});

describe('concurrency policies on the cron path (JC-4, JC-5, Q-F8)', () => {
  let h: SchedulingHarness;
  beforeAll(async () => {
    h = await SchedulingHarness.start({ start: '10:00:00', mode: 'scheduling' });
    const everyFive = { cron: { expression: '*/5 * * * *' } };
    await h.createJobConfig('enq', { concurrency: { policy: 'Enqueue' }, schedule: everyFive });
    await h.createJobConfig('al', { concurrency: { policy: 'Allow' }, schedule: everyFive });
    await h.createJobConfig('mc', { concurrency: { policy: 'Forbid', maxConcurrency: 2 }, schedule: everyFive });
    await h.createJobConfig('fb', { concurrency: { policy: 'Forbid' }, schedule: everyFive });
  });
  afterAll(async () => h?.stop());

  it('creates every JobConfig its 10:05 Job', async () => {
    await h.stepTo('10:05:00');
    for (const name of ['enq', 'al', 'mc', 'fb']) expect(await h.jobNames(name)).toEqual([`${name}-${unix('10:05')}`]);
    for (const name of ['enq', 'al', 'mc']) await h.setJobStatus(`${name}-${unix('10:05')}`, 'Running', '10:05:00');
  });

  it('at 10:10: Enqueue and Allow create while one runs, maxConcurrency 2 admits a second, a queued Job does not block Forbid', async () => {
    await h.stepTo('10:10:00');
    expect(await h.jobNames('enq')).toEqual([`enq-${unix('10:05')}`, `enq-${unix('10:10')}`]);
    expect(await h.jobNames('al')).toEqual([`al-${unix('10:05')}`, `al-${unix('10:10')}`]);
    expect(await h.jobNames('mc')).toEqual([`mc-${unix('10:05')}`, `mc-${unix('10:10')}`]);
    // Q-F8: fb's 10:05 Job was never started, so Forbid does not count it.
    expect(await h.jobNames('fb')).toEqual([`fb-${unix('10:05')}`, `fb-${unix('10:10')}`]);
    expect((await h.jobConfig('enq')).status).toMatchObject({ state: 'Executing', active: 1, queued: 1 });
    expect((await h.jobConfig('fb')).status).toMatchObject({ state: 'JobQueued', active: 0, queued: 2 });
    for (const name of ['al', 'mc']) await h.setJobStatus(`${name}-${unix('10:10')}`, 'Running', '10:10:00');
    expect((await h.jobConfig('al')).status).toMatchObject({ state: 'Executing', active: 2, queued: 0 });
  });

  it('at 10:15: maxConcurrency 2 is full, so Forbid skips', async () => {
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

describe('Jobs that cannot be created', () => {
  let h: SchedulingHarness;
  beforeAll(async () => {
    h = await SchedulingHarness.start({ start: '10:00:00', mode: 'scheduling' });
  });
  afterAll(async () => h?.stop());

  it('records CreateJobFailed when a required option has no default, and never creates the Job', async () => {
    await h.createJobConfig('opts', {
      schedule: { cron: { expression: '*/5 * * * *' } },
      option: { options: [{ type: 'String', name: 'user', required: true }] },
    });
    await h.stepTo('10:05:00');
    expect(await h.jobNames('opts')).toEqual([]);
    expect(await h.eventDetails('opts')).toEqual([
      { reason: 'CreateJobFailed', message: 'Failed to create new Job: spec.optionValues[user]: Required value: option is required', type: 'Warning', component: 'CronController', kind: 'JobConfig', count: 1 },
    ]);
  });

  it('records CreateJobFailed with the causes of an Invalid create, without retrying', async () => {
    await h.createJobConfig('badlabel', {
      template: { metadata: { labels: { team: 'not valid!' } }, spec: { taskTemplate: { pod: { spec: { containers: [{ name: 'c', image: 'alpine' }] } } } } },
      schedule: { cron: { expression: '*/5 * * * *' } },
    });
    await h.stepTo('10:10:00');
    await h.stepTo('10:10:30'); // past the 1 s retry backoff: an Invalid error is not retried
    expect(await h.jobNames('badlabel')).toEqual([]);
    const events = await h.eventDetails('badlabel');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ reason: 'CreateJobFailed', type: 'Warning', component: 'CronController', count: 1 });
    expect(events[0]!.message).toMatch(/^Failed to create new Job: metadata\.labels: Invalid value: "not valid!": /);
  });

  it('skips once the JobConfig already has 20 queued Jobs', async () => {
    await h.createJobConfig('full', { concurrency: { policy: 'Enqueue' }, schedule: { cron: { expression: '* * * * *' } } });
    await h.stepTo('10:30:00'); // 10:11 … 10:30: 20 queued Jobs (nothing starts them here)
    expect(await h.jobNames('full')).toHaveLength(20);
    expect((await h.jobConfig('full')).status).toMatchObject({ state: 'JobQueued', queued: 20, active: 0 });
    await h.stepTo('10:31:00');
    expect(await h.jobNames('full')).toHaveLength(20);
    expect((await h.events('full')).at(-1)).toBe('SkippedJobSchedule: Skipped creating job, cannot exceed maximum queue length of 20');
  });
});

describe('controller restart back-schedules from lastScheduled', () => {
  let h: SchedulingHarness;
  beforeAll(async () => {
    h = await SchedulingHarness.start({ start: '10:00:00', mode: 'scheduling' });
  });
  afterAll(async () => h?.stop());

  it('creates the Jobs missed while down (lastScheduled within 300 s), then continues', async () => {
    await h.createJobConfig('minutely', { schedule: { cron: { expression: '* * * * *' } } });
    await h.stepTo('10:01:00');
    expect(await h.jobNames('minutely')).toEqual([`minutely-${unix('10:01')}`]);
    expect((await h.jobConfig('minutely')).status!.lastScheduled).toBe(at('10:01'));
    await h.env.stopManager();
    await h.env.advanceTo(at('10:04:30'));
    await h.env.startManager();
    await h.stepTo('10:04:31');
    expect(await h.jobNames('minutely')).toEqual(['10:01', '10:02', '10:03', '10:04'].map((t) => `minutely-${unix(t)}`));
    await h.stepTo('10:05:00');
    expect(await h.jobNames('minutely')).toHaveLength(5);
  });

  it('after a clock jump creates only the 5 oldest missed schedules in one tick (Q-F3), then resumes after now', async () => {
    await h.env.advanceTo(at('10:15:00')); // 10:06 … 10:15 are due at once
    const names = await h.jobNames('minutely');
    expect(names.slice(5)).toEqual(['10:06', '10:07', '10:08', '10:09', '10:10'].map((t) => `minutely-${unix(t)}`));
    await h.stepTo('10:15:59');
    expect(await h.jobNames('minutely')).toHaveLength(10);
    await h.stepTo('10:16:00');
    expect((await h.jobNames('minutely')).at(-1)).toBe(`minutely-${unix('10:16')}`);
    expect(await h.jobNames('minutely')).toHaveLength(11);
  });
});

describe('invalidCauses', () => {
  it('joins the causes of a Status as "field: message", else uses its message', () => {
    const withCauses = new ApiError(422, { reason: 'Invalid', message: 'Job.execution.furiko.io "x" is invalid: [a, b]', details: { causes: [{ field: 'spec.a', message: 'Required value' }, { field: 'spec.b', message: 'Invalid value: 1' }] } }, 'POST');
    expect(invalidCauses(withCauses)).toBe('spec.a: Required value, spec.b: Invalid value: 1');
    expect(invalidCauses(new ApiError(422, { reason: 'Invalid', message: 'denied' }, 'POST'))).toBe('denied');
  });
});
