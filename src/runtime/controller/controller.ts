/**
 * A controller: a work queue, workers and the reconcile loop. Sources feed the queue through predicates
 * and handlers; `maxConcurrentReconciles` workers (default 4, worker-pool.ts) take keys, and the queue guarantees one key
 * is never reconciled twice at once. Outcomes: success → forget; `requeueAfter` → forget + delayed add;
 * `requeue` or a thrown error → rate-limited add; `TerminalError` → logged, not retried. A throwing
 * reconciler never stops the controller.
 */
import { randomUUID } from 'node:crypto';
import pino, { type Logger } from 'pino';
import type { Cache } from '../cache/cache.js';
import type { Clock } from '../clock.js';
import { keyOf, parseKey, type KubeObject, type Request } from '../client/object.js';
import type { RequestQueue } from '../handler/events.js';
import type { EventHandler } from '../handler/handler.js';
import type { Predicate } from '../predicate/predicate.js';
import type { RateLimiter } from '../queue/rate-limiter.js';
import { WorkQueue, type WorkQueueMetrics } from '../queue/work-queue.js';
import { Dispatch, type Source } from '../source/source.js';
import { WorkerPool } from './worker-pool.js';
import { isTerminalError, toReconcileFunc, type ReconcileContext, type ReconcileFunc, type Reconciler, type Result } from './reconcile.js';

export const DEFAULT_MAX_CONCURRENT_RECONCILES = 4;

export interface ControllerOptions {
  maxConcurrentReconciles?: number;
  /** Per-key retry delays; default exponential 5 ms → 1000 s. */
  rateLimiter?: () => RateLimiter;
  /** Real ms to wait for the sources' caches before start() fails (controller-runtime: 2 min). */
  cacheSyncTimeoutMs?: number;
}

/** Observers for controller_runtime_* metrics. */
export interface ControllerMetrics {
  reconciled?(controller: string, result: 'success' | 'error' | 'requeue' | 'requeue_after', seconds: number): void;
  reconcileError?(controller: string, kind: 'error' | 'terminal' | 'panic'): void;
  activeWorkers?(controller: string, delta: number): void;
  maxConcurrent?(controller: string, n: number): void;
  queue?(controller: string): WorkQueueMetrics;
}

export interface ControllerRunContext {
  cache: Cache;
  clock: Clock;
  logger?: Logger;
  metrics?: ControllerMetrics;
  defaultRateLimiter?: () => RateLimiter;
  onActivity?: () => void;
}

export interface Watch {
  source: Source<KubeObject>;
  handler: EventHandler<KubeObject>;
  predicates: Predicate<KubeObject>[];
}

export class Controller {
  readonly name: string;
  private readonly reconcileFn: ReconcileFunc;
  private readonly watchList: Watch[] = [];
  private queue: WorkQueue | undefined;
  private pool: WorkerPool | undefined;
  private running = false;
  private reconcilesDone = 0;
  private context: ControllerRunContext | undefined;

  constructor(
    name: string,
    reconciler: Reconciler | ReconcileFunc,
    readonly options: ControllerOptions = {},
  ) {
    this.name = name;
    this.reconcileFn = toReconcileFunc(reconciler);
  }

  /** Adds a source whose events pass `predicates` and are mapped to requests by `handler`. */
  watch<T extends KubeObject>(source: Source<T>, handler: EventHandler<T>, ...predicates: Predicate<T>[]): this {
    this.watchList.push({ source, handler, predicates } as unknown as Watch);
    if (this.running && this.context && this.queue) this.startWatch(this.watchList.at(-1)!, this.context, this.queue);
    return this;
  }

  /** Starts sources, waits for their caches, then starts the workers. Resolves once workers run. */
  async start(context: ControllerRunContext): Promise<void> {
    if (this.running) throw new Error(`controller ${this.name} is already running`);
    this.running = true;
    this.context = context;
    const workers = Math.max(1, this.options.maxConcurrentReconciles ?? DEFAULT_MAX_CONCURRENT_RECONCILES);
    const rateLimiter = (this.options.rateLimiter ?? context.defaultRateLimiter)?.();
    const queue = new WorkQueue({
      clock: context.clock,
      rateLimiter,
      metrics: context.metrics?.queue?.(this.name),
      onActivity: context.onActivity,
      onReady: () => this.pool?.wake(),
    });
    this.queue = queue;
    for (const w of this.watchList) this.startWatch(w, context, queue);
    await this.waitForSources();
    if (!this.running) return;
    context.metrics?.maxConcurrent?.(this.name, workers);
    const activeWorkers = context.metrics?.activeWorkers;
    const pool = new WorkerPool(queue, workers, (key) => this.reconcileKey(key, queue, context), activeWorkers && ((delta) => activeWorkers(this.name, delta)));
    this.pool = pool;
    pool.wake();
  }

  /** Stops taking work; with `drain`, waits for in-flight reconciles to finish (queued keys are dropped). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    for (const w of this.watchList) w.source.stop?.();
    await this.queue?.shutDownWithDrain();
    await this.pool?.stop();
    this.pool = undefined;
  }

  /** The watches configured so far (source, handler, predicates), for introspection and tests. */
  watches(): ReadonlyArray<Readonly<Watch>> {
    return this.watchList;
  }

  /** Nothing queued and no reconcile running. */
  isIdle(): boolean {
    return !this.queue || this.queue.isIdle();
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
      await Promise.race([Promise.all(this.watchList.map((w) => w.source.waitForSync?.())), timedOut]);
    } catch (err) {
      await this.stop();
      throw err;
    } finally {
      clearTimeout(timer);
    }
  }

  private startWatch(w: Watch, context: ControllerRunContext, queue: WorkQueue): void {
    const requests: RequestQueue = {
      add: (req) => queue.add(keyOf(req)),
      addAfter: (req, ms) => queue.addAfter(keyOf(req), ms),
    };
    w.source.start(new Dispatch(w.handler, w.predicates, requests), { cache: context.cache, clock: context.clock, logger: context.logger });
  }

  /**
   * Reconciles `key` once and marks it done in the queue: a promise when the reconciler answers later,
   * undefined when it answered at once. Never throws (a throwing reconciler is an outcome like any other).
   */
  private reconcileKey(key: string, queue: WorkQueue, context: ControllerRunContext): PromiseLike<void> | undefined {
    const reconcileContext = new LazyReconcileContext(this.name, parseKey(key), context);
    const started = performance.now();
    let answer: Promise<Result | void> | Result | void;
    try {
      answer = this.reconcileFn(reconcileContext.request, reconcileContext);
    } catch (err) {
      this.finish(key, queue, context, reconcileContext, started, undefined, true, err);
      return undefined;
    }
    if (!isPromiseLike(answer)) {
      this.finish(key, queue, context, reconcileContext, started, answer, false, undefined);
      return undefined;
    }
    return answer.then(
      (result) => this.finish(key, queue, context, reconcileContext, started, result, false, undefined),
      (err: unknown) => this.finish(key, queue, context, reconcileContext, started, undefined, true, err),
    );
  }

  /** Applies a reconcile's outcome (see the header), then marks the key done; never throws. */
  private finish(key: string, queue: WorkQueue, context: ControllerRunContext, reconcileContext: LazyReconcileContext, started: number, result: Result | void, threw: boolean, err: unknown): void {
    try {
      const seconds = (performance.now() - started) / 1000;
      if (threw) this.failed(key, err, queue, context, reconcileContext, seconds);
      else if (result && result.requeueAfter !== undefined && result.requeueAfter > 0) {
        queue.forget(key);
        queue.addAfter(key, result.requeueAfter);
        context.metrics?.reconciled?.(this.name, 'requeue_after', seconds);
      } else if (result?.requeue) {
        queue.addRateLimited(key);
        context.metrics?.reconciled?.(this.name, 'requeue', seconds);
      } else {
        queue.forget(key);
        context.metrics?.reconciled?.(this.name, 'success', seconds);
      }
    } catch (failure) {
      (context.logger ?? silentLogger).error({ controller: this.name, key, err: errorText(failure) }, 'handling a reconcile outcome failed');
    } finally {
      this.reconcilesDone++;
      queue.done(key);
    }
  }

  private failed(key: string, err: unknown, queue: WorkQueue, context: ControllerRunContext, reconcileContext: LazyReconcileContext, seconds: number): void {
    if (isTerminalError(err)) {
      queue.forget(key);
      context.metrics?.reconcileError?.(this.name, 'terminal');
      context.metrics?.reconciled?.(this.name, 'error', seconds);
      reconcileContext.log.error({ err: errorText(err) }, 'Reconciler error (terminal, not retried)');
      return;
    }
    queue.addRateLimited(key);
    const panic = err instanceof TypeError || err instanceof ReferenceError || err instanceof RangeError;
    context.metrics?.reconcileError?.(this.name, panic ? 'panic' : 'error');
    context.metrics?.reconciled?.(this.name, 'error', seconds);
    reconcileContext.log.error({ err: errorText(err) }, 'Reconciler error');
  }
}

/**
 * The context handed to one reconcile. Its reconcile ID (a UUID, as controller-runtime's) and its child
 * logger (which serialises its bindings when made) are made on first use: most reconciles of a healthy
 * controller never log, and both cost more than the rest of the hand-off.
 */
class LazyReconcileContext implements ReconcileContext {
  private id: string | undefined;
  private childLog: Logger | undefined;

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

  get log(): Logger {
    return (this.childLog ??= (this.run.logger ?? silentLogger).child({ controller: this.controller, namespace: this.request.namespace, name: this.request.name, reconcileID: this.reconcileID }));
  }
}

const silentLogger = pino({ level: 'silent' });

function isPromiseLike<T>(value: unknown): value is PromiseLike<T> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

function errorText(err: unknown): string {
  return err instanceof Error ? (err.stack ?? err.message) : String(err);
}
