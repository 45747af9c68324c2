/**
 * The JobQueueController against the local cluster on a virtual clock: the start and queue parts of JC-4
 * (reference-operators spec §5.4) and the start rules of §4.6 — startAfter, Forbid at start time, and a
 * later Allow Job starting ahead of a blocked Enqueue Job.
 */
import { ANNOTATION_ADMISSION_ERROR } from '../furiko/keys.js';
import { iso, JobScenario } from '../../test/job-scenario.js';

const queuedMessage = 'Job is queued and may be pending other concurrent jobs to be finished';

describe('JC-4 Enqueue (start and queue)', () => {
  let s: JobScenario;
  beforeAll(async () => {
    s = await JobScenario.start('10:00:00');
  });
  afterAll(async () => s?.stop());

  it('keeps the second Job queued while the first runs, and starts it when the first succeeds', async () => {
    const enq = await s.createJobConfig('enq', { concurrency: { policy: 'Enqueue' } });
    await s.stepTo('10:05:00');
    await s.createScheduledJob(enq, 1705313100);
    expect((await s.job('enq-1705313100')).status?.startTime).toBe(iso('10:05:00'));
    await s.podRuns('enq-1705313100-gezdqo-0', '10:05:00');

    await s.stepTo('10:10:00');
    await s.createScheduledJob(enq, 1705313400);
    let second = await s.job('enq-1705313400');
    expect(second.status).toMatchObject({ phase: 'Queued', state: 'Queued', condition: { queueing: { reason: 'Queued', message: queuedMessage } } });
    expect(second.status?.startTime).toBeUndefined();
    expect(await s.podNames()).toEqual(['enq-1705313100-gezdqo-0']);

    await s.stepTo('10:11:59');
    expect((await s.job('enq-1705313400')).status?.startTime).toBeUndefined();
    await s.podEnds('enq-1705313100-gezdqo-0', 'Succeeded', '10:12:00');
    second = await s.job('enq-1705313400');
    expect(second.status?.startTime).toBe(iso('10:12:00'));
    expect(second.status?.phase).toBe('Pending');
    expect(await s.podNames()).toEqual(['enq-1705313100-gezdqo-0', 'enq-1705313400-gezdqo-0']);
    expect(await s.events('enq-1705313400')).toEqual([
      ['Started', 'Started job successfully'],
      ['Created', 'Created task of kind Pod: enq-1705313400-gezdqo-0'],
    ]);
  });
});

describe('§4.6 start rules', () => {
  let s: JobScenario;
  beforeAll(async () => {
    s = await JobScenario.start('10:00:00');
  });
  afterAll(async () => s?.stop());

  it('an independent Job with startAfter waits, NotYetDue, and starts at that instant', async () => {
    await s.createJob('later', { startPolicy: { concurrencyPolicy: 'Allow', startAfter: iso('10:30:00') } });
    const job = await s.job('later');
    expect(job.status).toMatchObject({ phase: 'Queued', condition: { queueing: { reason: 'NotYetDue', message: 'Job is queued to start no earlier than 2024-01-15 10:30:00 +0000 UTC' } } });
    await s.stepTo('10:29:59');
    expect((await s.job('later')).status?.startTime).toBeUndefined();
    await s.stepTo('10:30:00');
    expect((await s.job('later')).status?.startTime).toBe(iso('10:30:00'));
    expect(await s.podNames()).toEqual(['later-gezdqo-0']);
  });

  it('a Forbid Job that finds its JobConfig full at start time ends AdmissionError', async () => {
    const fb = await s.createJobConfig('fb', { concurrency: { policy: 'Forbid' } });
    await s.stepTo('10:35:00');
    await s.createScheduledJob(fb, 1705314900);
    expect((await s.job('fb-1705314900')).status?.startTime).toBe(iso('10:35:00'));
    await s.createScheduledJob(fb, 1705315000, { startPolicy: { concurrencyPolicy: 'Forbid', startAfter: iso('10:40:00') } });
    await s.stepTo('10:40:00');
    const refused = await s.job('fb-1705315000');
    const message = 'Cannot start new Job, fb has 1 active Jobs but concurrency policy is Forbid';
    expect(refused.metadata!.annotations![ANNOTATION_ADMISSION_ERROR]).toBe(message);
    expect(refused.status).toMatchObject({ phase: 'AdmissionError', state: 'Finished', condition: { finished: { result: 'AdmissionError', reason: 'AdmissionError', message, finishTime: iso('10:40:00') } } });
    expect(refused.status?.startTime).toBeUndefined();
    expect(await s.events('fb-1705315000')).toEqual([
      ['AdmissionRefused', message, 'Warning'],
      ['Failed', 'Job failed with result: AdmissionError', 'Warning'],
    ]);
    expect(await s.podNames()).not.toContain('fb-1705315000-gezdqo-0');
  });

  it('an Allow Job starts ahead of an older Enqueue Job that is blocked', async () => {
    const mixed = await s.createJobConfig('mixed', { concurrency: { policy: 'Enqueue' } });
    await s.createScheduledJob(mixed, 1705315200);
    await s.createScheduledJob(mixed, 1705315201);
    await s.createScheduledJob(mixed, 1705315202, { startPolicy: { concurrencyPolicy: 'Allow' } });
    expect((await s.job('mixed-1705315200')).status?.startTime).toBe(iso('10:40:00'));
    expect((await s.job('mixed-1705315201')).status?.startTime).toBeUndefined();
    expect((await s.job('mixed-1705315202')).status?.startTime).toBe(iso('10:40:00'));
  });
});
