/**
 * A source is where a controller's events come from. It is started with the controller's dispatch (its
 * predicates, handler and queue) and the manager's cache and clock; kind sources also say when their
 * informer has synced, so workers start on a full cache.
 */
import type { Logger } from 'pino';
import type { Cache } from '../cache/cache.js';
import type { Clock } from '../clock.js';
import type { KubeObject } from '../client/object.js';
import type { CreateEvent, DeleteEvent, GenericEvent, RequestQueue, UpdateEvent } from '../handler/events.js';
import { detachedEventContext, errorLogFields, type EventContext } from '../handler/event-context.js';
import type { EventHandler } from '../handler/handler.js';
import { firstAnswer, type AsyncPredicate } from '../predicate/predicate.js';
import { LOW_PRIORITY } from '../queue/work-queue.js';

/**
 * Filters events through predicates, then hands them to the handler with the controller's queue — at low
 * priority for objects of an informer's initial list and for updates that changed nothing (controller-runtime's
 * `WithLowPriorityWhenUnchanged`), so that startup's backlog never delays a real change. Predicates and the
 * handler get the event's context; when one of them answers with a promise, later events wait behind it, so
 * the handler sees and enqueues events in the order they came. A predicate that throws drops its event (logged).
 */
export class Dispatch<T extends KubeObject = KubeObject> {
  private readonly lowPriorityQueue: RequestQueue;
  /** The last async event's work; later events chain after it while it runs. */
  private tail: Promise<void> | undefined;
  private pendingEvents = 0;

  constructor(
    private readonly handler: EventHandler<T>,
    private readonly predicates: AsyncPredicate<T>[],
    private readonly queue: RequestQueue,
    private readonly context: EventContext = detachedEventContext,
    /** Called when an async event's work has settled (the manager's activity counter). */
    private readonly onSettled?: () => void,
  ) {
    this.lowPriorityQueue = {
      add: (request, priority) => queue.add(request, priority ?? LOW_PRIORITY),
      addAfter: (request, delayMs, priority) => queue.addAfter(request, delayMs, priority ?? LOW_PRIORITY),
    };
  }

  /** Events whose predicates or handler are still working (async). */
  pending(): number {
    return this.pendingEvents;
  }

  create(e: CreateEvent<T>): void {
    this.deliver((p) => p.create(e, this.context), () => this.handler.create(e, e.isInitialList ? this.lowPriorityQueue : this.queue, this.context));
  }
  update(e: UpdateEvent<T>): void {
    const unchanged = e.objectOld.metadata?.resourceVersion !== undefined && e.objectOld.metadata.resourceVersion === e.objectNew.metadata?.resourceVersion;
    this.deliver((p) => p.update(e, this.context), () => this.handler.update(e, unchanged ? this.lowPriorityQueue : this.queue, this.context));
  }
  delete(e: DeleteEvent<T>): void {
    this.deliver((p) => p.delete(e, this.context), () => this.handler.delete(e, this.queue, this.context));
  }
  generic(e: GenericEvent<T>): void {
    this.deliver((p) => p.generic(e, this.context), () => this.handler.generic(e, this.queue, this.context));
  }

  private deliver(ask: (p: AsyncPredicate<T>) => boolean | Promise<boolean>, handle: () => void | Promise<void>): void {
    if (this.tail !== undefined) {
      this.track(this.tail.then(() => this.run(ask, handle)));
      return;
    }
    const outcome = this.run(ask, handle);
    if (outcome !== undefined) this.track(outcome);
  }

  /** Predicates, then the handler: synchronously while each answers at once. */
  private run(ask: (p: AsyncPredicate<T>) => boolean | Promise<boolean>, handle: () => void | Promise<void>): void | Promise<void> {
    let passes: boolean | Promise<boolean>;
    try {
      passes = firstAnswer(this.predicates, ask, false);
    } catch (err) {
      return this.predicateFailed(err);
    }
    if (typeof passes === 'boolean') return passes ? handle() : undefined;
    return passes.then(
      (ok) => (ok ? handle() : undefined),
      (err: unknown) => this.predicateFailed(err),
    );
  }

  private predicateFailed(err: unknown): void {
    this.context.log.error(errorLogFields(err), 'predicate failed: event dropped');
  }

  private track(work: Promise<void>): void {
    this.pendingEvents++;
    const settled: Promise<void> = work
      .catch((err: unknown) => this.context.log.error(errorLogFields(err), 'event handler failed'))
      .then(() => {
        this.pendingEvents--;
        if (this.tail === settled) this.tail = undefined;
        this.onSettled?.();
      });
    this.tail = settled;
  }
}

export interface SourceContext {
  cache: Cache;
  clock: Clock;
  logger?: Logger;
}

export interface Source<T extends KubeObject = KubeObject> {
  /** Begins delivering events to `dispatch`; called again (with a fresh cache) when the manager restarts. */
  start(dispatch: Dispatch<T>, context: SourceContext): void;
  /** Resolves when the source has delivered its initial state (kind sources: informer synced). */
  waitForSync?(): Promise<void>;
  /** Stops delivering events. */
  stop?(): void;
}
