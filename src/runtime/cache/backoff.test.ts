/** withBackoff alone, on a ManualClock: it waits after each Error before pulling again, doubling to the max, and starts over after a delivery. */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { flushAsyncWork, ManualClock } from '../../testing/manual-clock.js';
import { backoffDelay, withBackoff } from './backoff.js';
import { cm } from './testdata/scripted-server.js';
import type { WatchEvent } from './watch-event.js';

/** A source that records the clock time of each event it hands out. */
function recordingSource(clock: ManualClock, script: Array<WatchEvent<ConfigMap>>) {
  const pulls: number[] = [];
  async function* events(): AsyncGenerator<WatchEvent<ConfigMap>> {
    for (const e of script) {
      pulls.push(clock.now());
      yield e;
    }
  }
  return { events: events(), pulls };
}

const failure = (): WatchEvent<ConfigMap> => ({ type: 'Error', error: new Error('refused') });

test('waits initialMs, then doubles up to maxMs on the clock; a delivered object starts it over', async () => {
  const clock = new ManualClock(0);
  const source = recordingSource(clock, [failure(), failure(), failure(), { type: 'Apply', object: cm('a', '1') }, failure(), { type: 'Bookmark', resourceVersion: '2' }]);
  const delays: Array<[number, number]> = [];
  const seen: string[] = [];
  const done = (async () => {
    for await (const e of withBackoff(source.events, { initialMs: 100, maxMs: 250, jitter: 0, clock, onBackoff: (_err, ms, failures) => delays.push([ms, failures]) })) seen.push(`${clock.now()} ${e.type}`);
  })();
  await flushAsyncWork();
  expect(source.pulls).toEqual([0]);
  await clock.stepTo(99);
  expect(source.pulls).toEqual([0]); // not a moment early
  await clock.stepTo(100);
  expect(source.pulls).toEqual([0, 100]);
  await clock.stepTo(299);
  expect(source.pulls).toEqual([0, 100]);
  await clock.stepTo(300);
  await clock.stepTo(550);
  await clock.stepTo(650);
  await done;
  expect(source.pulls).toEqual([0, 100, 300, 550, 550, 650]);
  expect(delays).toEqual([[100, 1], [200, 2], [250, 3], [100, 1]]);
  expect(seen).toEqual(['0 Error', '100 Error', '300 Error', '550 Apply', '550 Error', '650 Bookmark']);
  expect(clock.timers()).toEqual([]);
});

test('an aborted signal ends a pending wait and the stream', async () => {
  const clock = new ManualClock(0);
  const source = recordingSource(clock, [failure(), { type: 'Bookmark', resourceVersion: '1' }]);
  const abort = new AbortController();
  const seen: string[] = [];
  const done = (async () => {
    for await (const e of withBackoff(source.events, { initialMs: 1000, clock, signal: abort.signal })) seen.push(e.type);
  })();
  await flushAsyncWork();
  abort.abort();
  await done;
  expect(seen).toEqual(['Error']);
  expect(source.pulls).toEqual([0]);
  expect(clock.timers()).toEqual([]);
});

test('jitter stays within ±jitter of the doubled delay', () => {
  expect(backoffDelay({ initialMs: 200 }, 1, () => 0)).toBe(150);
  expect(backoffDelay({ initialMs: 200 }, 1, () => 0.999999)).toBeCloseTo(250, 3);
  expect(backoffDelay({ initialMs: 200, maxMs: 1000 }, 10, () => 0.5)).toBe(1000);
});
