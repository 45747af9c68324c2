/** Condition, phase and state rules of reference-operators spec §4.7.3, one case per rule. */
import type { Job, TaskRef } from '../../api/v1alpha1/job_types.js';
import { ms, startedJob, t, task } from '../../test/job-fixtures.js';
import { computeJobStatus } from './job-status.js';

const status = (job: Job, tasks: TaskRef[], now = '10:10:00') => computeJobStatus(job, tasks, ms(now));

describe('condition before start', () => {
  const queued = (spec: Partial<Job['spec']>): Job => ({ ...startedJob({}, spec), status: undefined });

  it('is queueing: NotYetDue with startAfter, Queued for Enqueue, otherwise empty', () => {
    expect(status(queued({ startPolicy: { concurrencyPolicy: 'Allow', startAfter: t('10:30:00') } }), []).condition).toEqual({
      queueing: { reason: 'NotYetDue', message: 'Job is queued to start no earlier than 2024-01-15 10:30:00 +0000 UTC' },
    });
    expect(status(queued({ startPolicy: { concurrencyPolicy: 'Enqueue' } }), []).condition).toEqual({
      queueing: { reason: 'Queued', message: 'Job is queued and may be pending other concurrent jobs to be finished' },
    });
    const plain = status(queued({}), []);
    expect(plain).toEqual({ phase: 'Queued', state: 'Queued', condition: { queueing: {} }, createdTasks: 0, runningTasks: 0 });
  });

  it('is finished AdmissionError with the annotation, keeping the first finish time', () => {
    const job = startedJob();
    job.metadata!.annotations = { 'execution.furiko.io/admission-error': 'nope' };
    expect(status(job, [], '10:10:00')).toMatchObject({ phase: 'AdmissionError', state: 'Finished', condition: { finished: { result: 'AdmissionError', reason: 'AdmissionError', message: 'nope', finishTime: t('10:10:00') } } });
    job.status!.condition = { finished: { result: 'AdmissionError', finishTime: t('10:05:00') } };
    expect(status(job, [], '10:10:00').condition.finished?.finishTime).toBe(t('10:05:00'));
  });
});

describe('condition and phase of a started Job', () => {
  it('Starting while no task exists (PendingCreation)', () => {
    expect(status(startedJob(), [])).toMatchObject({ phase: 'Starting', state: 'Waiting', condition: { waiting: { reason: 'PendingCreation', message: 'Waiting for 1 out of 1 task(s) to be created' } } });
  });

  it('Pending, then Running with the latest times', () => {
    const pending = status(startedJob(), [task('a', { created: '10:00:00' })]);
    expect(pending).toMatchObject({ phase: 'Pending', createdTasks: 1, runningTasks: 0, condition: { waiting: { reason: 'WaitingForTasks' } } });
    const running = status(startedJob(), [task('a', { created: '10:00:00', running: '10:00:03' })]);
    expect(running).toMatchObject({ phase: 'Running', state: 'Running', runningTasks: 1 });
    expect(running.condition).toEqual({ running: { latestTaskCreationTimestamp: t('10:00:00'), latestRunningTimestamp: t('10:00:03') } });
  });

  it('RetryBackoff after a failed attempt with attempts left, Retrying once the retry exists', () => {
    const job = startedJob({ maxAttempts: 2 });
    const failed = task('a', { created: '10:00:00', finished: '10:00:05', result: 'Failed' });
    expect(status(job, [failed])).toMatchObject({ phase: 'RetryBackoff', condition: { waiting: { reason: 'RetryBackoff', message: 'Waiting to retry creating 1 task(s)' } } });
    expect(status(job, [failed, task('b', { created: '10:00:06' }, 1)]).phase).toBe('Retrying');
  });

  it('Terminating while a completed parallel Job still has unfinished tasks', () => {
    const job = startedJob({ parallelism: { withCount: 2 } });
    const s = status(job, [
      task('a', { created: '10:00:00', finished: '10:00:05', result: 'Failed' }, 0, { indexNumber: 0 }),
      task('b', { created: '10:00:00', running: '10:00:01' }, 0, { indexNumber: 1 }),
    ]);
    expect(s).toMatchObject({ phase: 'Terminating', state: 'Running', condition: { running: { terminatingTasks: 1 } } });
    expect(s.parallelStatus).toMatchObject({ complete: true, successful: false });
  });

  it('Succeeded / Failed from the completion, finishing at the latest task finish', () => {
    const ok = status(startedJob(), [task('a', { created: '10:00:00', running: '10:00:01', finished: '10:00:09', result: 'Succeeded' })]);
    expect(ok).toMatchObject({ phase: 'Succeeded', state: 'Finished' });
    expect(ok.condition).toEqual({ finished: { latestCreationTimestamp: t('10:00:00'), latestRunningTimestamp: t('10:00:01'), finishTime: t('10:00:09'), result: 'Success' } });
    expect(status(startedJob(), [task('a', { created: '10:00:00', finished: '10:00:09', result: 'Failed' })]).phase).toBe('Failed');
  });

  it('Killing once killTimestamp passed with tasks alive, Killed when all are gone', () => {
    const job = startedJob({}, { killTimestamp: t('10:03:00') });
    const alive = status(job, [task('a', { created: '10:00:00', running: '10:00:01' })], '10:03:00');
    expect(alive).toMatchObject({ phase: 'Killing', state: 'Waiting', condition: { waiting: { reason: 'DeletingTasks', message: 'Waiting for 1 out of 1 task(s) to be deleted' } } });
    expect(status(job, [task('a', { created: '10:00:00', running: '10:00:01' })], '10:02:59').phase).toBe('Running');
    const gone = status(job, [task('a', { created: '10:00:00', running: '10:00:01', finished: '10:03:00', result: 'Killed' })], '10:03:00');
    expect(gone).toMatchObject({ phase: 'Killed', condition: { finished: { result: 'Killed', finishTime: t('10:03:00') } } });
  });

  it('a Job deleted before it finished ends Killed', () => {
    const plain = startedJob();
    const job: Job = { ...plain, metadata: { ...plain.metadata, deletionTimestamp: t('10:10:00') } };
    expect(status(job, [task('a', { created: '10:00:00', running: '10:00:01' })])).toMatchObject({ phase: 'Killed', condition: { finished: { result: 'Killed', finishTime: t('10:10:00') } } });
  });
});
