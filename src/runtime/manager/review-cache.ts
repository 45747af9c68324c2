/**
 * A cache of review answers (TokenReview, SubjectAccessReview) that also shares a review in flight: concurrent
 * callers asking about one key wait on one request to the API server, as the apiserver's cached token
 * authenticator does with its single-flight group. Each answer is kept for a time that depends on it (allowed
 * and denied verdicts differ); a failed review is shared with those waiting on it but never kept.
 */
import type { Clock } from '../clock.js';

/** Past this many entries the expired ones go, then the oldest. */
const MAX_ENTRIES = 1_000;

export class ReviewCache<V> {
  private readonly answers = new Map<string, { expires: number; value: V }>();
  private readonly inFlight = new Map<string, Promise<V>>();

  constructor(
    private readonly clock: Clock,
    /** How long an answer is kept, in ms of clock time. */
    private readonly ttlOf: (value: V) => number,
  ) {}

  /** The kept answer for `key`, the review already asking for it, or a new review from `review()`. */
  get(key: string, review: () => Promise<V>): Promise<V> {
    const kept = this.answers.get(key);
    if (kept && kept.expires > this.clock.now()) return Promise.resolve(kept.value);
    const pending = this.inFlight.get(key);
    if (pending) return pending;
    const asked = review().then(
      (value) => {
        this.inFlight.delete(key);
        this.keep(key, value);
        return value;
      },
      (err: unknown) => {
        this.inFlight.delete(key);
        throw err;
      },
    );
    this.inFlight.set(key, asked);
    return asked;
  }

  private keep(key: string, value: V): void {
    const ttl = this.ttlOf(value);
    if (ttl <= 0) return;
    if (this.answers.size >= MAX_ENTRIES) this.evict();
    this.answers.delete(key); // re-inserted last: Map order is age order
    this.answers.set(key, { expires: this.clock.now() + ttl, value });
  }

  private evict(): void {
    const now = this.clock.now();
    for (const [key, answer] of this.answers) if (answer.expires <= now) this.answers.delete(key);
    for (const key of this.answers.keys()) {
      if (this.answers.size < MAX_ENTRIES) break;
      this.answers.delete(key);
    }
  }
}
