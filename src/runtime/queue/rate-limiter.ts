/**
 * Per-key retry delays for the work queue: client-go's exponential failure limiter (5 ms doubling up to
 * 1000 s, reset by `forget`) and a fixed-delay limiter for deterministic simulations.
 */

export interface RateLimiter {
  /** The delay (ms) before `key` may be retried, counting this call as one more failure. */
  when(key: string): number;
  /** Clears the failure history of `key` (call after a successful reconcile). */
  forget(key: string): void;
  /** How many failures `key` has had since it was last forgotten. */
  numRequeues(key: string): number;
}

/** base · 2^failures, capped at max: 5 ms, 10 ms, 20 ms, … 1000 s (controller-runtime's default). */
export class ExponentialFailureRateLimiter implements RateLimiter {
  private readonly failures = new Map<string, number>();

  constructor(
    private readonly baseMs = 5,
    private readonly maxMs = 1000_000,
  ) {}

  when(key: string): number {
    const failures = this.failures.get(key) ?? 0;
    this.failures.set(key, failures + 1);
    // 2^failures overflows to Infinity long after the cap applies, so Math.min keeps it finite.
    return Math.min(this.baseMs * 2 ** failures, this.maxMs);
  }

  forget(key: string): void {
    this.failures.delete(key);
  }

  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }
}

/** Always the same delay; the local-cluster contract (reference-operators §0.3.11) uses 1 s. */
export class FixedDelayRateLimiter implements RateLimiter {
  private readonly failures = new Map<string, number>();

  constructor(private readonly delayMs = 1000) {}

  when(key: string): number {
    this.failures.set(key, (this.failures.get(key) ?? 0) + 1);
    return this.delayMs;
  }

  forget(key: string): void {
    this.failures.delete(key);
  }

  numRequeues(key: string): number {
    return this.failures.get(key) ?? 0;
  }
}
