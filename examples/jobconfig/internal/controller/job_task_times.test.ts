/**
 * Job times from task Pods with unusual statuses, as Furiko's pod task reads them: container times at the
 * Unix epoch are ignored (a Job must not "finish" in 1970 and be deleted by its TTL at once), a Pod failed by
 * its active deadline finishes at start + activeDeadlineSeconds, and a termination seen only in `lastState`
 * counts.
 */
import type { ContainerStatus } from 'kubernetes-types/core/v1.js';
import { iso, JobScenario } from '../../test/job-scenario.js';

const EPOCH = '1970-01-01T00:00:00Z';
const container = (status: Partial<ContainerStatus>): ContainerStatus => ({ name: 'job-container', image: 'alpine', imageID: '', ready: false, restartCount: 0, ...status });

describe('a task whose container times are at the Unix epoch', () => {
  let s: JobScenario;
  beforeAll(async () => {
    s = await JobScenario.start('10:00:00');
  });
  afterAll(async () => s?.stop());

  it("finishes at the Pod's start time, and its TTL counts from there", async () => {
    await s.createJob('epoch', {});
    await s.podStatusIs(
      'epoch-gezdqo-0',
      { phase: 'Failed', startTime: iso('10:00:02'), containerStatuses: [container({ state: { terminated: { exitCode: 1, reason: 'Error', startedAt: EPOCH, finishedAt: EPOCH } } })] },
      '10:00:30',
    );
    const job = await s.job('epoch');
    expect(job.status?.phase).toBe('Failed');
    expect(job.status?.condition?.finished?.finishTime).toBe(iso('10:00:02'));
    expect(job.status?.tasks?.[0]).toMatchObject({ finishTimestamp: iso('10:00:02') });
    expect(job.status?.tasks?.[0]?.runningTimestamp).toBeUndefined();
    await s.stepTo('11:00:01');
    expect(await s.jobExists('epoch')).toBe(true);
    await s.stepTo('11:00:02');
    expect(await s.jobExists('epoch')).toBe(false);
  });
});

describe('a task Pod failed by DeadlineExceeded, no container termination', () => {
  let s: JobScenario;
  beforeAll(async () => {
    s = await JobScenario.start('10:00:00');
  });
  afterAll(async () => s?.stop());

  it('finishes at start + activeDeadlineSeconds', async () => {
    await s.createJob('deadline', {});
    const pod = await s.pod('deadline-gezdqo-0');
    expect(pod.spec?.activeDeadlineSeconds).toBeUndefined();
    // The kubelet reports the deadline of the Pod's spec; the Pod here carries the one the test gives it.
    await s.api.update({ ...pod, spec: { ...pod.spec!, activeDeadlineSeconds: 90 } });
    await s.podStatusIs(
      'deadline-gezdqo-0',
      { phase: 'Failed', reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline', startTime: iso('10:00:05') },
      '10:01:40',
    );
    const job = await s.job('deadline');
    expect(job.status?.tasks?.[0]).toMatchObject({ finishTimestamp: iso('10:01:35'), status: { result: 'Failed', reason: 'DeadlineExceeded' } });
    expect(job.status?.condition?.finished?.finishTime).toBe(iso('10:01:35'));
  });
});

describe('a task whose termination is only in lastState', () => {
  let s: JobScenario;
  beforeAll(async () => {
    s = await JobScenario.start('10:00:00');
  });
  afterAll(async () => s?.stop());

  it('finishes at that termination, and OOMKilled there fails it', async () => {
    await s.createJob('restarted', {});
    await s.podStatusIs(
      'restarted-gezdqo-0',
      {
        phase: 'Failed',
        startTime: iso('10:00:02'),
        containerStatuses: [container({ restartCount: 1, state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off' } }, lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: iso('10:00:20') } } })],
      },
      '10:00:30',
    );
    const job = await s.job('restarted');
    expect(job.status?.tasks?.[0]).toMatchObject({ finishTimestamp: iso('10:00:20'), status: { result: 'Failed' } });
    expect(job.status?.condition?.finished?.finishTime).toBe(iso('10:00:20'));
  });
});
