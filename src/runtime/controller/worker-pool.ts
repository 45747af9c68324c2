/**
 * A controller's workers: runs queued keys through one reconcile step each, at most `concurrency` at a time.
 * There is no awaiting loop per worker: a key queued while a slot is free starts on the next microtask (after
 * the rest of the watch chunk that queued it has been cached), and a finished reconcile takes the next queued
 * key at once. The queue still guarantees one key is never handed out twice at once.
 */
import type { WorkQueue } from '../queue/work-queue.js';

/** Reconciles one key and marks it done in the queue; a promise when it finishes later. Must not throw. */
export type ReconcileStep = (key: string) => PromiseLike<unknown> | undefined;

export class WorkerPool {
  private active = 0;
  private pumpScheduled = false;
  private stopped = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly queue: WorkQueue,
    private readonly concurrency: number,
    private readonly step: ReconcileStep,
    /** Told +1 when a worker takes a key and -1 when it is done (controller_runtime_active_workers). */
    private readonly onBusy: (delta: 1 | -1) => void = () => {},
  ) {}

  /** Keys may be waiting: start them on the next microtask (once, however often this is called before). */
  readonly wake = (): void => {
    if (this.pumpScheduled || this.stopped) return;
    this.pumpScheduled = true;
    queueMicrotask(this.pumpFromMicrotask);
  };

  /** Takes no more keys; resolves once every reconcile already started has finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.active === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /** Reconciles running now. */
  busy(): number {
    return this.active;
  }

  private readonly pumpFromMicrotask = (): void => {
    this.pumpScheduled = false;
    this.pump();
  };

  private readonly finishedAsync = (): void => {
    this.release();
    this.pump();
  };

  private pump(): void {
    while (!this.stopped && this.active < this.concurrency) {
      const key = this.queue.tryGet();
      if (key === undefined) return;
      this.active++;
      this.onBusy(1);
      const pending = this.step(key);
      if (pending === undefined) this.release();
      else pending.then(this.finishedAsync, this.finishedAsync);
    }
  }

  private release(): void {
    this.active--;
    this.onBusy(-1);
    if (this.active === 0 && this.idleWaiters.length > 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
