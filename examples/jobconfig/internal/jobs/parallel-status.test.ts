/** Index states, completion strategies and retry planning (reference-operators spec §4.7.1). */
import { ms, startedJob, task } from '../../test/job-fixtures.js';
import { indexStatus, missingTasks, parallelStatus } from './parallel-status.js';

describe('indexStatus', () => {
  const idx = { indexNumber: 0 };
  it('walks NotCreated → Starting → Running → RetryBackoff → Terminated', () => {
    expect(indexStatus(idx, 'gezdqo', [], 2).state).toBe('NotCreated');
    expect(indexStatus(idx, 'gezdqo', [task('a', { created: '10:00:00' })], 2).state).toBe('Starting');
    expect(indexStatus(idx, 'gezdqo', [task('a', { created: '10:00:00', running: '10:00:01' })], 2).state).toBe('Running');
    const failedOnce = [task('a', { created: '10:00:00', finished: '10:00:05', result: 'Failed' })];
    expect(indexStatus(idx, 'gezdqo', failedOnce, 2)).toEqual({ index: idx, hash: 'gezdqo', createdTasks: 1, state: 'RetryBackoff' });
    expect(indexStatus(idx, 'gezdqo', failedOnce, 1)).toEqual({ index: idx, hash: 'gezdqo', createdTasks: 1, state: 'Terminated', result: 'Failed' });
    const succeeded = [task('a', { created: '10:00:00', finished: '10:00:05', result: 'Succeeded' })];
    expect(indexStatus(idx, 'gezdqo', succeeded, 3)).toMatchObject({ state: 'Terminated', result: 'Succeeded' });
  });
});

describe('parallelStatus', () => {
  const ok = (n: number) => task(`ok${n}`, { created: '10:00:00', finished: '10:00:09', result: 'Succeeded' }, 0, { indexNumber: n });
  const bad = (n: number) => task(`bad${n}`, { created: '10:00:00', finished: '10:00:09', result: 'Failed' }, 0, { indexNumber: n });
  const run = (n: number) => task(`run${n}`, { created: '10:00:00', running: '10:00:01' }, 0, { indexNumber: n });

  it('AllSuccessful: complete and failed as soon as one index failed; successful when all succeeded', () => {
    const job = startedJob({ parallelism: { withCount: 3 } });
    expect(parallelStatus(job, [ok(0), run(1), run(2)])).toMatchObject({ complete: false });
    expect(parallelStatus(job, [ok(0), bad(1), run(2)])).toMatchObject({ complete: true, successful: false });
    expect(parallelStatus(job, [ok(0), ok(1), ok(2)])).toMatchObject({ complete: true, successful: true });
  });

  it('AnySuccessful: successful on the first success; failed only when every index failed', () => {
    const job = startedJob({ parallelism: { withCount: 2, completionStrategy: 'AnySuccessful' } });
    expect(parallelStatus(job, [bad(0), run(1)])).toMatchObject({ complete: false });
    expect(parallelStatus(job, [bad(0), ok(1)])).toMatchObject({ complete: true, successful: true });
    expect(parallelStatus(job, [bad(0), bad(1)])).toMatchObject({ complete: true, successful: false });
  });
});

describe('missingTasks', () => {
  it('asks for the first attempt of every index at once', () => {
    expect(missingTasks(startedJob({ parallelism: { withKeys: ['a', 'b'] } }), [])).toEqual([
      { index: { indexKey: 'a' }, retryIndex: 0, earliestMs: 0 },
      { index: { indexKey: 'b' }, retryIndex: 0, earliestMs: 0 },
    ]);
  });

  it('retries a failed index retryDelaySeconds after its latest finish, until maxAttempts', () => {
    const job = startedJob({ maxAttempts: 3, retryDelaySeconds: 15 });
    const first = task('j-gezdqo-0', { created: '10:00:00', finished: '10:00:20', result: 'Failed' });
    expect(missingTasks(job, [first])).toEqual([{ index: { indexNumber: 0 }, retryIndex: 1, earliestMs: ms('10:00:35') }]);
    const second = task('j-gezdqo-1', { created: '10:00:35', finished: '10:00:50', result: 'Failed' }, 1);
    const third = task('j-gezdqo-2', { created: '10:01:05', finished: '10:01:20', result: 'Failed' }, 2);
    expect(missingTasks(job, [first, second, third])).toEqual([]);
  });

  it('needs nothing while a task is unfinished or after one succeeded', () => {
    const job = startedJob({ maxAttempts: 3 });
    expect(missingTasks(job, [task('a', { created: '10:00:00', running: '10:00:01' })])).toEqual([]);
    expect(missingTasks(job, [task('a', { created: '10:00:00', finished: '10:00:02', result: 'Succeeded' })])).toEqual([]);
  });
});

describe('colliding indexes (Q-F5)', () => {
  it('share the tasks of their common hash: a task of index 58 also stands for index 69', () => {
    const job = startedJob({ parallelism: { withCount: 70 } });
    const shared = task('j-ge3dqm-0', { created: '10:00:00', running: '10:00:01' }, 0, { indexNumber: 58 });
    const status = parallelStatus(job, [shared]);
    expect(status.indexes[58]).toMatchObject({ hash: 'ge3dqm', createdTasks: 1, state: 'Running' });
    expect(status.indexes[69]).toMatchObject({ hash: 'ge3dqm', createdTasks: 1, state: 'Running' });
    const requested = missingTasks(job, [shared]).map((r) => r.index.indexNumber);
    expect(requested).toHaveLength(68);
    expect(requested).not.toContain(58);
    expect(requested).not.toContain(69);
  });
});
