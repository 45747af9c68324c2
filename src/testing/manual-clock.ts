/**
 * A minimal manual clock for unit tests that need no cluster (queues, backoff, leader-election timing):
 * time moves only through `advance`/`stepTo`, firing due timers in (time, scheduling) order.
 */
import type { Clock, Timer } from '../clock/clock.js';

interface Pending {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export class ManualClock implements Clock {
  private current: number;
  private seq = 0;
  private pending: Pending[] = [];

  constructor(start: number | Date = 0) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): number {
    return this.current;
  }

  schedule(at: number, fn: () => void): Timer {
    const entry: Pending = { at, seq: this.seq++, fn, cancelled: false };
    this.pending.push(entry);
    if (at <= this.current) queueMicrotask(() => this.fireDue());
    return { cancel: () => void (entry.cancelled = true) };
  }

  /** Pending (not cancelled) timers, earliest first. */
  timers(): number[] {
    return this.live().map((p) => p.at);
  }

  /** Fires timers due up to `now + ms`, each with the clock at its due time, yielding between them. */
  async advance(ms: number): Promise<void> {
    await this.stepTo(this.current + ms);
  }

  async stepTo(target: number): Promise<void> {
    for (;;) {
      const next = this.live()[0];
      if (!next || next.at > target) break;
      this.current = Math.max(this.current, next.at);
      next.cancelled = true;
      next.fn();
      await flushAsyncWork();
    }
    this.current = Math.max(this.current, target);
    await flushAsyncWork();
  }

  private fireDue(): void {
    for (const p of this.live()) {
      if (p.at > this.current) break;
      p.cancelled = true;
      p.fn();
    }
  }

  private live(): Pending[] {
    this.pending = this.pending.filter((p) => !p.cancelled);
    return [...this.pending].sort((a, b) => a.at - b.at || a.seq - b.seq);
  }
}

/** Lets promise chains started by fired timers run to their next real wait. */
export async function flushAsyncWork(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
