/** The worker pool on a manual clock: concurrency limit, immediate hand-off, one key never twice at once, stop. */
import { ManualClock, flushAsyncWork as flush } from '../../testing/manual-clock.js';
import { WorkQueue } from '../queue/work-queue.js';
import { WorkerPool } from './worker-pool.js';

function setUp(concurrency: number, step: (key: string, queue: WorkQueue) => PromiseLike<unknown> | undefined) {
  let pool: WorkerPool | undefined;
  const busy: number[] = [];
  const queue = new WorkQueue({ clock: new ManualClock(), onReady: () => pool?.wake() });
  pool = new WorkerPool(queue, concurrency, (key) => step(key, queue), (delta) => busy.push(delta));
  return { queue, pool, busy };
}

describe('WorkerPool', () => {
  test('runs at most `concurrency` keys at once and takes the next key as soon as one finishes', async () => {
    const running = new Map<string, () => void>();
    const started: string[] = [];
    const { queue, pool } = setUp(2, (key, q) => {
      started.push(key);
      return new Promise<void>((resolve) => running.set(key, resolve)).then(() => {
        running.delete(key);
        q.done(key);
      });
    });
    for (const key of ['a', 'b', 'c', 'd']) queue.add(key);
    expect(started).toEqual([]); // keys start on the next microtask, not inside add()
    await flush();
    expect(started).toEqual(['a', 'b']);
    expect(pool.busy()).toBe(2);
    running.get('a')!();
    await flush();
    expect(started).toEqual(['a', 'b', 'c']);
    running.get('b')!();
    running.get('c')!();
    await flush();
    expect(started).toEqual(['a', 'b', 'c', 'd']);
    running.get('d')!();
    await flush();
    expect(pool.busy()).toBe(0);
    expect(queue.isIdle()).toBe(true);
  });

  test('a step that finishes at once frees its slot at once; busy changes are reported in pairs', async () => {
    const started: string[] = [];
    const { queue, pool, busy } = setUp(1, (key, q) => {
      started.push(key);
      q.done(key);
      return undefined;
    });
    for (const key of ['a', 'b', 'c']) queue.add(key);
    await flush();
    expect(started).toEqual(['a', 'b', 'c']);
    expect(busy).toEqual([1, -1, 1, -1, 1, -1]);
    expect(pool.busy()).toBe(0);
  });

  test('the same key is never run twice at once: added while running, it runs again afterwards', async () => {
    let release: (() => void) | undefined;
    let concurrent = 0;
    let maxConcurrent = 0;
    const runs: string[] = [];
    const { queue } = setUp(4, (key, q) => {
      runs.push(key);
      maxConcurrent = Math.max(maxConcurrent, ++concurrent);
      return new Promise<void>((resolve) => (release = resolve)).then(() => {
        concurrent--;
        q.done(key);
      });
    });
    queue.add('a');
    await flush();
    queue.add('a');
    await flush();
    expect(runs).toEqual(['a']);
    release!();
    await flush();
    expect(runs).toEqual(['a', 'a']);
    release!();
    await flush();
    expect(maxConcurrent).toBe(1);
  });

  test('stop() takes no more keys and resolves once the running ones finish', async () => {
    let release: (() => void) | undefined;
    const started: string[] = [];
    const { queue, pool } = setUp(1, (key, q) => {
      started.push(key);
      return new Promise<void>((resolve) => (release = resolve)).then(() => q.done(key));
    });
    queue.add('a');
    queue.add('b');
    await flush();
    let stopped = false;
    const stopping = pool.stop().then(() => (stopped = true));
    await flush();
    expect(stopped).toBe(false);
    release!();
    await stopping;
    expect(stopped).toBe(true);
    expect(started).toEqual(['a']);
    expect(queue.len()).toBe(1); // "b" stays queued: the pool took no more work
  });
});
