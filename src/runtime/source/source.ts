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
import type { EventHandler } from '../handler/handler.js';
import type { Predicate } from '../predicate/predicate.js';
import { LOW_PRIORITY } from '../queue/work-queue.js';

/**
 * Filters events through predicates, then hands them to the handler with the controller's queue — at low
 * priority for objects of an informer's initial list and for updates that changed nothing (controller-runtime's
 * `WithLowPriorityWhenUnchanged`), so that startup's backlog never delays a real change.
 */
export class Dispatch<T extends KubeObject = KubeObject> {
  private readonly lowPriorityQueue: RequestQueue;

  constructor(
    private readonly handler: EventHandler<T>,
    private readonly predicates: Predicate<T>[],
    private readonly queue: RequestQueue,
  ) {
    this.lowPriorityQueue = {
      add: (request, priority) => queue.add(request, priority ?? LOW_PRIORITY),
      addAfter: (request, delayMs, priority) => queue.addAfter(request, delayMs, priority ?? LOW_PRIORITY),
    };
  }

  create(e: CreateEvent<T>): void {
    if (this.predicates.every((p) => p.create(e))) this.handler.create(e, e.isInitialList ? this.lowPriorityQueue : this.queue);
  }
  update(e: UpdateEvent<T>): void {
    if (!this.predicates.every((p) => p.update(e))) return;
    const unchanged = e.objectOld.metadata?.resourceVersion !== undefined && e.objectOld.metadata.resourceVersion === e.objectNew.metadata?.resourceVersion;
    this.handler.update(e, unchanged ? this.lowPriorityQueue : this.queue);
  }
  delete(e: DeleteEvent<T>): void {
    if (this.predicates.every((p) => p.delete(e))) this.handler.delete(e, this.queue);
  }
  generic(e: GenericEvent<T>): void {
    if (this.predicates.every((p) => p.generic(e))) this.handler.generic(e, this.queue);
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
