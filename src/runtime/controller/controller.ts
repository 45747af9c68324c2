/**
 * A controller: a work queue, workers and the reconcile loop. Sources feed the queue through predicates
 * and handlers; `maxConcurrentReconciles` workers (default 4) take keys, highest priority first, and the
 * queue guarantees one key is never reconciled twice at once. Outcomes: success → forget; `requeueAfter` →
 * forget + delayed add; `requeue` or a thrown error → rate-limited add (requeues keep the key's priority
 * unless the result names one); `TerminalError` → logged, not retried; a 409 Conflict from a write → requeued
 * with backoff and logged once at info, without a stack (routine when another writer got there first). A throwing reconciler never stops
 * the controller. With `reconciliationTimeoutMs` (controller-runtime 0.22's ReconciliationTimeout) a reconcile
 * still running after that much clock time is abandoned: its signal aborts, its worker takes the next key,
 * and the key is retried with backoff (counted and logged). Whatever the abandoned promise does later is
 * ignored, so a reconciler should pass `ctx.signal` on to what it awaits.
 */
import { randomUUID } from 'node:crypto';
import pino, { type Logger } from 'pino';
import type { Cache } from '../cache/cache.js';
import { isConflict } from '../client/api-error.js';
import { after, type Clock } from '../clock.js';
import { keyedRequest, requestKey, type KubeObject, type Request } from '../client/object.js';
import type { RequestQueue } from '../handler/events.js';
import type { EventHandler } from '../handler/handler.js';
import type { AsyncPredicate } from '../predicate/predicate.js';
import { detachedEventContext, type EventContext, type ObjectReader } from '../handler/event-context.js';
import type { RateLimiter } from '../queue/rate-limiter.js';
import { keepShape } from '../keep-shape.js';
import { WorkQueue, type WorkQueueMetrics } from '../queue/work-queue.js';
import { Dispatch, type Source } from '../source/source.js';
import { isTerminalError, toReconcileFunc, type ReconcileContext, type ReconcileFunc, type Reconciler, type Result } from './reconcile.js';
import { errorLogFields } from '../as-error.js';

export const DEFAULT_MAX_CONCURRENT_RECONCILES = 4;

export interface ControllerOptions {
  maxConcurrentReconciles?: number;
  /** Per-key retry delays; default exponential 5 ms → 1000 s. */
  rateLimiter?: () => RateLimiter;
  /** Real ms to wait for the sources' caches before start() fails (controller-runtime: 2 min). */
  cacheSyncTimeoutMs?: number;
  /** Order the queue by priority (default true, as controller-runtime since v0.23): false makes it one FIFO. */
  usePriorityQueue?: boolean;
  /**
   * Abandon a reconcile still running after this many ms of clock time (controller-runtime 0.22's
   * ReconciliationTimeout): its signal aborts, its worker is freed and the key retried with backoff.
   * Default: no timeout.
   */
  reconciliationTimeoutMs?: number;
  /**
   * Warm up while not leading (controller-runtime 0.21's EnableWarmup): the manager starts this
   * controller's sources and queue, without workers, before it holds the lease, so on gaining it the
   * caches are synced and the queue full, and reconciles start at once. Default: the manager's
   * `controller.enableWarmup`, else false.
   */
  enableWarmup?: boolean;
}

/** Observers for controller_runtime_* metrics. */
export interface ControllerMetrics {
  reconciled?(controller: string, result: 'success' | 'error' | 'requeue' | 'requeue_after', seconds: number): void;
  reconcileError?(controller: string, kind: 'error' | 'terminal' | 'panic'): void;
  /** A reconcile ran past `reconciliationTimeoutMs` and was abandoned. */
  reconcileTimeout?(controller: string): void;
  activeWorkers?(controller: string, delta: number): void;
  maxConcurrent?(controller: string, n: number): void;
  queue?(controller: string): WorkQueueMetrics;
}

export interface ControllerRunContext {
  cache: Cache;
  clock: Clock;
  logger?: Logger;
  /** The reader map functions and predicates get in their context (the manager's cache-backed client). */
  client?: ObjectReader;
  metrics?: ControllerMetrics;
  defaultRateLimiter?: () => RateLimiter;
  onActivity?: () => void;
}

export interface Watch {
  source: Source<KubeObject>;
  handler: EventHandler<KubeObject>;
  predicates: AsyncPredicate<KubeObject>[];
}

export class Controller {
  readonly name: string;
  private readonly reconcileFn: ReconcileFunc;
  private readonly watchList: Watch[] = [];
  private queue: WorkQueue | undefined;
  /** The dispatches of the running watches (their async events count as work in isIdle). */
  private dispatches: Dispatch[] = [];
  private workers: Promise<void>[] = [];
  /** Ends start()'s wait for the caches when stop() comes first. */
  private endSyncWait: (() => void) | undefined;
  private startCancelled = false;
  private running = false;
  private reconcilesDone = 0;
  /** Changes counted by the queues this controller dropped (queueChanges() never moves back). */
  private retiredQueueChanges = 0;
  private context: ControllerRunContext | undefined;
  /** Sources and queue started by warmup(), waiting for start() to add the workers. */
  private warm: { queue: WorkQueue; cache: Cache } | undefined;
  /**
   * The contexts of the reconciles running now, one slot per worker of the last start (to abort them when
   * they are abandoned). Slots rather than a Set: a Set's add and delete per reconcile churned its hash table
   * (measured: 120–200 bytes allocated per reconcile).
   */
  private reconciling: Array<LazyReconcileContext | undefined> = [];
  /** Resolves stop()'s wait for the workers when the in-flight reconciles are abandoned. */
  private abandonWaiting: (() => void) | undefined;

  constructor(
    name: string,
    reconciler: Reconciler | ReconcileFunc,
    readonly options: ControllerOptions = {},
  ) {
    this.name = name;
    this.reconcileFn = toReconcileFunc(reconciler);
  }

  /** Adds a source whose events pass `predicates` and are mapped to requests by `handler`. */
  watch<T extends KubeObject>(source: Source<T>, handler: EventHandler<NoInfer<T>>, ...predicates: AsyncPredicate<NoInfer<T>>[]): this {
    this.watchList.push({ source, handler, predicates } as unknown as Watch);
    if ((this.running || this.warm) && this.context && this.queue) this.startWatch(this.watchList.at(-1)!, this.context, this.queue);
    return this;
  }

  /**
   * Warmup (controller-runtime 0.21's Warmup): starts the sources and the queue, no workers — the caches
   * list and watch and events queue keys, so a later start() on the same cache only adds the workers. For
   * a manager that is not (yet) the leader.
   */
  warmup(context: ControllerRunContext): void {
    if (this.running || this.warm) return;
    this.context = context;
    const queue = this.newQueue(context);
    this.useQueue(queue);
    this.dispatches = [];
    this.warm = { queue, cache: context.cache };
    context.logger?.child({ controller: this.name }).info('Warming up Controller');
    for (const w of this.watchList) this.startWatch(w, context, queue);
  }

  /** Starts sources, waits for their caches, then starts the workers. Resolves once workers run. */
  async start(context: ControllerRunContext): Promise<void> {
    if (this.running) throw new Error(`controller ${this.name} is already running`);
    this.running = true;
    this.startCancelled = false;
    const warm = this.warm;
    this.warm = undefined;
    if (warm && warm.cache !== context.cache) this.stopWarm(warm);
    this.context = context;
    const workers = Math.max(1, this.options.maxConcurrentReconciles ?? DEFAULT_MAX_CONCURRENT_RECONCILES);
    // controller-runtime's start-up lines, the ones a newcomer looks for to know the controller runs.
    const log = context.logger?.child({ controller: this.name });
    log?.info('Starting Controller');
    let queue: WorkQueue;
    if (warm && warm.cache === context.cache) queue = warm.queue; // sources running, keys queued already
    else {
      queue = this.newQueue(context);
      this.useQueue(queue);
      this.dispatches = [];
      for (const w of this.watchList) this.startWatch(w, context, queue);
    }
    await this.waitForSources();
    if (!this.running || this.startCancelled) return;
    log?.info({ 'worker count': workers }, 'Starting workers');
    context.metrics?.maxConcurrent?.(this.name, workers);
    const reconciling = (this.reconciling = new Array<LazyReconcileContext | undefined>(workers).fill(undefined));
    for (let i = 0; i < workers; i++) this.workers.push(this.work(queue, context, reconciling, i));
  }

  private newQueue(context: ControllerRunContext): WorkQueue {
    const rateLimiter = (this.options.rateLimiter ?? context.defaultRateLimiter)?.();
    // No onActivity hook (a call per add and done through a closure of the manager's): it reads queueChanges().
    return new WorkQueue({ clock: context.clock, rateLimiter, usePriority: this.options.usePriorityQueue ?? true, metrics: context.metrics?.queue?.(this.name) });
  }

  /** Replaces the running queue, keeping the count of the changes the old one saw. */
  private useQueue(queue: WorkQueue | undefined): void {
    if (this.queue) this.retiredQueueChanges += this.queue.changes();
    this.queue = queue;
  }

  /** Ends a warmup that start() will not use (or stop() ends): its sources stop, its queue is dropped. */
  private stopWarm(warm: { queue: WorkQueue }): void {
    for (const w of this.watchList) w.source.stop?.();
    warm.queue.shutDown();
    if (this.queue === warm.queue) this.useQueue(undefined);
  }

  /** Warmed up and not started: sources running, keys queued, no workers. */
  isWarm(): boolean {
    return this.warm !== undefined;
  }

  /** Stops taking work; with `drain`, waits for in-flight reconciles to finish (queued keys are dropped). */
  async stop(): Promise<void> {
    if (this.warm) {
      this.stopWarm(this.warm);
      this.warm = undefined;
    }
    if (!this.running) return;
    this.running = false;
    this.endSyncWait?.();
    for (const w of this.watchList) w.source.stop?.();
    const abandoned = new Promise<void>((resolve) => (this.abandonWaiting = resolve));
    await Promise.race([this.queue?.shutDownWithDrain().then(() => Promise.all(this.workers)), abandoned]);
    this.abandonWaiting = undefined;
    this.workers = [];
  }

  /**
   * A start() still waiting for its caches returns at once without starting workers (the manager is
   * stopping; stop() follows and stops the sources).
   */
  cancelStart(): void {
    this.startCancelled = true;
    this.endSyncWait?.();
  }

  /**
   * Gives up on the reconciles running now (the manager's grace period ended): their signals abort and a
   * pending stop() returns without waiting for them.
   */
  abandonInFlight(reason: string): void {
    for (const reconcile of this.reconciling) reconcile?.abort(new Error(reason));
    this.abandonWaiting?.();
  }

  /** The watches configured so far (source, handler, predicates), for introspection and tests. */
  watches(): ReadonlyArray<Readonly<Watch>> {
    return this.watchList;
  }

  /** Nothing queued, no reconcile running and no event still in an async map function or predicate. */
  isIdle(): boolean {
    // a warm controller's queued keys wait for the lease, not for this process: they are no pending work
    return (!this.queue || this.queue.isIdle() || this.warm !== undefined) && this.dispatches.every((d) => d.pending() === 0);
  }

  /** A count that moves whenever one of this controller's queues may have changed its idle state (for settle()). */
  queueChanges(): number {
    return this.retiredQueueChanges + (this.queue?.changes() ?? 0);
  }

  /** Reconciles finished since the controller was created (any outcome). */
  reconcileCount(): number {
    return this.reconcilesDone;
  }

  /** The running work queue (undefined before start). */
  workQueue(): WorkQueue | undefined {
    return this.queue;
  }

  private async waitForSources(): Promise<void> {
    const timeoutMs = this.options.cacheSyncTimeoutMs ?? 120_000;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`controller ${this.name}: timed out after ${timeoutMs} ms waiting for caches to sync (is the API server reachable, and may this identity list and watch the kinds?)`)), timeoutMs);
      timer.unref();
    });
    try {
      // stop() ends the wait too: a manager stopped before its caches synced (a kind whose CRD is not
      // installed never syncs) must not wait out the grace period for it.
      const stopped = new Promise<void>((resolve) => (this.endSyncWait = resolve));
      await Promise.race([Promise.all(this.watchList.map((w) => w.source.waitForSync?.())), timedOut, stopped]);
    } catch (err) {
      await this.stop();
      throw err;
    } finally {
      clearTimeout(timer);
      this.endSyncWait = undefined;
    }
  }

  private startWatch(w: Watch, context: ControllerRunContext, queue: WorkQueue): void {
    const dispatch = new Dispatch(w.handler, w.predicates, new KeyedRequests(queue), this.eventContext(context), context.onActivity);
    this.dispatches.push(dispatch);
    w.source.start(dispatch, { cache: context.cache, clock: context.clock, logger: context.logger });
  }

  /** What this controller's map functions and predicates get: the manager's client and the controller's logger. */
  private eventContext(context: ControllerRunContext): EventContext {
    return {
      client: context.client ?? detachedEventContext.client,
      log: context.logger ? context.logger.child({ controller: this.name }) : detachedEventContext.log,
    };
  }

  /** One worker: takes keys and reconciles them, the running reconcile's context in `reconciling[slot]`. */
  private async work(queue: WorkQueue, context: ControllerRunContext, reconciling: Array<LazyReconcileContext | undefined>, slot: number): Promise<void> {
    const metrics = context.metrics;
    for (;;) {
      // A key already queued is taken without waiting on a promise (one hop fewer per reconcile).
      const key = queue.tryGet() ?? (await queue.get());
      if (key === undefined) return;
      metrics?.activeWorkers?.(this.name, +1);
      // The reconcile runs inline (no async call of its own): one promise and one frame fewer per key.
      const reconcileContext = new LazyReconcileContext(this.name, keyedRequest(key), context);
      const priority = queue.priorityOf(key);
      const started = performance.now();
      // When the reconcile ended: its reconcile time and the queue's work duration are read off one timestamp.
      let ended: number | undefined;
      reconciling[slot] = reconcileContext;
      try {
        const timeoutMs = this.options.reconciliationTimeoutMs;
        const result = timeoutMs && timeoutMs > 0 ? await this.withTimeout(reconcileContext, timeoutMs, context.clock) : await this.reconcileFn(reconcileContext.request, reconcileContext);
        ended = performance.now();
        if (result === TIMED_OUT) this.timedOut(key, queue, context, reconcileContext, (ended - started) / 1000, priority, timeoutMs!);
        else this.succeeded(key, result, queue, context, (ended - started) / 1000, priority);
      } catch (err) {
        ended ??= performance.now();
        this.failed(key, err, queue, context, reconcileContext, (ended - started) / 1000, priority);
      } finally {
        reconciling[slot] = undefined;
        metrics?.activeWorkers?.(this.name, -1);
        this.reconcilesDone++;
        queue.done(key, ended);
      }
    }
  }

  /** Runs the reconcile against a clock timer; TIMED_OUT (and its signal aborted) if the timer wins. */
  private async withTimeout(reconcileContext: LazyReconcileContext, timeoutMs: number, clock: Clock): Promise<Result | void | typeof TIMED_OUT> {
    let timer: { cancel(): void } | undefined;
    const timedOut = new Promise<typeof TIMED_OUT>((resolve) => (timer = after(clock, timeoutMs, () => resolve(TIMED_OUT))));
    try {
      const outcome = await Promise.race([this.reconcileFn(reconcileContext.request, reconcileContext), timedOut]);
      if (outcome === TIMED_OUT) reconcileContext.abort(new Error(`reconciliation timed out after ${timeoutMs / 1000}s`));
      return outcome;
    } finally {
      timer?.cancel();
    }
  }

  private timedOut(key: string, queue: WorkQueue, context: ControllerRunContext, reconcileContext: LazyReconcileContext, seconds: number, priority: number, timeoutMs: number): void {
    queue.addRateLimited(key, priority);
    context.metrics?.reconcileTimeout?.(this.name);
    context.metrics?.reconcileError?.(this.name, 'error');
    context.metrics?.reconciled?.(this.name, 'error', seconds);
    reconcileContext.log.error({ timeoutMs, err: `reconciliation timed out after ${timeoutMs / 1000}s` }, 'Reconcile timed out: abandoned, will retry');
  }

  private succeeded(key: string, result: Result | void, queue: WorkQueue, context: ControllerRunContext, seconds: number, queuedPriority: number): void {
    const priority = result?.priority ?? queuedPriority;
    if (result && result.requeueAfter !== undefined && result.requeueAfter > 0) {
      queue.forget(key);
      queue.addAfter(key, result.requeueAfter, priority);
      context.metrics?.reconciled?.(this.name, 'requeue_after', seconds);
    } else if (result?.requeue) {
      queue.addRateLimited(key, priority);
      context.metrics?.reconciled?.(this.name, 'requeue', seconds);
    } else {
      queue.forget(key);
      context.metrics?.reconciled?.(this.name, 'success', seconds);
    }
  }

  private failed(key: string, err: unknown, queue: WorkQueue, context: ControllerRunContext, reconcileContext: LazyReconcileContext, seconds: number, priority: number): void {
    if (isTerminalError(err)) {
      queue.forget(key);
      context.metrics?.reconcileError?.(this.name, 'terminal');
      context.metrics?.reconciled?.(this.name, 'error', seconds);
      reconcileContext.log.error(errorLogFields(err), 'Reconciler error (terminal, not retried)');
      return;
    }
    queue.addRateLimited(key, priority);
    if (isConflict(err)) {
      // Someone wrote the object since it was read: routine under concurrency, so a requeue and one info line
      // (as `if apierrors.IsConflict(err) { return ctrl.Result{Requeue: true}, nil }`), no error and no stack.
      context.metrics?.reconciled?.(this.name, 'requeue', seconds);
      reconcileContext.log.info({ err: (err as Error).message }, 'Reconcile conflict: the object changed since it was read; requeued');
      return;
    }
    const panic = err instanceof TypeError || err instanceof ReferenceError || err instanceof RangeError;
    context.metrics?.reconcileError?.(this.name, panic ? 'panic' : 'error');
    context.metrics?.reconciled?.(this.name, 'error', seconds);
    reconcileContext.log.error(errorLogFields(err), 'Reconciler error');
  }
}

// One controller lives on between runtimes, so the worker loop's compiled code stays valid (keep-shape.ts).
keepShape(new Controller('', () => undefined));

/**
 * The context handed to one reconcile. Its reconcile ID (a UUID, as controller-runtime's) and its child
 * logger (which serialises its bindings when made) are made on first use: most reconciles of a healthy
 * controller never log, and both cost more than the rest of the hand-off.
 */
class LazyReconcileContext implements ReconcileContext {
  private id: string | undefined;
  private childLog: Logger | undefined;
  private abortController: AbortController | undefined;
  private abortReason: Error | undefined;

  constructor(
    readonly controller: string,
    readonly request: Request,
    private readonly run: ControllerRunContext,
  ) {}

  get clock(): Clock {
    return this.run.clock;
  }

  get reconcileID(): string {
    return (this.id ??= randomUUID());
  }

  get signal(): AbortSignal {
    if (!this.abortController) {
      this.abortController = new AbortController();
      if (this.abortReason) this.abortController.abort(this.abortReason);
    }
    return this.abortController.signal;
  }

  /** Aborts the signal (now if handed out, else as soon as it is asked for). */
  abort(reason: Error): void {
    if (this.abortReason) return;
    this.abortReason = reason;
    this.abortController?.abort(reason);
  }

  get log(): Logger {
    return (this.childLog ??= (this.run.logger ?? silentLogger).child({ controller: this.controller, namespace: this.request.namespace, name: this.request.name, reconcileID: this.reconcileID }));
  }
}

const silentLogger = pino({ level: 'silent' });

// One context lives on between bursts, so the worker loop's compiled code stays valid (keep-shape.ts).
keepShape(new LazyReconcileContext('', keyedRequest(''), { cache: undefined as never, clock: undefined as never }));

/** A RequestQueue onto a WorkQueue of `namespace/name` keys (prototype methods: called per event; keep-shape.ts). */
class KeyedRequests implements RequestQueue {
  constructor(private readonly queue: WorkQueue) {}

  add(request: Request, priority?: number): void {
    this.queue.add(requestKey(request), priority);
  }

  addAfter(request: Request, delayMs: number, priority?: number): void {
    this.queue.addAfter(requestKey(request), delayMs, priority);
  }
}

keepShape(new KeyedRequests(undefined as never));

/** What withTimeout() resolves to when the timer won the race. */
const TIMED_OUT = Symbol('timed out');

