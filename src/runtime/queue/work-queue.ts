/**
 * The controller's work queue: keyed and de-duplicating (a key queued twice is processed once), delaying
 * (`addAfter` on the Clock), rate-limited (`addRateLimited` with per-key backoff), and never handing the same
 * key to two workers at once — client-go's dirty/processing sets. `shutDownWithDrain` waits for in-flight work.
 * It is controller-runtime's priority queue (its default since v0.23): every add carries a priority (higher
 * first, 0 by default; `LOW_PRIORITY` for objects of an informer's initial list), keys of one priority leave
 * in the order they came, and a key added again keeps the highest priority it was given.
 */
import type { Clock, Timer } from '../clock.js';
import { ExponentialFailureRateLimiter, type RateLimiter } from './rate-limiter.js';

/** Hooks for workqueue_* metrics; every method is optional. */
export interface WorkQueueMetrics {
  add?(): void;
  depth?(depth: number): void;
  retry?(): void;
  /** Seconds the key waited in the queue before a worker took it. */
  queueLatency?(seconds: number): void;
  /** Seconds a worker held the key. */
  workDuration?(seconds: number): void;
}

/** The priority controller-runtime gives requests from an informer's initial list and from unchanged updates. */
export const LOW_PRIORITY = -100;

export interface WorkQueueOptions {
  clock: Clock;
  /** Order by priority (default true); false: one FIFO, priorities ignored (controller-runtime's UsePriorityQueue=false). */
  usePriority?: boolean;
  rateLimiter?: RateLimiter;
  metrics?: WorkQueueMetrics;
  /** Called whenever the queue's idle state may have changed (for settle()). */
  onActivity?: () => void;
}

interface Waiting {
  at: number;
  priority: number;
  timer: Timer;
}

/** The keys queued at one priority, in arrival order; an entry is live while its key's sequence number matches. */
interface Bucket {
  priority: number;
  keys: string[];
  sequences: number[];
  head: number;
}

export class WorkQueue {
  private readonly clock: Clock;
  private readonly rateLimiter: RateLimiter;
  private readonly metrics: WorkQueueMetrics;
  private readonly onActivity: () => void;
  private readonly usePriority: boolean;
  /** Buckets by priority, highest first. */
  private readonly buckets: Bucket[] = [];
  /** Keys queued and not yet taken (with their sequence number in a bucket). */
  private readonly queued = new Map<string, number>();
  private sequence = 0;
  /** Dirty keys (queued, or added again while processing) → the highest priority they were given. */
  private readonly dirty = new Map<string, number>();
  /** Keys held by workers → performance.now() when taken. */
  private readonly processing = new Map<string, number>();
  /** Keys held by workers → the priority they were queued with (a requeue keeps it). */
  private readonly takenPriority = new Map<string, number>();
  private readonly addedAt = new Map<string, number>();
  /** Keys held by workers → seconds they waited in the queue (observed when done, off the hand-off path). */
  private readonly waitedSeconds = new Map<string, number>();
  private readonly waiting = new Map<string, Waiting>();
  private readonly getters: Array<(key: string | undefined) => void> = [];
  private shuttingDown = false;
  private drainWaiters: Array<() => void> = [];

  constructor(options: WorkQueueOptions) {
    this.clock = options.clock;
    this.rateLimiter = options.rateLimiter ?? new ExponentialFailureRateLimiter();
    this.metrics = options.metrics ?? {};
    this.onActivity = options.onActivity ?? (() => {});
    this.usePriority = options.usePriority ?? true;
  }

  /**
   * Queues `key` at `priority` unless it is already queued; a key queued at a lower priority moves up to
   * this one. A key being processed is queued again (at the highest priority it was given) when it is done.
   */
  add(key: string, priority = 0): void {
    if (this.shuttingDown) return;
    if (!this.usePriority) priority = 0;
    const earlier = this.dirty.get(key);
    if (earlier !== undefined) {
      if (priority <= earlier) return;
      this.dirty.set(key, priority);
      if (this.queued.has(key)) this.enqueue(key, priority); // the entry at the old priority goes stale
      return;
    }
    this.metrics.add?.();
    this.dirty.set(key, priority);
    this.addedAt.set(key, performance.now());
    if (this.processing.has(key)) return;
    this.push(key, priority);
  }

  /**
   * Queues `key` at `priority` after `delayMs` of clock time. Of two pending wake-ups for a key the earlier
   * time and the higher priority count (controller-runtime's "min of durations, max of priorities").
   */
  addAfter(key: string, delayMs: number, priority = 0): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) return this.add(key, priority);
    const at = this.clock.now() + delayMs;
    const existing = this.waiting.get(key);
    if (existing && existing.at <= at) {
      existing.priority = Math.max(existing.priority, priority);
      return;
    }
    existing?.timer.cancel();
    const timer = this.clock.schedule(at, () => {
      const current = this.waiting.get(key);
      if (current?.timer !== timer) return;
      this.waiting.delete(key);
      this.add(key, current.priority);
    });
    this.waiting.set(key, { at, priority: Math.max(priority, existing?.priority ?? priority), timer });
  }

  /** Queues `key` at `priority` after its rate limiter's backoff (one more failure). */
  addRateLimited(key: string, priority = 0): void {
    this.metrics.retry?.();
    this.addAfter(key, this.rateLimiter.when(key), priority);
  }

  /** The priority a key held by a worker was queued with (0 for a key not held). */
  priorityOf(key: string): number {
    return this.takenPriority.get(key) ?? 0;
  }

  /** Resets the key's backoff (after a success). */
  forget(key: string): void {
    this.rateLimiter.forget(key);
  }

  numRequeues(key: string): number {
    return this.rateLimiter.numRequeues(key);
  }

  /** The next queued key at once, or undefined when none is queued (or the queue is shut down). Call `done(key)` afterwards. */
  tryGet(): string | undefined {
    return this.take();
  }

  /** The next key to process, or undefined once the queue is shut down. Call `done(key)` afterwards. */
  get(): Promise<string | undefined> {
    const key = this.take();
    if (key !== undefined || this.shuttingDown) return Promise.resolve(key);
    return new Promise((resolve) => this.getters.push(resolve));
  }

  /** Marks `key` finished; if it was added while processing, it is queued again now. */
  done(key: string): void {
    const started = this.processing.get(key);
    if (started === undefined) return;
    this.processing.delete(key);
    this.takenPriority.delete(key);
    const waited = this.waitedSeconds.get(key);
    this.waitedSeconds.delete(key);
    if (waited !== undefined) this.metrics.queueLatency?.(waited);
    this.metrics.workDuration?.((performance.now() - started) / 1000);
    const again = this.dirty.get(key);
    if (again !== undefined && !this.shuttingDown) this.push(key, again);
    if (this.processing.size === 0 && this.drainWaiters.length > 0) this.releaseDrainWaiters();
    this.onActivity();
  }

  /** Keys queued and not yet taken. */
  len(): number {
    return this.queued.size;
  }

  /** Keys currently held by workers. */
  inFlight(): number {
    return this.processing.size;
  }

  /** Keys waiting for a delay (clock timers). */
  delayed(): number {
    return this.waiting.size;
  }

  /** Nothing queued and nothing being processed (delayed keys are the clock's business). */
  isIdle(): boolean {
    return this.len() === 0 && this.processing.size === 0;
  }

  isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Stops handing out work and drops queued and delayed keys; waiting `get()` calls resolve undefined. */
  shutDown(): void {
    this.shuttingDown = true;
    for (const { timer } of this.waiting.values()) timer.cancel();
    this.waiting.clear();
    this.buckets.length = 0;
    this.queued.clear();
    this.dirty.clear();
    for (const getter of this.getters.splice(0)) getter(undefined);
    if (this.processing.size === 0) this.releaseDrainWaiters();
    this.onActivity();
  }

  /** Shuts down, then resolves when every key handed out has been marked done. */
  async shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processing.size === 0) return;
    await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }

  private push(key: string, priority: number): void {
    this.enqueue(key, priority);
    const getter = this.getters.shift();
    if (getter) getter(this.take());
    else this.metrics.depth?.(this.len());
    this.onActivity();
  }

  /** Appends `key` to the bucket of `priority` (made when missing, in order) as its one live entry. */
  private enqueue(key: string, priority: number): void {
    let bucket = this.buckets.find((b) => b.priority === priority);
    if (!bucket) {
      bucket = { priority, keys: [], sequences: [], head: 0 };
      const at = this.buckets.findIndex((b) => b.priority < priority);
      this.buckets.splice(at < 0 ? this.buckets.length : at, 0, bucket);
    }
    const sequence = ++this.sequence;
    bucket.keys.push(key);
    bucket.sequences.push(sequence);
    this.queued.set(key, sequence);
  }

  private take(): string | undefined {
    if (this.shuttingDown || this.queued.size === 0) return undefined;
    for (const bucket of this.buckets) {
      while (bucket.head < bucket.keys.length) {
        const key = bucket.keys[bucket.head]!;
        const live = this.queued.get(key) === bucket.sequences[bucket.head];
        bucket.head++;
        if (bucket.head > 1024 && bucket.head * 2 > bucket.keys.length) {
          bucket.keys.splice(0, bucket.head);
          bucket.sequences.splice(0, bucket.head);
          bucket.head = 0;
        }
        if (live) return this.hand(key, bucket.priority);
      }
    }
    return undefined;
  }

  /** Moves a queued key to the workers' side. */
  private hand(key: string, priority: number): string {
    this.queued.delete(key);
    this.dirty.delete(key);
    const now = performance.now();
    this.processing.set(key, now);
    this.takenPriority.set(key, priority);
    const added = this.addedAt.get(key);
    this.addedAt.delete(key);
    if (added !== undefined) this.waitedSeconds.set(key, (now - added) / 1000);
    this.metrics.depth?.(this.len());
    return key;
  }

  private releaseDrainWaiters(): void {
    for (const waiter of this.drainWaiters.splice(0)) waiter();
  }
}
