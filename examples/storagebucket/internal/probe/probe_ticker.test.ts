/*
Copyright 2026 The storagebucket Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

/** The ticker runnable on a manual clock: one generic event per interval, leader-only, stop/start, missed ticks dropped. */
import { channelSource, Dispatch, enqueueRequestForObject, type Clock, type Request, type Timer } from 'kubeforge/runtime';
import { ManualClock } from 'kubeforge/testing';
import { ProbeTicker } from './probe_ticker.js';

/** The ticks' objects as they reach a controller watching the ticker's channel. */
function watch(ticker: ProbeTicker): string[] {
  const seen: string[] = [];
  const queue = { add: (r: Request) => void seen.push(r.name), addAfter: (r: Request) => void seen.push(r.name) };
  channelSource(ticker.channel).start(new Dispatch(enqueueRequestForObject(), [], queue), { cache: undefined as never, clock: new ManualClock() });
  return seen;
}

describe('ProbeTicker', () => {
  test('needs leader election, as controller-runtime NeedLeaderElection() true', () => {
    expect(new ProbeTicker(1_000).needLeaderElection).toBe(true);
  });

  test('sends one generic event per interval of the clock it was started with, and none after stop', async () => {
    const clock = new ManualClock(Date.parse('2026-01-05T10:00:00Z'));
    const ticker = new ProbeTicker(10_000);
    const seen = watch(ticker);
    ticker.start({ clock });
    await clock.advance(9_999);
    expect(seen).toEqual([]);
    await clock.advance(1);
    await clock.advance(20_000);
    expect(seen).toEqual(['tick-1', 'tick-2', 'tick-3']);
    expect(ticker.ticks()).toBe(3);
    ticker.stop();
    await clock.advance(60_000);
    expect(ticker.ticks()).toBe(3);
    expect(clock.timers()).toEqual([]);
    // Started again (leading again): the first tick is one interval after the new start.
    ticker.start({ clock });
    await clock.advance(10_000);
    expect(seen).toEqual(['tick-1', 'tick-2', 'tick-3', 'tick-4']);
    ticker.stop();
  });

  test('ticks missed while the clock jumped ahead are dropped, as Go time.Ticker', () => {
    const scheduled: Array<{ at: number; fn: () => void }> = [];
    let now = 0;
    const lateClock: Clock = { now: () => now, schedule: (at, fn): Timer => (scheduled.push({ at, fn }), { cancel: () => undefined }) };
    const ticker = new ProbeTicker(1_000);
    ticker.start({ clock: lateClock });
    expect(scheduled.map((s) => s.at)).toEqual([1_000]);
    now = 4_500; // the process slept through three ticks
    scheduled[0]!.fn();
    expect(ticker.ticks()).toBe(1);
    expect(scheduled.map((s) => s.at)).toEqual([1_000, 5_500]);
    ticker.stop();
  });

  test('an interval of 0 is refused', () => {
    expect(() => new ProbeTicker(0)).toThrow('ProbeTicker: the interval must be > 0 ms, got 0');
  });
});
