/** The watch-stall timer on a clock: fires only after a full timeout without a refresh, once. */
import { ManualClock } from '../../testing/manual-clock.js';
import { stallTimer } from './stall-timer.js';

test('fires when nothing arrived for the timeout, measured from the last refresh', async () => {
  const clock = new ManualClock(0);
  const fired: number[] = [];
  const timer = stallTimer(90_000, () => fired.push(clock.now()), clock);
  await clock.stepTo(60_000);
  timer.refresh();
  await clock.stepTo(149_999);
  expect(fired).toEqual([]);
  await clock.stepTo(150_000);
  expect(fired).toEqual([150_000]);
  expect(clock.timers()).toEqual([]);
});

test('a cancelled timer never fires', async () => {
  const clock = new ManualClock(0);
  let fired = false;
  const timer = stallTimer(1000, () => (fired = true), clock);
  timer.cancel();
  await clock.stepTo(10_000);
  expect(fired).toBe(false);
});

test('on real time: a steady stream of refreshes keeps it quiet, silence fires it once, not early', async () => {
  const started = Date.now();
  let firedAt = 0;
  let fires = 0;
  const timer = stallTimer(40, () => {
    fires++;
    firedAt = Date.now();
  });
  const feeding = setInterval(() => timer.refresh(), 5);
  await new Promise((r) => setTimeout(r, 120));
  clearInterval(feeding);
  const lastRefresh = Date.now();
  expect(fires).toBe(0);
  await new Promise((r) => setTimeout(r, 150));
  timer.cancel();
  expect(fires).toBe(1);
  expect(firedAt - lastRefresh).toBeGreaterThanOrEqual(40 - 15); // the last refresh may sit inside the last period
  expect(firedAt - started).toBeGreaterThan(120);
});
