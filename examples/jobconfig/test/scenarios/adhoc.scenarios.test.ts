/**
 * JC-7 and JC-8 end to end (spec §5.4): ad-hoc Jobs of `jobconfig-sample` through the webhooks, the queue
 * and Job controllers and the JobConfig status, on the whole operator with the Pod harness.
 */
import type { Job } from '../../api/v1alpha1/job_types.js';
import { SchedulingHarness, at, sampleJobConfig } from '../scheduling-harness.js';

const adhoc = (spec: Job['spec']): Job => ({
  apiVersion: 'execution.furiko.io/v1alpha1',
  kind: 'Job',
  metadata: { generateName: 'jobconfig-sample-', namespace: 'default' },
  spec: { configName: 'jobconfig-sample', ...spec },
});

describe('JC-7 and JC-8 ad-hoc Jobs of jobconfig-sample', () => {
  let h: SchedulingHarness;
  beforeAll(async () => {
    h = await SchedulingHarness.start({ start: '10:00:00', mode: 'operator' });
    await h.admin.create(sampleJobConfig());
    await h.env.settle();
  });
  afterAll(async () => h?.stop());

  test('JC-7 an ad-hoc Job with options starts at once with its options substituted', async () => {
    await h.stepTo('10:01:00');
    const created = await h.admin.create(adhoc({ optionValues: "user-name: '  Alice  '\nimage-tag: '3.14'" }));
    await h.env.settle();
    const name = created.metadata!.name!;
    const job = await h.job(name);
    expect(job.spec.substitutions).toMatchObject({ 'option.user-name': 'Alice', 'option.image-tag': '3.14', 'jobconfig.name': 'jobconfig-sample' });
    expect(job.status?.startTime).toBe(at('10:01:00'));
    const pods = (await h.pods()).filter((p) => p.metadata!.name!.startsWith(name));
    expect(pods).toHaveLength(1);
    expect(pods[0]!.spec!.containers[0]).toMatchObject({ image: 'alpine:3.14', args: ['echo', 'Hello world, Alice!'] });
    const jobConfig = await h.jobConfig('jobconfig-sample');
    expect(jobConfig.status).toMatchObject({ active: 1, lastExecuted: at('10:01:00') });
    expect(jobConfig.status!.lastScheduled).toBeUndefined();
  });

  test('JC-8 Forbid is rejected while a Job is active; Enqueue waits and starts when it finishes', async () => {
    const message = await h.admin.create(adhoc({})).then(
      () => 'admitted',
      (err: Error) => err.message,
    );
    expect(message).toMatch(
      /spec\.startPolicy\.concurrencyPolicy: Forbidden: jobconfig-sample currently has 1 active job\(s\), but concurrency policy forbids exceeding maximum concurrency of 1$/,
    );
    const enqueued = await h.admin.create(adhoc({ startPolicy: { concurrencyPolicy: 'Enqueue' } }));
    await h.env.settle();
    const queuedName = enqueued.metadata!.name!;
    expect((await h.job(queuedName)).status).toMatchObject({ phase: 'Queued' });
    expect((await h.jobConfig('jobconfig-sample')).status).toMatchObject({ active: 1, queued: 1 });

    const running = (await h.jobs('jobconfig-sample')).find((j) => j.status?.startTime)!;
    const pod = (await h.pods()).find((p) => p.metadata!.name!.startsWith(running.metadata!.name!))!;
    await h.stepTo('10:02:00');
    await h.runPod(pod.metadata!.name!, '10:02:00');
    await h.stepTo('10:03:00');
    await h.finishPod(pod.metadata!.name!, '10:03:00', 'Succeeded');
    expect((await h.job(queuedName)).status?.startTime).toBe(at('10:03:00'));
    expect((await h.jobConfig('jobconfig-sample')).status).toMatchObject({ active: 1, queued: 0, lastExecuted: at('10:03:00') });
  });
});
