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
import { keepShape } from '../keep-shape.js';

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
  /** Called whenever the queue's idle state may have changed (for settle(); the manager reads `changes()` instead). */
  onActivity?: () => void;
}

interface Waiting {
  at: number;
  priority: number;
  timer: Timer;
}

/**
 * The keys queued at one priority, in arrival order, in `keys[head..tail)`; an entry is live while its key's
 * sequence number matches. The arrays are reused in place: a drained bucket starts again at 0, a long backlog
 * is moved down with copyWithin — no array is allocated or regrown per key in a steady stream (splice and push
 * after each drain allocated ~50 bytes per key). A taken slot is emptied, so no finished key's string is kept.
 */
interface Bucket {
  priority: number;
  keys: string[];
  sequences: number[];
  head: number;
  tail: number;
}

/**
 * One key's state while it is dirty (queued, or added again while a worker holds it) or held by a worker —
 * one record per key rather than an entry in several maps (the hand-off touches it at every step).
 */
interface KeyState {
  dirty: boolean;
  /** The highest priority the key was given since it last left the queue. */
  priority: number;
  /** Its live entry's sequence number in a bucket; 0 when not queued. */
  sequence: number;
  /** performance.now() when it last became dirty. */
  addedAt: number;
  processing: boolean;
  /** performance.now() when a worker took it. */
  startedAt: number;
  /** The priority it was queued with when taken (a requeue keeps it; `priority` may rise meanwhile). */
  takenPriority: number;
  /** Seconds it waited in the queue before it was taken (observed when done, off the hand-off path). */
  waitedSeconds: number;
}

/** How many records of finished keys a queue keeps for reuse. */
const SPARE_STATES = 256;

export class WorkQueue {
  private readonly clock: Clock;
  private readonly rateLimiter: RateLimiter;
  private readonly metrics: WorkQueueMetrics;
  private readonly onActivity: (() => void) | undefined;
  /** Times the queue's idle state may have changed (what onActivity is called for). */
  private changeCount = 0;
  private readonly usePriority: boolean;
  /** Buckets by priority, highest first. */
  private readonly buckets: Bucket[] = [];
  private sequence = 0;
  private readonly keys = new Map<string, KeyState>();
  /** Records of keys that left the queue, reused by the next new keys (no record allocated per event). */
  private readonly spareStates: KeyState[] = [];
  private queuedCount = 0;
  private processingCount = 0;
  private readonly waiting = new Map<string, Waiting>();
  private readonly getters: Array<(key: string | undefined) => void> = [];
  private shuttingDown = false;
  private drainWaiters: Array<() => void> = [];

  constructor(options: WorkQueueOptions) {
    this.clock = options.clock;
    this.rateLimiter = options.rateLimiter ?? new ExponentialFailureRateLimiter();
    this.metrics = options.metrics ?? {};
    this.onActivity = options.onActivity;
    this.usePriority = options.usePriority ?? true;
  }

  /**
   * Queues `key` at `priority` unless it is already queued; a key queued at a lower priority moves up to
   * this one. A key being processed is queued again (at the highest priority it was given) when it is done.
   */
  add(key: string, priority = 0): void {
    if (this.shuttingDown) return;
    if (!this.usePriority) priority = 0;
    let state = this.keys.get(key);
    if (state?.dirty) {
      if (priority <= state.priority) return;
      state.priority = priority;
      if (state.sequence !== 0) this.enqueue(key, state); // the entry at the old priority goes stale
      return;
    }
    this.metrics.add?.();
    if (state === undefined) {
      state = this.spareStates.pop();
      if (state === undefined) state = { dirty: true, priority, sequence: 0, addedAt: performance.now(), processing: false, startedAt: 0, takenPriority: 0, waitedSeconds: 0 };
      else {
        state.dirty = true;
        state.priority = priority;
        state.sequence = 0;
        state.addedAt = performance.now();
        state.processing = false;
      }
      this.keys.set(key, state);
    } else {
      state.dirty = true;
      state.priority = priority;
      state.addedAt = performance.now();
    }
    if (state.processing) return;
    this.push(key, state);
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
    const state = this.keys.get(key);
    return state?.processing ? state.takenPriority : 0;
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

  /**
   * Marks `key` finished; if it was added while processing, it is queued again now. `endedAt` is when its work
   * ended (performance.now(); default now): a worker that timed the work passes its timestamp.
   */
  done(key: string, endedAt?: number): void {
    const state = this.keys.get(key);
    if (!state?.processing) return;
    state.processing = false;
    this.processingCount--;
    this.metrics.queueLatency?.(state.waitedSeconds);
    this.metrics.workDuration?.(((endedAt ?? performance.now()) - state.startedAt) / 1000);
    if (state.dirty && !this.shuttingDown) this.push(key, state);
    else {
      this.keys.delete(key);
      if (this.spareStates.length < SPARE_STATES) this.spareStates.push(state);
    }
    if (this.processingCount === 0 && this.drainWaiters.length > 0) this.releaseDrainWaiters();
    this.activity();
  }

  /** A count that moves whenever the queue's idle state may have changed (for settle(): no call per change). */
  changes(): number {
    return this.changeCount;
  }

  /** Keys queued and not yet taken. */
  len(): number {
    return this.queuedCount;
  }

  /** Keys currently held by workers. */
  inFlight(): number {
    return this.processingCount;
  }

  /** Keys waiting for a delay (clock timers). */
  delayed(): number {
    return this.waiting.size;
  }

  /** Nothing queued and nothing being processed (delayed keys are the clock's business). */
  isIdle(): boolean {
    return this.queuedCount === 0 && this.processingCount === 0;
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
    this.queuedCount = 0;
    for (const [key, state] of this.keys) {
      if (!state.processing) this.keys.delete(key);
      else {
        state.dirty = false;
        state.sequence = 0;
      }
    }
    for (const getter of this.getters.splice(0)) getter(undefined);
    if (this.processingCount === 0) this.releaseDrainWaiters();
    this.activity();
  }

  /** Shuts down, then resolves when every key handed out has been marked done. */
  async shutDownWithDrain(): Promise<void> {
    this.shutDown();
    if (this.processingCount === 0) return;
    await new Promise<void>((resolve) => this.drainWaiters.push(resolve));
  }

  private push(key: string, state: KeyState): void {
    const getter = this.getters.shift();
    if (getter !== undefined) {
      // A worker waits only on an empty queue, so this key is the one take() would find: it is handed over
      // directly, without a bucket entry written and read back (the steady stream's usual case).
      this.queuedCount++;
      getter(this.hand(key, state));
    } else {
      this.enqueue(key, state);
      this.metrics.depth?.(this.queuedCount);
    }
    this.activity();
  }

  /** Appends `key` to the bucket of its priority (made when missing, in order) as its one live entry. */
  private enqueue(key: string, state: KeyState): void {
    const priority = state.priority;
    let bucket = this.bucketOf(priority);
    if (!bucket) {
      bucket = { priority, keys: [], sequences: [], head: 0, tail: 0 };
      const at = this.buckets.findIndex((b) => b.priority < priority);
      this.buckets.splice(at < 0 ? this.buckets.length : at, 0, bucket);
    }
    if (state.sequence === 0) this.queuedCount++;
    state.sequence = ++this.sequence;
    const tail = bucket.tail++;
    if (tail < bucket.keys.length) {
      bucket.keys[tail] = key;
      bucket.sequences[tail] = state.sequence;
    } else {
      bucket.keys.push(key);
      bucket.sequences.push(state.sequence);
    }
  }

  /** The bucket of `priority` (an indexed loop: no closure or iterator per key, this is every add's path). */
  private bucketOf(priority: number): Bucket | undefined {
    const buckets = this.buckets;
    for (let i = 0; i < buckets.length; i++) if (buckets[i]!.priority === priority) return buckets[i];
    return undefined;
  }

  private take(): string | undefined {
    if (this.shuttingDown || this.queuedCount === 0) return undefined;
    const buckets = this.buckets;
    for (let b = 0; b < buckets.length; b++) {
      const bucket = buckets[b]!;
      while (bucket.head < bucket.tail) {
        const key = bucket.keys[bucket.head]!;
        const state = this.keys.get(key);
        const live = state !== undefined && state.sequence === bucket.sequences[bucket.head];
        bucket.keys[bucket.head] = ''; // a taken slot holds no key string until it is reused
        bucket.head++;
        if (bucket.head === bucket.tail) bucket.head = bucket.tail = 0;
        else if (bucket.head > 1024 && bucket.head * 2 > bucket.tail) {
          bucket.keys.copyWithin(0, bucket.head, bucket.tail);
          bucket.sequences.copyWithin(0, bucket.head, bucket.tail);
          bucket.tail -= bucket.head;
          bucket.head = 0;
        }
        if (live) return this.hand(key, state);
      }
    }
    return undefined;
  }

  /** Moves a queued key to the workers' side (its live entry is in the bucket of `state.priority`). */
  private hand(key: string, state: KeyState): string {
    const now = performance.now();
    state.sequence = 0;
    this.queuedCount--;
    state.dirty = false;
    state.processing = true;
    this.processingCount++;
    state.startedAt = now;
    state.takenPriority = state.priority;
    state.waitedSeconds = (now - state.addedAt) / 1000;
    this.metrics.depth?.(this.queuedCount);
    return key;
  }

  private activity(): void {
    this.changeCount++;
    this.onActivity?.();
  }

  private releaseDrainWaiters(): void {
    for (const waiter of this.drainWaiters.splice(0)) waiter();
  }
}

// One queue lives on between runtimes, so the queue's compiled code stays valid (keep-shape.ts).
keepShape(new WorkQueue({ clock: undefined as never }));
