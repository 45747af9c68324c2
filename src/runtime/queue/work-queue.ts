/**
 * The controller's work queue: keyed and de-duplicating (a key queued twice is processed once), delaying
 * (`addAfter` on the Clock), rate-limited (`addRateLimited` with per-key backoff), and never handing the same
 * key to two workers at once — client-go's dirty/processing sets. `shutDownWithDrain` waits for in-flight work.
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

export interface WorkQueueOptions {
  clock: Clock;
  rateLimiter?: RateLimiter;
  metrics?: WorkQueueMetrics;
  /** Called whenever the queue's idle state may have changed (for settle()). */
  onActivity?: () => void;
}

interface Waiting {
  at: number;
  timer: Timer;
}

export class WorkQueue {
  private readonly clock: Clock;
  private readonly rateLimiter: RateLimiter;
  private readonly metrics: WorkQueueMetrics;
  private readonly onActivity: () => void;
  private readonly order: string[] = [];
  private head = 0;
  private readonly dirty = new Set<string>();
  /** Keys held by workers → performance.now() when taken. */
  private readonly processing = new Map<string, number>();
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
  }

  /** Queues `key` unless it is already queued; a key being processed is queued again when it is done. */
  add(key: string): void {
    if (this.shuttingDown || this.dirty.has(key)) return;
    this.metrics.add?.();
    this.dirty.add(key);
    this.addedAt.set(key, performance.now());
    if (this.processing.has(key)) return;
    this.push(key);
  }

  /** Queues `key` after `delayMs` of clock time; an earlier pending wake-up for the key is kept. */
  addAfter(key: string, delayMs: number): void {
    if (this.shuttingDown) return;
    if (delayMs <= 0) return this.add(key);
    const at = this.clock.now() + delayMs;
    const existing = this.waiting.get(key);
    if (existing && existing.at <= at) return;
    existing?.timer.cancel();
    const timer = this.clock.schedule(at, () => {
      const current = this.waiting.get(key);
      if (current?.timer !== timer) return;
      this.waiting.delete(key);
      this.add(key);
    });
    this.waiting.set(key, { at, timer });
  }

  /** Queues `key` after its rate limiter's backoff (one more failure). */
  addRateLimited(key: string): void {
    this.metrics.retry?.();
    this.addAfter(key, this.rateLimiter.when(key));
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
    const waited = this.waitedSeconds.get(key);
    this.waitedSeconds.delete(key);
    if (waited !== undefined) this.metrics.queueLatency?.(waited);
    this.metrics.workDuration?.((performance.now() - started) / 1000);
    if (this.dirty.has(key) && !this.shuttingDown) this.push(key);
    if (this.processing.size === 0 && this.drainWaiters.length > 0) this.releaseDrainWaiters();
    this.onActivity();
  }

  /** Keys queued and not yet taken. */
  len(): number {
    return this.order.length - this.head;
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
    this.order.length = 0;
    this.head = 0;
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

  private push(key: string): void {
    const getter = this.getters.shift();
    if (getter) {
      this.order.push(key);
      getter(this.take());
    } else {
      this.order.push(key);
      this.metrics.depth?.(this.len());
    }
    this.onActivity();
  }

  private take(): string | undefined {
    if (this.shuttingDown || this.head >= this.order.length) return undefined;
    const key = this.order[this.head++]!;
    if (this.head > 1024 && this.head * 2 > this.order.length) {
      this.order.splice(0, this.head);
      this.head = 0;
    }
    this.dirty.delete(key);
    const now = performance.now();
    this.processing.set(key, now);
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
