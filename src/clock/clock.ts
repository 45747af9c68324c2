/**
 * The clock every timer and `now()` in kubeforge goes through: the real clock in a cluster, the local
 * cluster's virtual clock in tests. Reconcilers, queues, backoffs, leader election and the local
 * cluster's built-in controllers never call `Date.now()` or `setTimeout` themselves. A module of its own,
 * so that the runtime and the local cluster both import it and the cluster never imports the runtime.
 */

/** A scheduled callback that can be cancelled before it fires. */
export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Runs `fn` once when the clock reaches `at` (epoch milliseconds); at once (next macrotask) if `at` has passed. */
  schedule(at: number, fn: () => void): Timer;
}

/** Runs `fn` after `ms` milliseconds of `clock` time. */
export function after(clock: Clock, ms: number, fn: () => void): Timer {
  return clock.schedule(clock.now() + ms, fn);
}

/** Wall-clock time and Node timers. */
export const realClock: Clock = {
  now: () => Date.now(),
  schedule(at, fn) {
    const handle = setTimeout(fn, Math.max(0, at - Date.now()));
    return { cancel: () => clearTimeout(handle) };
  },
};
