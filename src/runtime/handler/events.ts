/**
 * The four events a source emits (create, update, delete, generic) and the queue a handler fills with
 * reconcile requests — the vocabulary shared by sources, predicates and handlers.
 */
import type { KubeObject, Request } from '../client/object.js';

export interface CreateEvent<T extends KubeObject = KubeObject> {
  object: T;
  /** True for objects seen in an informer's initial list. */
  isInitialList?: boolean;
}

export interface UpdateEvent<T extends KubeObject = KubeObject> {
  objectOld: T;
  objectNew: T;
}

export interface DeleteEvent<T extends KubeObject = KubeObject> {
  object: T;
}

/** An event from outside the cluster (a channel, a ticker). */
export interface GenericEvent<T extends KubeObject = KubeObject> {
  object: T;
}

/**
 * Where handlers put reconcile requests; de-duplication happens in the work queue behind it. `priority`
 * (higher first) defaults to what the event implies: `LOW_PRIORITY` for an object of an informer's initial
 * list or an update that changed nothing (a resync), 0 otherwise — controller-runtime's priority queue.
 */
export interface RequestQueue {
  add(request: Request, priority?: number): void;
  addAfter(request: Request, delayMs: number, priority?: number): void;
}
