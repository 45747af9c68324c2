/**
 * Backoff as a wrapper around a watch event stream (kube-rs' StreamBackoff): after an Error event it waits
 * before pulling the next event — the watcher retries only when pulled, so the wait is the backoff. The delay
 * starts at `initialMs`, doubles per failure in a row up to `maxMs`, with ±`jitter` (default 25 %), and starts
 * over once the stream delivers again (a complete list, an object, a bookmark). Timed on `clock` (default the
 * real clock; a test's ManualClock steps it). A stopped `signal` ends the wait and the stream.
 *
 *   const abort = new AbortController();
 *   for await (const e of withBackoff(watch(client, kind), { initialMs: 100, clock, signal: abort.signal }))
 *     if (e.type === 'Error') console.warn('retrying after', e.error.message);
 */
import type { KubeObject } from '../client/object.js';
import { after, realClock, type Clock } from '../clock.js';
import { EventStream, type EventTap } from './event-stream.js';
import { keepShape } from '../keep-shape.js';
import type { WatchEvent, WatchEvents } from './watch-event.js';

export interface BackoffPolicy {
  /** First delay (ms, default 200). */
  initialMs?: number;
  /** Longest delay (ms, default 30 000). */
  maxMs?: number;
  /** Relative jitter either way (default 0.25). */
  jitter?: number;
  clock?: Clock;
  /** A number in [0, 1) for the jitter (default Math.random). */
  random?: () => number;
  /** Aborted: the pending wait ends and so does the stream. */
  signal?: AbortSignal;
  /** Told before each wait, with the failure that caused it and how many failed in a row. */
  onBackoff?(error: Error, delayMs: number, failures: number): void;
}

/** The wait after the `failures`-th failure in a row (1 = the first). */
export function backoffDelay(policy: BackoffPolicy, failures: number, random: () => number = policy.random ?? Math.random): number {
  const initial = policy.initialMs ?? 200;
  const max = policy.maxMs ?? 30_000;
  const jitter = policy.jitter ?? 0.25;
  const base = Math.min(initial * 2 ** Math.max(0, failures - 1), max);
  return base * (1 - jitter + random() * 2 * jitter);
}

export function withBackoff<T extends KubeObject>(events: AsyncIterable<WatchEvent<T>> & Partial<WatchEvents<T>>, policy: BackoffPolicy = {}): EventStream<T> {
  return EventStream.of(events).through(new BackoffTap<T>(policy));
}

/**
 * withBackoff's stage: counts failures in a row and waits after each. A class, not a closure per stream: the
 * pipeline calls onEvent on every event, and a closure's compiled code dies with its runtime (keep-shape.ts).
 */
class BackoffTap<T extends KubeObject> implements EventTap<T> {
  private failures = 0;
  private readonly clock: Clock;

  constructor(private readonly policy: BackoffPolicy) {
    this.clock = policy.clock ?? realClock;
  }

  onEvent(event: WatchEvent<T>): Promise<boolean> | undefined {
    const type = event.type;
    if (type !== 'Error') {
      if (this.failures !== 0 && (type === 'Apply' || type === 'Delete' || type === 'Bookmark' || type === 'InitDone')) this.failures = 0;
      return undefined;
    }
    const failures = ++this.failures;
    const delay = backoffDelay(this.policy, failures);
    this.policy.onBackoff?.(event.error, delay, failures);
    return sleep(this.clock, delay, this.policy.signal);
  }
}

keepShape(new BackoffTap({}));

/** Waits `ms` on `clock`; false when `signal` aborted (before or during the wait). */
function sleep(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      timer.cancel();
      resolve(false);
    };
    const timer = after(clock, ms, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    });
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
