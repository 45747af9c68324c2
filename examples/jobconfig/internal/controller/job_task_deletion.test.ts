/**
 * How the JobController lets go of tasks and Jobs (reference-operators spec §4.7.1): a killed task stuck in
 * graceful deletion is force-deleted after forceDeleteTaskTimeoutSeconds unless the Job forbids it, a Job
 * deleted while running kills its tasks before its finalizer goes, and a task Pod the API server refuses
 * ends the Job with an admission error.
 */
import { ANNOTATION_ADMISSION_ERROR } from '../furiko/keys.js';
import { iso, JobScenario, sampleTemplate } from '../../test/job-scenario.js';

/** A template whose Pod is bound to a node, so that deleting it running is graceful (it keeps a deletionTimestamp). */
function boundTemplate(forbidTaskForceDeletion = false) {
  const template = sampleTemplate({ forbidTaskForceDeletion });
  template.taskTemplate.pod!.spec!.nodeName = 'node-1';
  return template;
}

describe('JC-22 Kill of a task that does not stop, and force deletion', () => {
  let s: JobScenario;
  beforeAll(async () => {
    s = await JobScenario.start('10:00:00');
  });
  afterAll(async () => s?.stop());

  it('is Killing while the task is being deleted, and force-deletes it 900 s after its deletion time', async () => {
    await s.createJob('stuck', { template: boundTemplate(), killTimestamp: iso('10:03:00') });
    await s.createJob('kept', { template: boundTemplate(true), killTimestamp: iso('10:03:00') });
    await s.podRuns('stuck-gezdqo-0', '10:00:10');
    await s.podRuns('kept-gezdqo-0', '10:00:10');

    await s.stepTo('10:03:00');
    const pod = await s.pod('stuck-gezdqo-0');
    expect(pod.metadata!.deletionTimestamp).toBe(iso('10:03:30')); // graceful: now + 30 s
    let job = await s.job('stuck');
    expect(job.status).toMatchObject({ phase: 'Killing', state: 'Waiting', condition: { waiting: { reason: 'DeletingTasks', message: 'Waiting for 1 out of 1 task(s) to be deleted' } } });
    expect(job.status?.tasks?.[0]?.status.state).toBe('Killing');

    await s.stepTo('10:18:29');
    expect(await s.podNames()).toEqual(['kept-gezdqo-0', 'stuck-gezdqo-0']);
    await s.stepTo('10:18:30');
    expect(await s.podNames()).toEqual(['kept-gezdqo-0']);
    job = await s.job('stuck');
    expect(job.status?.phase).toBe('Killed');
    expect(job.status?.tasks?.[0]?.status).toEqual({ state: 'Terminated', result: 'Killed', reason: 'ForceDeleted', message: 'Forcefully deleted the task, container may still be running' });
    const events = await s.events('stuck');
    expect(events).toContainEqual(['Deleted', 'Deleted task stuck-gezdqo-0', 'Warning']);
    expect(events).toContainEqual(['ForceDeleted', 'Deleted task stuck-gezdqo-0', 'Warning']);

    await s.stepTo('11:00:00');
    expect((await s.job('kept')).status?.phase).toBe('Killing');
    expect(await s.events('kept')).not.toContainEqual(expect.arrayContaining(['ForceDeleted']));
  });
});

describe('Deleting a running Job', () => {
  let s: JobScenario;
  beforeAll(async () => {
    s = await JobScenario.start('10:00:00');
  });
  afterAll(async () => s?.stop());

  it('deletes its tasks (JobDeleted), ends Killed, then releases its finalizer', async () => {
    await s.createJob('doomed', {});
    await s.podRuns('doomed-gezdqo-0', '10:00:05');
    await s.stepTo('10:01:00');
    await s.api.delete(await s.job('doomed'));
    await s.env.settle();
    expect(await s.jobExists('doomed')).toBe(false);
    expect(await s.podNames()).toEqual([]);
    expect(await s.events('doomed')).toEqual(
      expect.arrayContaining([
        ['Deleted', 'Deleted task doomed-gezdqo-0', 'Warning'],
        ['Failed', 'Job failed with result: Killed', 'Warning'],
      ]),
    );
  });
});

describe('A task the API server refuses', () => {
  let s: JobScenario;
  beforeAll(async () => {
    s = await JobScenario.start('10:00:00');
  });
  afterAll(async () => s?.stop());

  it('ends the Job AdmissionError with "Cannot create task: …" instead of retrying', async () => {
    const template = sampleTemplate();
    template.taskTemplate.pod!.spec!.containers[0]!.image = '${option.missing}'; // substitutes to an empty image
    await s.createJob('bad', { template });
    const job = await s.job('bad');
    const message = job.metadata!.annotations![ANNOTATION_ADMISSION_ERROR];
    expect(message).toMatch(/^Cannot create task: .*spec\.containers\[0\]\.image: Required value/);
    expect(job.status).toMatchObject({ phase: 'AdmissionError', condition: { finished: { result: 'AdmissionError', message } } });
    expect(await s.podNames()).toEqual([]);
    expect(await s.events('bad')).toEqual([
      ['Started', 'Started job successfully'],
      ['AdmissionError', message, 'Warning'],
      ['Failed', 'Job failed with result: AdmissionError', 'Warning'],
    ]);
  });
});
