/**
 * A source is where a controller's events come from. It is started with the controller's dispatch (its
 * predicates, handler and queue) and the manager's cache and clock; kind sources also say when their
 * informer has synced, so workers start on a full cache.
 */
import type { Logger } from 'pino';
import type { Cache } from '../cache/cache.js';
import type { Clock } from '../clock.js';
import type { KubeObject, Request } from '../client/object.js';
import type { CreateEvent, DeleteEvent, GenericEvent, RequestQueue, UpdateEvent } from '../handler/events.js';
import { detachedEventContext, type EventContext } from '../handler/event-context.js';
import { errorLogFields } from '../as-error.js';
import type { EventHandler } from '../handler/handler.js';
import type { AsyncPredicate } from '../predicate/predicate.js';

type EventType = 'create' | 'update' | 'delete' | 'generic';
type EventOf<T extends KubeObject, K extends EventType> = { create: CreateEvent<T>; update: UpdateEvent<T>; delete: DeleteEvent<T>; generic: GenericEvent<T> }[K];
import { LOW_PRIORITY } from '../queue/work-queue.js';
import { keepShape } from '../keep-shape.js';

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
    this.lowPriorityQueue = new LowPriorityRequests(queue);
  }

  /** Events whose predicates or handler are still working (async). */
  pending(): number {
    return this.pendingEvents;
  }

  create(e: CreateEvent<T>): void {
    this.deliver('create', e, e.isInitialList ? this.lowPriorityQueue : this.queue);
  }
  update(e: UpdateEvent<T>): void {
    const unchanged = e.objectOld.metadata?.resourceVersion !== undefined && e.objectOld.metadata.resourceVersion === e.objectNew.metadata?.resourceVersion;
    this.deliver('update', e, unchanged ? this.lowPriorityQueue : this.queue);
  }
  delete(e: DeleteEvent<T>): void {
    this.deliver('delete', e, this.queue);
  }
  generic(e: GenericEvent<T>): void {
    this.deliver('generic', e, this.queue);
  }

  /** Runs the event now when nothing is pending (synchronously while every answer is), else after the last one. */
  private deliver<K extends EventType>(type: K, e: EventOf<T, K>, queue: RequestQueue): void {
    if (this.tail !== undefined) {
      this.track(this.tail.then(() => this.run(type, e, queue)));
      return;
    }
    const outcome = this.run(type, e, queue);
    if (outcome !== undefined) this.track(outcome);
  }

  /** Predicates in order, then the handler; a promise as soon as one of them answers with one. */
  private run<K extends EventType>(type: K, e: EventOf<T, K>, queue: RequestQueue, from = 0): void | Promise<void> {
    const predicates = this.predicates;
    for (let i = from; i < predicates.length; i++) {
      let answer: boolean | Promise<boolean>;
      try {
        answer = (predicates[i]![type] as (e: EventOf<T, K>, c: EventContext) => boolean | Promise<boolean>)(e, this.context);
      } catch (err) {
        return this.predicateFailed(err);
      }
      if (typeof (answer as Partial<Promise<boolean>> | undefined)?.then !== 'function') {
        if (!answer) return;
      } else {
        return (answer as Promise<boolean>).then(
          (ok) => (ok ? this.run(type, e, queue, i + 1) : undefined),
          (err: unknown) => this.predicateFailed(err),
        );
      }
    }
    return (this.handler[type] as (e: EventOf<T, K>, q: RequestQueue, c: EventContext) => void | Promise<void>)(e, queue, this.context);
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

/** A RequestQueue whose requests default to LOW_PRIORITY (prototype methods: called per event; keep-shape.ts). */
class LowPriorityRequests implements RequestQueue {
  constructor(private readonly queue: RequestQueue) {}

  add(request: Request, priority?: number): void {
    this.queue.add(request, priority ?? LOW_PRIORITY);
  }

  addAfter(request: Request, delayMs: number, priority?: number): void {
    this.queue.addAfter(request, delayMs, priority ?? LOW_PRIORITY);
  }
}

keepShape(new LowPriorityRequests(undefined as never));

// One dispatch lives on between runtimes, so the event path's compiled code stays valid (keep-shape.ts).
keepShape(new Dispatch<KubeObject>({} as EventHandler<KubeObject>, [], { add: () => undefined, addAfter: () => undefined }));

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
