/** withStallDetection alone: a watch silent for the timeout is restarted (on a stepped clock, or real time by default), and only an open watch is timed. */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { flushAsyncWork, ManualClock } from '../../testing/manual-clock.js';
import { withStallDetection } from './stall-detection.js';
import { cm, until } from './testdata/scripted-server.js';
import { WatchStalledError, type WatchEvent, type WatchEvents } from './watch-event.js';

/** A restartable source the test pushes events into; a restart yields the reason as an Error event. */
function pushSource(): WatchEvents<ConfigMap> & { push(e: WatchEvent<ConfigMap>): void; restarts: Error[] } {
  const queue: Array<WatchEvent<ConfigMap>> = [];
  let wake: (() => void) | undefined;
  const restarts: Error[] = [];
  const push = (e: WatchEvent<ConfigMap>): void => {
    queue.push(e);
    wake?.();
  };
  return {
    push,
    restarts,
    restartWatch(reason) {
      restarts.push(reason);
      push({ type: 'Error', error: reason });
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (queue.length > 0) yield queue.shift()!;
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
  };
}

function consume(events: AsyncIterable<WatchEvent<ConfigMap>>): { seen: string[]; stop: () => void } {
  const seen: string[] = [];
  let stopped = false;
  void (async () => {
    for await (const e of events) {
      seen.push(e.type === 'Error' ? `Error ${e.error.name}` : e.type);
      if (stopped) return;
    }
  })();
  return { seen, stop: () => (stopped = true) };
}

test('on a clock: no event or bookmark for the timeout restarts the watch once; an event in between postpones it', async () => {
  const clock = new ManualClock(0);
  const source = pushSource();
  const stalls: WatchStalledError[] = [];
  const { seen } = consume(withStallDetection(source, { timeoutMs: 90_000, clock, onStall: (e) => stalls.push(e) }));
  source.push({ type: 'WatchOpened', resourceVersion: '1' });
  await flushAsyncWork();
  await clock.stepTo(60_000);
  source.push({ type: 'Apply', object: cm('a', '2') });
  await flushAsyncWork();
  await clock.stepTo(149_999);
  expect(source.restarts).toEqual([]);
  await clock.stepTo(150_000);
  expect(source.restarts).toHaveLength(1);
  expect(source.restarts[0]).toBeInstanceOf(WatchStalledError);
  expect(stalls).toEqual(source.restarts);
  expect(seen).toEqual(['WatchOpened', 'Apply', 'Error WatchStalledError']);
  await clock.stepTo(1_000_000);
  expect(source.restarts).toHaveLength(1); // after the error nothing is timed until a watch opens again
  expect(clock.timers()).toEqual([]);
  source.push({ type: 'WatchOpened', resourceVersion: '2' });
  await flushAsyncWork();
  expect(clock.timers()).toEqual([1_090_000]);
});

test('a list (no watch open) is never a stall', async () => {
  const clock = new ManualClock(0);
  const source = pushSource();
  consume(withStallDetection(source, { timeoutMs: 1000, clock }));
  source.push({ type: 'Init' });
  source.push({ type: 'InitApply', object: cm('a', '1') });
  await flushAsyncWork();
  await clock.stepTo(10_000);
  expect(source.restarts).toEqual([]);
  expect(clock.timers()).toEqual([]);
});

test('by default on real time: a silent watch is restarted after the timeout, not before', async () => {
  const source = pushSource();
  const opened = Date.now();
  const { stop } = consume(withStallDetection(source, { timeoutMs: 40 }));
  source.push({ type: 'WatchOpened', resourceVersion: '1' });
  await until(() => source.restarts.length > 0, 'a stall on real time', 2000);
  expect(Date.now() - opened).toBeGreaterThanOrEqual(40);
  stop();
  source.push({ type: 'Init' });
});
