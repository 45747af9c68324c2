/** The work queue on a manual clock: de-duplication, no concurrent same key, priorities, delays, backoff, shutdown. */
import { ManualClock, flushAsyncWork } from '../../testing/manual-clock.js';
import { ExponentialFailureRateLimiter, FixedDelayRateLimiter } from './rate-limiter.js';
import { LOW_PRIORITY, WorkQueue } from './work-queue.js';

describe('WorkQueue', () => {
  test('de-duplicates a key added twice before it is taken', async () => {
    const q = new WorkQueue({ clock: new ManualClock() });
    q.add('ns/a');
    q.add('ns/a');
    q.add('ns/b');
    expect(q.len()).toBe(2);
    expect(await q.get()).toBe('ns/a');
    expect(await q.get()).toBe('ns/b');
  });

  test('keys leave in arrival order through drains and a long backlog (the buckets reuse their arrays), stale entries skipped', () => {
    const q = new WorkQueue({ clock: new ManualClock() });
    const taken: string[] = [];
    const take = (n: number) => {
      for (let i = 0; i < n; i++) {
        const key = q.tryGet()!;
        taken.push(key);
        q.done(key);
      }
    };
    // a drained bucket starts again at its first slot, over the keys it held before
    q.add('a');
    q.add('b');
    take(2);
    q.add('c');
    take(1);
    expect(taken).toEqual(['a', 'b', 'c']);
    // a backlog of 3,000 taken while more come: moved down past 1,024 taken, order kept
    taken.length = 0;
    const expected: string[] = [];
    const add = (key: string) => {
      q.add(key);
      expected.push(key);
    };
    for (let i = 0; i < 3000; i++) add(`k${i}`);
    for (let round = 0; round < 5; round++) {
      take(500);
      for (let i = 0; i < 100; i++) add(`r${round}-${i}`);
    }
    // a key moved to a higher priority leaves a stale entry behind: skipped, the key handed out once
    q.add('k2600', 5);
    expected.splice(expected.indexOf('k2600'), 1);
    expected.splice(2500, 0, 'k2600');
    take(q.len());
    expect(taken).toEqual(expected);
    expect(q.tryGet()).toBeUndefined();
    expect(q.len()).toBe(0);
  });

  test('changes() moves with every add, done and shutdown, as onActivity is called, and not on a duplicate add', () => {
    let calls = 0;
    const q = new WorkQueue({ clock: new ManualClock(), onActivity: () => calls++ });
    expect(q.changes()).toBe(0);
    q.add('k');
    expect(q.changes()).toBe(1);
    q.add('k');
    expect(q.changes()).toBe(1);
    expect(q.tryGet()).toBe('k');
    q.done('k');
    expect(q.changes()).toBe(2);
    q.shutDown();
    expect(q.changes()).toBe(3);
    expect(calls).toBe(3);
  });

  test('tryGet hands out a queued key at once, never one being processed, and undefined when none is queued', () => {
    const q = new WorkQueue({ clock: new ManualClock() });
    expect(q.tryGet()).toBeUndefined();
    q.add('k');
    expect(q.tryGet()).toBe('k');
    q.add('k');
    expect(q.tryGet()).toBeUndefined();
    q.done('k');
    expect(q.tryGet()).toBe('k');
  });

  test('queue and work durations are observed when the key is done, queue time being add → take', () => {
    const observed: Array<[string, number]> = [];
    const q = new WorkQueue({ clock: new ManualClock(), metrics: { queueLatency: (s) => observed.push(['queue', s]), workDuration: (s) => observed.push(['work', s]) } });
    q.add('k');
    const key = q.tryGet()!;
    expect(observed).toEqual([]);
    q.done(key);
    expect(observed.map(([name]) => name)).toEqual(['queue', 'work']);
    expect(observed.every(([, seconds]) => seconds >= 0 && seconds < 1)).toBe(true);
  });

  test('done(key, endedAt) measures the work duration up to the worker\'s own end timestamp', () => {
    const work: number[] = [];
    const q = new WorkQueue({ clock: new ManualClock(), metrics: { workDuration: (s) => work.push(s) } });
    q.add('k');
    const takenBy = performance.now();
    const key = q.tryGet()!;
    q.done(key, takenBy + 2500); // a worker whose reconcile ended 2.5 s after the take
    expect(work).toHaveLength(1);
    expect(work[0]).toBeGreaterThan(2.4);
    expect(work[0]).toBeLessThanOrEqual(2.5);
  });

  test('a finished key\'s record, reused by the next new key, carries nothing over (priority, processing, order)', () => {
    const q = new WorkQueue({ clock: new ManualClock() });
    q.add('first', 10);
    expect(q.tryGet()).toBe('first');
    expect(q.priorityOf('first')).toBe(10);
    q.done('first'); // its record is kept for reuse
    q.add('low', LOW_PRIORITY);
    q.add('plain');
    expect(q.len()).toBe(2);
    expect(q.tryGet()).toBe('plain');
    expect(q.priorityOf('plain')).toBe(0);
    expect(q.tryGet()).toBe('low');
    expect(q.priorityOf('low')).toBe(LOW_PRIORITY);
    expect(q.inFlight()).toBe(2);
    q.add('plain'); // dirty while processing: waits for done()
    expect(q.tryGet()).toBeUndefined();
    q.done('plain');
    expect(q.tryGet()).toBe('plain');
  });

  test('a key added while processing is handed out again only after done()', async () => {
    const q = new WorkQueue({ clock: new ManualClock() });
    q.add('k');
    const first = await q.get();
    q.add('k');
    expect(q.len()).toBe(0);
    let second: string | undefined;
    void q.get().then((k) => (second = k));
    await flushAsyncWork();
    expect(second).toBeUndefined();
    q.done(first!);
    await flushAsyncWork();
    expect(second).toBe('k');
  });

  test('never hands one key to two concurrent workers', async () => {
    const clock = new ManualClock();
    const q = new WorkQueue({ clock });
    const active = new Set<string>();
    let overlaps = 0;
    let processed = 0;
    const worker = async () => {
      for (;;) {
        const key = await q.get();
        if (key === undefined) return;
        if (active.has(key)) overlaps++;
        active.add(key);
        await flushAsyncWork(1);
        active.delete(key);
        processed++;
        q.done(key);
      }
    };
    const workers = [worker(), worker(), worker(), worker()];
    for (let round = 0; round < 20; round++) {
      for (const key of ['a', 'b', 'c']) q.add(key);
      await flushAsyncWork(1);
    }
    await flushAsyncWork(10);
    await q.shutDownWithDrain();
    await Promise.all(workers);
    expect(overlaps).toBe(0);
    expect(processed).toBeGreaterThanOrEqual(3);
  });

  test('addAfter waits for clock time and keeps the earlier of two wake-ups', async () => {
    const clock = new ManualClock(1000);
    const q = new WorkQueue({ clock });
    q.addAfter('k', 500);
    q.addAfter('k', 2000);
    await clock.advance(499);
    expect(q.len()).toBe(0);
    await clock.advance(1);
    expect(q.len()).toBe(1);
    expect(clock.timers()).toEqual([]);
  });

  test('a sooner addAfter replaces a later one', async () => {
    const clock = new ManualClock(0);
    const q = new WorkQueue({ clock });
    q.addAfter('k', 2000);
    q.addAfter('k', 100);
    expect(clock.timers()).toEqual([100]);
  });

  test('addRateLimited backs off 5 ms, 10 ms, 20 ms … and forget resets it', async () => {
    const clock = new ManualClock(0);
    const q = new WorkQueue({ clock });
    const delays: number[] = [];
    for (let i = 0; i < 4; i++) {
      q.addRateLimited('k');
      delays.push(clock.timers()[0]! - clock.now());
      await clock.advance(delays[i]!);
      q.done((await q.get())!);
    }
    expect(delays).toEqual([5, 10, 20, 40]);
    expect(q.numRequeues('k')).toBe(4);
    q.forget('k');
    q.addRateLimited('k');
    expect(clock.timers()[0]! - clock.now()).toBe(5);
  });

  test('exponential backoff is capped at 1000 s', () => {
    const limiter = new ExponentialFailureRateLimiter();
    let last = 0;
    for (let i = 0; i < 40; i++) last = limiter.when('k');
    expect(last).toBe(1000_000);
  });

  test('fixed limiter always answers its delay', () => {
    const limiter = new FixedDelayRateLimiter(1000);
    expect([limiter.when('a'), limiter.when('a'), limiter.when('a')]).toEqual([1000, 1000, 1000]);
    expect(limiter.numRequeues('a')).toBe(3);
  });

  test('shutDown releases waiting workers and drops delayed keys', async () => {
    const clock = new ManualClock(0);
    const q = new WorkQueue({ clock });
    const pending = q.get();
    q.addAfter('later', 1000);
    q.shutDown();
    expect(await pending).toBeUndefined();
    await clock.advance(2000);
    expect(q.len()).toBe(0);
    q.add('x');
    expect(q.len()).toBe(0);
  });

  test('shutDownWithDrain waits for in-flight keys', async () => {
    const q = new WorkQueue({ clock: new ManualClock() });
    q.add('k');
    const key = await q.get();
    let drained = false;
    const drain = q.shutDownWithDrain().then(() => (drained = true));
    await flushAsyncWork();
    expect(drained).toBe(false);
    q.done(key!);
    await drain;
    expect(drained).toBe(true);
  });

  describe('priorities (controller-runtime\'s priority queue)', () => {
    const drain = (q: WorkQueue): string[] => {
      const out: string[] = [];
      for (let key = q.tryGet(); key !== undefined; key = q.tryGet()) out.push(key);
      return out;
    };

    test('higher priorities leave first; keys of one priority leave in the order they came', () => {
      const q = new WorkQueue({ clock: new ManualClock() });
      q.add('low-1', LOW_PRIORITY);
      q.add('normal-1');
      q.add('low-2', LOW_PRIORITY);
      q.add('high', 10);
      q.add('normal-2', 0);
      expect(q.len()).toBe(5);
      expect(drain(q)).toEqual(['high', 'normal-1', 'normal-2', 'low-1', 'low-2']);
    });

    test('a queued key added again at a higher priority moves up and is handed out once; a lower one changes nothing', () => {
      const q = new WorkQueue({ clock: new ManualClock() });
      q.add('a', LOW_PRIORITY);
      q.add('b', LOW_PRIORITY);
      q.add('c', LOW_PRIORITY);
      q.add('c');
      q.add('a', LOW_PRIORITY - 5);
      expect(q.len()).toBe(3);
      expect(drain(q)).toEqual(['c', 'a', 'b']);
      expect(q.priorityOf('c')).toBe(0);
      expect(q.priorityOf('a')).toBe(LOW_PRIORITY);
    });

    test('a key added while processing is queued again at the highest priority it was given', () => {
      const q = new WorkQueue({ clock: new ManualClock() });
      q.add('k', LOW_PRIORITY);
      expect(q.tryGet()).toBe('k');
      q.add('other', 1);
      q.add('k', LOW_PRIORITY);
      q.add('k', 5);
      q.done('k');
      expect(drain(q)).toEqual(['k', 'other']);
      expect(q.priorityOf('k')).toBe(5);
    });

    test('delayed adds keep their priority; of two wake-ups the earlier time and the higher priority count', async () => {
      const clock = new ManualClock(0);
      const q = new WorkQueue({ clock });
      q.addAfter('late', 1_000, LOW_PRIORITY);
      q.addAfter('late', 5_000, 3);
      q.addAfter('first', 1_000);
      await clock.advance(999);
      expect(q.len()).toBe(0);
      await clock.advance(1);
      expect(drain(q)).toEqual(['late', 'first']);
      expect(q.priorityOf('late')).toBe(3);
    });

    test('usePriority: false makes one FIFO whatever the priorities', () => {
      const q = new WorkQueue({ clock: new ManualClock(), usePriority: false });
      q.add('low', LOW_PRIORITY);
      q.add('high', 10);
      q.add('normal');
      expect(drain(q)).toEqual(['low', 'high', 'normal']);
    });
  });
});
