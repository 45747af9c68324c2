/** VirtualClock: stepTo fires timers at their due times, advanceTo at the target, due work runs by itself. */
import { VirtualClock } from './virtual-clock.js';

const t0 = Date.parse('2024-01-15T10:00:00Z');

test('stepTo fires each timer with the clock at its due time, in order, ending at the target', async () => {
  const clock = new VirtualClock(t0);
  const seen: Array<[string, number]> = [];
  clock.schedule(t0 + 2000, () => seen.push(['b', clock.now()]));
  clock.schedule(t0 + 1000, () => {
    seen.push(['a', clock.now()]);
    clock.schedule(clock.now() + 500, () => seen.push(['a2', clock.now()]));
  });
  clock.schedule(t0 + 9000, () => seen.push(['late', clock.now()]));
  await clock.stepTo(t0 + 5000);
  expect(seen).toEqual([['a', t0 + 1000], ['a2', t0 + 1500], ['b', t0 + 2000]]);
  expect(clock.now()).toBe(t0 + 5000);
  expect(clock.nextTimerAt()).toBe(t0 + 9000);
});

test('advanceTo fires every due timer with the clock already at the target', async () => {
  const clock = new VirtualClock(t0);
  const seen: number[] = [];
  clock.schedule(t0 + 1000, () => seen.push(clock.now()));
  clock.schedule(t0 + 3000, () => seen.push(clock.now()));
  await clock.advanceTo('2024-01-15T10:00:05Z');
  expect(seen).toEqual([t0 + 5000, t0 + 5000]);
});

test('advance(ms) is stepTo(now + ms); cancelled timers never fire', async () => {
  const clock = new VirtualClock(t0);
  const seen: number[] = [];
  const timer = clock.schedule(t0 + 10, () => seen.push(1));
  clock.schedule(t0 + 20, () => seen.push(2));
  timer.cancel();
  await clock.advance(30);
  expect(seen).toEqual([2]);
  expect(clock.now()).toBe(t0 + 30);
});

test('work already due runs on the next macrotask without moving the clock', async () => {
  const clock = new VirtualClock(t0);
  let ran = false;
  clock.schedule(t0 - 5, () => (ran = true));
  expect(clock.hasDueTimers()).toBe(true);
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  expect(ran).toBe(true);
  expect(clock.now()).toBe(t0);
});

test('the clock refuses to go backwards and rejects bad times', async () => {
  const clock = new VirtualClock(t0);
  await expect(clock.stepTo(t0 - 1)).rejects.toThrow('the virtual clock only moves forward');
  await expect(clock.advanceTo('not a time')).rejects.toThrow('invalid time "not a time"');
});
