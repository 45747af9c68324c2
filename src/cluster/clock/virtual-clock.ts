/**
 * The local cluster's virtual clock: one injectable time source for the API server, its built-in
 * controllers and the runtime under test. Time only moves when a test says so (`stepTo`, `advanceTo`,
 * `advance`), while work that is already due still runs by itself on the next macrotask.
 */
import type { Clock, Timer } from '../../clock/clock.js';

interface ScheduledTimer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

/** Lets the rest of the system finish reacting before the clock moves again (the cluster's settle()). */
export type SettleHook = () => Promise<void>;

/** A clock that a cluster hands out; both the virtual and the real variant implement it. */
export interface ClusterClock extends Clock {
  readonly mode: 'virtual' | 'real';
  /** Fires due timers one at a time, each with the clock at that timer's due time, ending at `t`. */
  stepTo(t: Date | string | number): Promise<void>;
  /** Sets the clock to `t`, then fires every timer due at or before `t` with the clock reading `t`. */
  advanceTo(t: Date | string | number): Promise<void>;
  /** `stepTo(now + ms)`. */
  advance(ms: number): Promise<void>;
  /** True when a timer is due at the current time and has not run yet. */
  hasDueTimers(): boolean;
  /** Time of the earliest pending timer, or undefined. */
  nextTimerAt(): number | undefined;
  /** Installs the hook run after every fired timer during stepTo/advanceTo. */
  setSettleHook(hook: SettleHook | undefined): void;
  /** Cancels every timer; the clock stays readable. */
  dispose(): void;
}

/** Accepts Dates, RFC 3339 strings and epoch milliseconds. */
export function toEpochMillis(t: Date | string | number): number {
  if (typeof t === 'number') return t;
  const ms = typeof t === 'string' ? Date.parse(t) : t.getTime();
  if (Number.isNaN(ms)) throw new Error(`invalid time ${JSON.stringify(t)}: expected a Date, an RFC 3339 string or epoch milliseconds`);
  return ms;
}

/** A binary min-heap of timers ordered by (at, seq), so equal times fire in scheduling order. */
class TimerHeap {
  private readonly items: ScheduledTimer[] = [];
  get size(): number {
    return this.items.length;
  }
  peek(): ScheduledTimer | undefined {
    return this.items[0];
  }
  push(t: ScheduledTimer): void {
    const items = this.items;
    items.push(t);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }
  pop(): ScheduledTimer | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && before(items[l]!, items[m]!)) m = l;
        if (r < items.length && before(items[r]!, items[m]!)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m]!, items[i]!];
        i = m;
      }
    }
    return top;
  }
  clear(): void {
    this.items.length = 0;
  }
}

function before(a: ScheduledTimer, b: ScheduledTimer): boolean {
  return a.at < b.at || (a.at === b.at && a.seq < b.seq);
}

const yieldMacrotask = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Virtual time: starts at `start` and moves only on stepTo/advanceTo/advance. */
export class VirtualClock implements ClusterClock {
  readonly mode = 'virtual' as const;
  private current: number;
  private seq = 0;
  private readonly heap = new TimerHeap();
  private drainScheduled = false;
  private moving = false;
  private settleHook: SettleHook | undefined;
  private disposed = false;

  constructor(start: Date | string | number = Math.floor(Date.now() / 1000) * 1000) {
    this.current = toEpochMillis(start);
  }

  now(): number {
    return this.current;
  }

  schedule(at: number, fn: () => void): Timer {
    const timer: ScheduledTimer = { at, seq: this.seq++, fn, cancelled: false };
    if (!this.disposed) this.heap.push(timer);
    if (at <= this.current) this.scheduleDrain();
    return { cancel: () => void (timer.cancelled = true) };
  }

  hasDueTimers(): boolean {
    this.dropCancelled();
    const top = this.heap.peek();
    return top !== undefined && top.at <= this.current;
  }

  nextTimerAt(): number | undefined {
    this.dropCancelled();
    return this.heap.peek()?.at;
  }

  setSettleHook(hook: SettleHook | undefined): void {
    this.settleHook = hook;
  }

  async stepTo(t: Date | string | number): Promise<void> {
    const target = toEpochMillis(t);
    this.assertForward(target);
    await this.exclusively(async () => {
      for (;;) {
        this.dropCancelled();
        const top = this.heap.peek();
        if (!top || top.at > target) break;
        this.heap.pop();
        if (top.at > this.current) this.current = top.at;
        this.run(top);
        await this.settle();
      }
      this.current = target;
      await this.settle();
    });
  }

  async advanceTo(t: Date | string | number): Promise<void> {
    const target = toEpochMillis(t);
    this.assertForward(target);
    await this.exclusively(async () => {
      this.current = target;
      for (;;) {
        this.dropCancelled();
        const top = this.heap.peek();
        if (!top || top.at > target) break;
        this.heap.pop();
        this.run(top);
        await this.settle();
      }
      await this.settle();
    });
  }

  advance(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new Error(`advance(ms): ms must be a non-negative number, got ${ms}`);
    return this.stepTo(this.current + ms);
  }

  dispose(): void {
    this.disposed = true;
    this.heap.clear();
  }

  private assertForward(target: number): void {
    if (target < this.current) {
      throw new Error(`the virtual clock only moves forward: ${new Date(target).toISOString()} is before ${new Date(this.current).toISOString()}`);
    }
  }

  private async exclusively(body: () => Promise<void>): Promise<void> {
    if (this.moving) throw new Error('the virtual clock is already being moved (await the previous stepTo/advanceTo first)');
    this.moving = true;
    try {
      await body();
    } finally {
      this.moving = false;
    }
  }

  private async settle(): Promise<void> {
    if (this.settleHook) await this.settleHook();
    else {
      await yieldMacrotask();
      this.drainDue();
    }
  }

  private run(timer: ScheduledTimer): void {
    if (timer.cancelled) return;
    timer.cancelled = true;
    try {
      timer.fn();
    } catch (err) {
      queueMicrotask(() => {
        throw err;
      });
    }
  }

  private dropCancelled(): void {
    while (this.heap.peek()?.cancelled) this.heap.pop();
  }

  private scheduleDrain(): void {
    if (this.drainScheduled || this.disposed) return;
    this.drainScheduled = true;
    setImmediate(() => {
      this.drainScheduled = false;
      this.drainDue();
    });
  }

  /** Runs every timer due at the current time (zero-delay work needs no clock move). */
  drainDue(): void {
    for (;;) {
      this.dropCancelled();
      const top = this.heap.peek();
      if (!top || top.at > this.current) return;
      this.heap.pop();
      this.run(top);
    }
  }
}

/** Wall-clock time for `kubeforge cluster start`; moving it by hand is refused with a clear error. */
export class RealClusterClock implements ClusterClock {
  readonly mode = 'real' as const;
  private readonly handles = new Set<NodeJS.Timeout>();
  now(): number {
    return Date.now();
  }
  schedule(at: number, fn: () => void): Timer {
    const handle = setTimeout(() => {
      this.handles.delete(handle);
      fn();
    }, Math.max(0, at - Date.now()));
    this.handles.add(handle);
    return {
      cancel: () => {
        clearTimeout(handle);
        this.handles.delete(handle);
      },
    };
  }
  hasDueTimers(): boolean {
    return false;
  }
  nextTimerAt(): number | undefined {
    return undefined;
  }
  setSettleHook(): void {}
  stepTo(): Promise<void> {
    return Promise.reject(new Error('stepTo: this cluster runs on the real clock (start it with clock: "virtual" to move time)'));
  }
  advanceTo(): Promise<void> {
    return Promise.reject(new Error('advanceTo: this cluster runs on the real clock (start it with clock: "virtual" to move time)'));
  }
  advance(): Promise<void> {
    return Promise.reject(new Error('advance: this cluster runs on the real clock (start it with clock: "virtual" to move time)'));
  }
  dispose(): void {
    for (const h of this.handles) clearTimeout(h);
    this.handles.clear();
  }
}
