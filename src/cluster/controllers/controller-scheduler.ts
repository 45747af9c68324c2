/**
 * The single scheduler every built-in controller of the local cluster runs on (§7.1): per-controller
 * FIFO queues of keys, filled synchronously at store commit, drained one reconcile at a time on the
 * next macrotask in a fixed controller order, with requeue-after on the cluster clock and an `idle`
 * signal that settle() waits for.
 */
import type { ClusterClock } from '../clock/virtual-clock.js';
import type { ObjectStore, StoreEvent } from '../store/object-store.js';
import { AdmissionPending } from '../admission/controller-admission.js';

/** What a reconcile asks for: look again after `requeueAfterMs` of cluster time. */
export interface ReconcileResult {
  requeueAfterMs?: number;
}

/** One built-in controller: which keys a commit concerns, and how to reconcile one key. */
export interface BuiltinController {
  readonly name: string;
  /** Keys to enqueue for a committed change (called synchronously inside the commit). */
  keysFor(event: StoreEvent): string[];
  /** Level-based reconcile of one key; runs synchronously, one at a time. */
  reconcile(key: string): ReconcileResult | void;
  /** Keys to reconcile once at start (existing objects). */
  initialKeys?(): string[];
}

/** A controller's queue: FIFO, each key at most once while waiting. */
class KeyQueue {
  private readonly keys: string[] = [];
  private readonly waiting = new Set<string>();
  add(key: string): void {
    if (this.waiting.has(key)) return;
    this.waiting.add(key);
    this.keys.push(key);
  }
  take(): string | undefined {
    const key = this.keys.shift();
    if (key !== undefined) this.waiting.delete(key);
    return key;
  }
  get length(): number {
    return this.keys.length;
  }
  clear(): void {
    this.keys.length = 0;
    this.waiting.clear();
  }
}

/** Reconciles per macrotask before yielding, so HTTP requests and watch writes interleave. */
const batchSize = 200;
/** A key whose reconcile throws is retried after 1 s of cluster time, doubling per failure up to 5 min. */
const firstRetryMs = 1000;
const maxRetryMs = 300_000;

export class ControllerScheduler {
  private readonly controllers: Array<{ controller: BuiltinController; queue: KeyQueue; timers: Map<string, { at: number; cancel(): void }>; failures: Map<string, number> }> = [];
  private drainPending = false;
  /** Reconciles waiting for admission webhooks before they run again. */
  private awaitingAdmission = 0;
  private running = false;
  private stopped = false;
  private readonly unsubscribe: () => void;
  /** Errors thrown by reconciles (kept for tests and debugging; the key is retried after 1 s). */
  readonly errors: Array<{ controller: string; key: string; error: unknown }> = [];

  constructor(store: ObjectStore, private readonly clock: ClusterClock) {
    this.unsubscribe = store.onCommit((event) => this.observe(event));
  }

  /** Adds a controller after the ones already added (the fixed processing order). */
  add(controller: BuiltinController): void {
    this.controllers.push({ controller, queue: new KeyQueue(), timers: new Map(), failures: new Map() });
    for (const key of controller.initialKeys?.() ?? []) this.enqueue(controller.name, key);
  }

  /** Enqueues `key` for the named controller now. */
  enqueue(controllerName: string, key: string): void {
    const entry = this.controllers.find((c) => c.controller.name === controllerName);
    if (!entry || this.stopped) return;
    entry.queue.add(key);
    this.scheduleDrain();
  }

  /** Enqueues `key` at cluster time `at`; an earlier pending wake-up for the key is kept. */
  enqueueAt(controllerName: string, key: string, at: number): void {
    const entry = this.controllers.find((c) => c.controller.name === controllerName);
    if (!entry || this.stopped) return;
    const existing = entry.timers.get(key);
    if (existing && existing.at <= at) return;
    existing?.cancel();
    const timer = this.clock.schedule(at, () => {
      entry.timers.delete(key);
      this.enqueue(controllerName, key);
    });
    entry.timers.set(key, { at, cancel: () => timer.cancel() });
  }

  /** True when no key waits and no reconcile runs (timers for later times do not count). */
  idle(): boolean {
    return !this.running && !this.drainPending && this.awaitingAdmission === 0 && this.controllers.every((c) => c.queue.length === 0);
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe();
    for (const c of this.controllers) {
      c.queue.clear();
      for (const t of c.timers.values()) t.cancel();
      c.timers.clear();
    }
  }

  private observe(event: StoreEvent): void {
    if (this.stopped) return;
    for (const { controller, queue } of this.controllers) {
      for (const key of controller.keysFor(event)) queue.add(key);
    }
    if (this.controllers.some((c) => c.queue.length > 0)) this.scheduleDrain();
  }

  private scheduleDrain(): void {
    if (this.drainPending || this.running || this.stopped) return;
    this.drainPending = true;
    setImmediate(() => {
      this.drainPending = false;
      this.drain();
    });
  }

  private drain(): void {
    if (this.stopped) return;
    this.running = true;
    try {
      for (let done = 0; done < batchSize; done++) {
        const next = this.controllers.find((c) => c.queue.length > 0);
        if (!next) return;
        const key = next.queue.take()!;
        this.runOne(next, key);
      }
    } finally {
      this.running = false;
      if (this.controllers.some((c) => c.queue.length > 0)) this.scheduleDrain();
    }
  }

  private runOne(entry: { controller: BuiltinController; failures: Map<string, number> }, key: string): void {
    const { controller, failures } = entry;
    try {
      const result = controller.reconcile(key);
      failures.delete(key);
      if (result?.requeueAfterMs !== undefined) this.enqueueAt(controller.name, key, this.clock.now() + Math.max(0, result.requeueAfterMs));
    } catch (error) {
      if (error instanceof AdmissionPending) {
        // a write waits for its webhooks: run the reconcile again once they answered (not a failure)
        this.awaitingAdmission++;
        void error.settled.then(() => {
          this.awaitingAdmission--;
          this.enqueue(controller.name, key);
        });
        return;
      }
      this.errors.push({ controller: controller.name, key, error });
      if (this.errors.length > 100) this.errors.shift();
      const count = (failures.get(key) ?? 0) + 1;
      failures.set(key, count);
      this.enqueueAt(controller.name, key, this.clock.now() + Math.min(firstRetryMs * 2 ** (count - 1), maxRetryMs));
    }
  }
}
