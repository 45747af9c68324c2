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
 * The JobController against kubeforge's local cluster on a virtual clock: the Job scenarios of
 * reference-operators spec §5.4 it owns (JC-2 Job side, JC-18, JC-19, JC-20, JC-22), with Pods driven by
 * the test as §0.3.10 says.
 */
import { JobReconciler } from './job_controller.js';
import { iso, JobScenario, sampleTemplate } from '../../test/job-scenario.js';

const sampleSubstitutions = { 'option.user-name': 'John Smith', 'option.image-tag': '3.15.0' };

describe('JC-18 Retries (independent sample Job)', () => {
  let s: JobScenario;
  beforeAll(async () => {
    s = await JobScenario.start('10:00:00');
  });
  afterAll(async () => s?.stop());

  it('starts at once and runs the substituted Pod of retry 0', async () => {
    await s.createJob('job-sample', { substitutions: sampleSubstitutions, template: sampleTemplate({ maxAttempts: 3, retryDelaySeconds: 15, taskPendingTimeoutSeconds: 1800 }) });
    const job = await s.job('job-sample');
    expect(job.status?.startTime).toBe(iso('10:00:00'));
    expect(await s.podNames()).toEqual(['job-sample-gezdqo-0']);
    const pod = await s.pod('job-sample-gezdqo-0');
    expect(pod.spec!.containers[0]!.image).toBe('alpine:3.15.0');
    expect(pod.spec!.containers[0]!.args).toEqual(['echo', 'Hello world, John Smith!']);
    expect(await s.podEnv('job-sample-gezdqo-0')).toMatchObject({ TASK_RETRY_INDEX: '0', JOB_NAME: 'job-sample', TASK_NAME: 'job-sample-gezdqo-0', JOBCONFIG_NAME: '' });
    expect(pod.metadata!.labels).toMatchObject({ 'execution.furiko.io/job-uid': job.metadata!.uid, 'execution.furiko.io/task-retry-index': '0', 'execution.furiko.io/task-parallel-index-hash': 'gezdqo' });
    // The template's own Pod metadata is carried over too (task-pod.test.ts); the stored Job keeps it only once
    // the CRD preserves taskTemplate.pod.metadata.
    expect(pod.metadata!.annotations).toMatchObject({ 'execution.furiko.io/task-parallel-index': '{"indexNumber":0}' });
    expect(pod.metadata!.ownerReferences).toEqual([{ apiVersion: 'execution.furiko.io/v1alpha1', kind: 'Job', name: 'job-sample', uid: job.metadata!.uid, controller: true, blockOwnerDeletion: true }]);
    expect(job.status).toMatchObject({ phase: 'Pending', state: 'Waiting', createdTasks: 1, runningTasks: 0 });
    expect(job.status?.condition).toEqual({ waiting: { reason: 'WaitingForTasks', message: 'Waiting for 1 task(s) to start running' } });
    expect(await s.events('job-sample')).toEqual([
      ['Started', 'Started job successfully'],
      ['Created', 'Created task of kind Pod: job-sample-gezdqo-0'],
    ]);
    expect(await s.eventSources('job-sample')).toEqual(['JobController']);
  });

  it('backs off after a failure, then retries 15 s after it with TASK_RETRY_INDEX=1', async () => {
    await s.podEnds('job-sample-gezdqo-0', 'Failed', '10:00:20');
    let job = await s.job('job-sample');
    expect(job.status?.phase).toBe('RetryBackoff');
    expect(job.status?.condition).toEqual({ waiting: { reason: 'RetryBackoff', message: 'Waiting to retry creating 1 task(s)' } });
    expect(job.status?.tasks?.[0]).toMatchObject({ name: 'job-sample-gezdqo-0', finishTimestamp: iso('10:00:20'), status: { state: 'Terminated', result: 'Failed' } });

    await s.stepTo('10:00:34');
    expect(await s.podNames()).toEqual(['job-sample-gezdqo-0']);
    await s.stepTo('10:00:35');
    expect(await s.podNames()).toEqual(['job-sample-gezdqo-0', 'job-sample-gezdqo-1']);
    expect((await s.pod('job-sample-gezdqo-1')).metadata!.creationTimestamp).toBe(iso('10:00:35'));
    expect(await s.podEnv('job-sample-gezdqo-1')).toMatchObject({ TASK_RETRY_INDEX: '1', TASK_NAME: 'job-sample-gezdqo-1' });
    job = await s.job('job-sample');
    expect(job.status).toMatchObject({ phase: 'Retrying', createdTasks: 2 });
  });

  it('fails for good after the third attempt, with no fourth Pod', async () => {
    await s.podEnds('job-sample-gezdqo-1', 'Failed', '10:00:50');
    await s.stepTo('10:01:05');
    expect(await s.podNames()).toEqual(['job-sample-gezdqo-0', 'job-sample-gezdqo-1', 'job-sample-gezdqo-2']);
    await s.podEnds('job-sample-gezdqo-2', 'Failed', '10:01:20');
    await s.stepTo('10:05:00');
    const job = await s.job('job-sample');
    expect(job.status).toMatchObject({ phase: 'Failed', state: 'Finished', createdTasks: 3, runningTasks: 0 });
    expect(job.status?.condition.finished).toMatchObject({ result: 'Failed', finishTime: iso('10:01:20'), latestCreationTimestamp: iso('10:01:05') });
    expect(await s.podNames()).toHaveLength(3);
    expect((await s.events('job-sample')).at(-1)).toEqual(['Failed', 'Job failed with result: Failed', 'Warning']);
  });

  it('is deleted with its Pods one TTL (3600 s) after it finished', async () => {
    await s.stepTo('11:01:19');
    expect(await s.jobExists('job-sample')).toBe(true);
    await s.stepTo('11:01:20');
    expect(await s.jobExists('job-sample')).toBe(false);
    expect(await s.podNames()).toEqual([]);
  });
});

describe('JC-19 Pending timeout', () => {
  let s: JobScenario;
  beforeAll(async () => {
    s = await JobScenario.start('10:05:00');
  });
  afterAll(async () => s?.stop());

  it('kills a Pod that never runs after 600 s; with one attempt the Job fails', async () => {
    await s.createJob('pend', { template: sampleTemplate({ taskPendingTimeoutSeconds: 600, maxAttempts: 1 }) });
    expect((await s.job('pend')).status?.startTime).toBe(iso('10:05:00'));
    await s.stepTo('10:14:59');
    expect(await s.podNames()).toEqual(['pend-gezdqo-0']);
    await s.stepTo('10:15:00');
    expect(await s.podNames()).toEqual([]);
    const job = await s.job('pend');
    expect(job.status?.tasks).toEqual([
      expect.objectContaining({
        name: 'pend-gezdqo-0',
        finishTimestamp: iso('10:15:00'),
        status: { state: 'Terminated', result: 'Killed', reason: 'PendingTimeout', message: 'Task exceeded pending timeout of 10m0s' },
      }),
    ]);
    expect(job.status).toMatchObject({ phase: 'Failed', condition: { finished: { result: 'Failed', finishTime: iso('10:15:00') } } });
    expect(await s.events('pend')).toContainEqual(['Deleted', 'Deleted task pend-gezdqo-0', 'Warning']);
  });

  it('retries at once when a second attempt is allowed', async () => {
    await s.createJob('pend2', { template: sampleTemplate({ taskPendingTimeoutSeconds: 600, maxAttempts: 2 }) });
    await s.stepTo('10:25:00');
    expect(await s.podNames()).toEqual(['pend2-gezdqo-1']);
    expect((await s.pod('pend2-gezdqo-1')).metadata!.creationTimestamp).toBe(iso('10:25:00'));
    const job = await s.job('pend2');
    expect(job.status).toMatchObject({ phase: 'Retrying', createdTasks: 2 });
  });
});

describe('JC-20 Parallel, AllSuccessful', () => {
  let s: JobScenario;
  beforeAll(async () => {
    s = await JobScenario.start('10:00:00');
  });
  afterAll(async () => s?.stop());

  it('creates one Pod per index, named by index hash, with task.index_num', async () => {
    await s.createJob('par', { template: sampleTemplate({ parallelism: { withCount: 3 } }) });
    expect(await s.podNames()).toEqual(['par-geytio-0', 'par-gezdqo-0', 'par-gi3dgn-0']);
    expect((await s.podEnv('par-gezdqo-0')).TASK_INDEX_NUM).toBe('0');
    expect((await s.podEnv('par-gi3dgn-0')).TASK_INDEX_NUM).toBe('1');
    expect((await s.podEnv('par-geytio-0')).TASK_INDEX_NUM).toBe('2');
    expect((await s.pod('par-geytio-0')).metadata!.annotations!['execution.furiko.io/task-parallel-index']).toBe('{"indexNumber":2}');
    const job = await s.job('par');
    expect(job.status?.phase).toBe('Pending');
    expect(job.status?.condition.waiting?.reason).toBe('WaitingForTasks');
    expect(job.status?.parallelStatus).toEqual({
      complete: false,
      indexes: [
        { index: { indexNumber: 0 }, hash: 'gezdqo', createdTasks: 1, state: 'Starting' },
        { index: { indexNumber: 1 }, hash: 'gi3dgn', createdTasks: 1, state: 'Starting' },
        { index: { indexNumber: 2 }, hash: 'geytio', createdTasks: 1, state: 'Starting' },
      ],
    });
  });

  it('runs once every index runs', async () => {
    for (const pod of ['par-gezdqo-0', 'par-gi3dgn-0', 'par-geytio-0']) await s.podRuns(pod, '10:00:05');
    const job = await s.job('par');
    expect(job.status).toMatchObject({ phase: 'Running', runningTasks: 3, condition: { running: { latestRunningTimestamp: iso('10:00:05') } } });
    expect(job.status?.parallelStatus?.indexes.map((i) => i.state)).toEqual(['Running', 'Running', 'Running']);
  });

  it('fails when one index fails: the other Pods are deleted, then the Job ends Failed', async () => {
    await s.podEnds('par-gi3dgn-0', 'Failed', '10:00:20');
    expect(await s.podNames()).toEqual(['par-gi3dgn-0']);
    const job = await s.job('par');
    expect(job.status?.phase).toBe('Failed');
    expect(job.status?.parallelStatus).toMatchObject({ complete: true, successful: false });
    expect(job.status?.parallelStatus?.indexes.map((i) => [i.hash, i.state, i.result])).toEqual([
      ['gezdqo', 'Terminated', 'Failed'],
      ['gi3dgn', 'Terminated', 'Failed'],
      ['geytio', 'Terminated', 'Failed'],
    ]);
    const events = await s.events('par');
    expect(events).toContainEqual(['Deleted', 'Deleted task par-gezdqo-0', 'Warning']);
    expect(events).toContainEqual(['Deleted', 'Deleted task par-geytio-0', 'Warning']);
    expect(events.at(-1)).toEqual(['Failed', 'Job failed with result: Failed', 'Warning']);
  });
});

describe('JC-22 Kill', () => {
  let s: JobScenario;
  beforeAll(async () => {
    s = await JobScenario.start('10:00:00');
  });
  afterAll(async () => s?.stop());

  it('deletes the running task at killTimestamp and ends Killed', async () => {
    await s.createJob('kill', {});
    await s.podRuns('kill-gezdqo-0', '10:00:10');
    await s.stepTo('10:02:00');
    await s.updateJobSpec('kill', { killTimestamp: iso('10:03:00') });
    await s.stepTo('10:02:59');
    expect((await s.job('kill')).status?.phase).toBe('Running');
    expect(await s.podNames()).toEqual(['kill-gezdqo-0']);

    await s.stepTo('10:03:00');
    expect(await s.podNames()).toEqual([]);
    const job = await s.job('kill');
    expect(job.status?.phase).toBe('Killed');
    expect(job.status?.condition.finished).toMatchObject({ result: 'Killed', finishTime: iso('10:03:00'), latestRunningTimestamp: iso('10:00:10') });
    expect(job.status?.tasks?.[0]?.status).toEqual({ state: 'Terminated', result: 'Killed', reason: 'Deleted', message: 'Task was killed via deletion' });
    const events = await s.events('kill');
    expect(events).toContainEqual(['Deleted', 'Deleted task kill-gezdqo-0', 'Warning']);
    expect(events.at(-1)).toEqual(['Failed', 'Job failed with result: Killed', 'Warning']);
  });
});

describe('JC-2 Running → Succeeded (Job side), TTL', () => {
  let s: JobScenario;
  beforeAll(async () => {
    s = await JobScenario.start('10:00:00');
  });
  afterAll(async () => s?.stop());

  it('runs, succeeds, and is deleted with its Pod at finish + 3600 s', async () => {
    const jobConfig = await s.createJobConfig('jobconfig-sample', { concurrency: { policy: 'Forbid' } });
    await s.stepTo('10:05:00');
    await s.createScheduledJob(jobConfig, 1705313100, { substitutions: { 'option.user-name': 'Example User', 'option.image-tag': 'latest', 'jobconfig.name': 'jobconfig-sample' } });
    const name = 'jobconfig-sample-1705313100';
    expect((await s.job(name)).status).toMatchObject({ startTime: iso('10:05:00'), phase: 'Pending', state: 'Waiting' });
    const task = `${name}-gezdqo-0`;
    expect(await s.podEnv(task)).toMatchObject({ JOBCONFIG_NAME: 'jobconfig-sample', JOB_NAME: name, TASK_NAME: task });

    await s.podRuns(task, '10:05:03');
    let job = await s.job(name);
    expect(job.status).toMatchObject({ phase: 'Running', state: 'Running', runningTasks: 1, condition: { running: { latestRunningTimestamp: iso('10:05:03') } } });
    expect(await s.events(name)).toContainEqual(['Running', 'Job started running']);

    await s.podEnds(task, 'Succeeded', '10:05:10');
    job = await s.job(name);
    expect(job.status).toMatchObject({ phase: 'Succeeded', state: 'Finished', runningTasks: 0 });
    expect(job.status?.condition).toEqual({
      finished: { result: 'Success', finishTime: iso('10:05:10'), latestCreationTimestamp: iso('10:05:00'), latestRunningTimestamp: iso('10:05:03') },
    });
    expect((await s.events(name)).at(-1)).toEqual(['Finished', 'Job finished with result: Success']);

    await s.stepTo('11:05:09');
    expect(await s.jobExists(name)).toBe(true);
    await s.stepTo('11:05:10');
    expect(await s.jobExists(name)).toBe(false);
    expect(await s.podNames()).toEqual([]);
  });

  it('reconciling a Job that does not exist does nothing', async () => {
    const reconciler = new JobReconciler(s.env.manager);
    const result = await reconciler.reconcile({ namespace: 'default', name: 'missing' }, { controller: 'job', reconcileID: 'test', log: s.env.manager.logger, clock: s.env.manager.clock });
    expect(result).toEqual({});
  });
});
