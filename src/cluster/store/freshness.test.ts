/** FreshnessWaiter: parks a read until the store reaches a resourceVersion, or 504 after 3 s of (virtual) clock time. */
import { ApiError } from '../errors/status-errors.js';
import { VirtualClock } from '../clock/virtual-clock.js';
import { FreshnessWaiter, requestedResourceVersion, tooLargeResourceVersion } from './freshness.js';
import { ObjectStore } from './object-store.js';

const setup = () => {
  const store = new ObjectStore({ initialResourceVersion: 100 });
  const clock = new VirtualClock('2026-11-22T10:00:00Z');
  return { store, clock, waiter: new FreshnessWaiter(store, clock) };
};
const cm = (name: string) => ({ metadata: { name, namespace: 'ns' } });

test('resolves at once when the store is already there, and when the store catches up', async () => {
  const { store, waiter } = setup();
  await waiter.waitUntilFresh(100);
  await waiter.waitUntilFresh(undefined);
  const waiting = waiter.waitUntilFresh(102);
  expect(waiter.waiting).toBe(1);
  store.create('configmaps', cm('a'));
  expect(waiter.waiting).toBe(1);
  store.create('configmaps', cm('b'));
  await waiting;
  expect(waiter.waiting).toBe(0);
});

test('rejects with the 504 ResourceVersionTooLarge status once 3 s of clock time pass', async () => {
  const { store, clock, waiter } = setup();
  const waiting = waiter.waitUntilFresh(105);
  const outcome = waiting.then(() => 'resolved', (e: unknown) => e);
  store.create('configmaps', cm('a'));
  await clock.advance(2999);
  expect(waiter.waiting).toBe(1);
  await clock.advance(1);
  const err = (await outcome) as ApiError;
  expect(err).toBeInstanceOf(ApiError);
  expect(err.status).toEqual(tooLargeResourceVersion(105, 101).status);
  expect(err.status.message).toBe('Timeout: Too large resource version: 105, current: 101');
  expect(err.status.details).toEqual({ causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 });
  expect(waiter.waiting).toBe(0);
  // the timer was the only one: nothing is left scheduled
  expect(clock.nextTimerAt()).toBeUndefined();
});

test('a query value is parsed as a resourceVersion; "0" and "" mean any', () => {
  expect(requestedResourceVersion('0')).toBeUndefined();
  expect(requestedResourceVersion('')).toBeUndefined();
  expect(requestedResourceVersion(null)).toBeUndefined();
  expect(requestedResourceVersion('1234')).toBe(1234);
  expect(() => requestedResourceVersion('abc')).toThrow('invalid resource version: abc');
});
