/**
 * Waiting for the store to reach a resourceVersion a client asked for (the watch cache's
 * waitUntilFreshAndBlock): up to 3 s on the cluster's clock, then 504 Timeout with the
 * `ResourceVersionTooLarge` cause, as a Kubernetes 1.32 server answers.
 */
import type { Clock } from '../../clock/clock.js';
import { ApiError } from '../errors/status-errors.js';
import type { ObjectStore } from './object-store.js';

/** How long a read waits for a resourceVersion the store has not reached (the watch cache's blockTimeout). */
export const freshnessWaitMs = 3000;

/** The 504 a read gets for a resourceVersion newer than the store's (`retryAfterSeconds` 1 from the cache, 0 from etcd). */
export function tooLargeResourceVersion(rv: number, current: number, retryAfterSeconds = 1): ApiError {
  return new ApiError(504, 'Timeout', `Timeout: Too large resource version: ${rv}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    ...(retryAfterSeconds ? { retryAfterSeconds } : {}),
  });
}

/** Parses a positive resourceVersion query value; undefined for unset, "" and "0" (= any). */
export function requestedResourceVersion(value: string | undefined | null): number | undefined {
  if (value === undefined || value === null || value === '' || value === '0') return undefined;
  const rv = Number(value);
  if (!Number.isSafeInteger(rv) || rv < 0) throw new ApiError(400, 'BadRequest', `invalid resource version: ${value}`);
  return rv;
}

/** Parks reads until the store catches up; counts them so settle() does not mistake a parked read for work. */
export class FreshnessWaiter {
  private parked = 0;

  constructor(
    private readonly store: ObjectStore,
    private readonly clock: Clock,
    private readonly timeoutMs = freshnessWaitMs,
  ) {}

  /** Reads waiting right now for the store to catch up. */
  get waiting(): number {
    return this.parked;
  }

  /** Resolves once the store's resourceVersion is at least `rv`; rejects with the 504 after the timeout. */
  waitUntilFresh(rv: number | undefined): Promise<void> {
    if (rv === undefined || this.store.resourceVersion >= rv) return Promise.resolve();
    this.parked++;
    return new Promise<void>((resolve, reject) => {
      let finished = false;
      const finish = (err?: ApiError): void => {
        if (finished) return;
        finished = true;
        this.parked--;
        unsubscribe();
        timer.cancel();
        if (err) reject(err);
        else resolve();
      };
      const unsubscribe = this.store.onCommit((event) => {
        if (event.rv >= rv) finish();
      });
      const timer = this.clock.schedule(this.clock.now() + this.timeoutMs, () => finish(tooLargeResourceVersion(rv, this.store.resourceVersion)));
    });
  }
}
