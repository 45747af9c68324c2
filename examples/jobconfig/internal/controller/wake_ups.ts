/**
 * The earliest future instant a reconcile must look again at (retry delay, pending timeout, kill time,
 * force deletion, TTL, startAfter), turned into a `requeueAfter` on the manager's clock.
 */
import type { Result } from 'kubeforge/runtime';

export class WakeUps {
  private earliest: number | undefined;

  constructor(private readonly nowMs: number) {}

  /** Asks to be woken at `ms` (ignored unless it is in the future). */
  at(ms: number): void {
    if (ms <= this.nowMs) return;
    if (this.earliest === undefined || ms < this.earliest) this.earliest = ms;
  }

  result(): { requeueAfter?: number } & Result {
    return this.earliest === undefined ? {} : { requeueAfter: this.earliest - this.nowMs };
  }
}
