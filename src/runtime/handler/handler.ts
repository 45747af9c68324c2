/**
 * Event handlers decide which reconcile requests an event causes: the object itself
 * (`enqueueRequestForObject`), its owner (`enqueueRequestForOwner`, controller owner only or all owners
 * of a kind), or whatever a function maps it to (`enqueueRequestsFromMapFunc`). An owner handler knows its
 * owner kind's scope, as controller-runtime's does through the RESTMapper: a namespaced owner lives in its
 * child's namespace, a cluster-scoped one is one key with no namespace whatever namespaces its children are in.
 * Handlers are typed by the watched kind's object type (controller-runtime's TypedEventHandler). A map function
 * may be async and gets the event's context (the manager's client, the logger); one that throws or rejects is
 * logged and only its own event's requests are lost.
 */
import type { KubeObject, Request } from '../client/object.js';
import { requestOf, splitApiVersion } from '../client/object.js';
import { defaultKindRegistry, type KindRegistry } from '../client/kinds.js';
import type { CreateEvent, DeleteEvent, GenericEvent, RequestQueue, UpdateEvent } from './events.js';
import { detachedEventContext, type EventContext } from './event-context.js';
import { errorLogFields } from '../as-error.js';
import { keepShape } from '../keep-shape.js';

/**
 * Turns events into reconcile requests. A method may return a promise (async work); the controller then
 * holds this handler's later events until it settles, so each handler sees and enqueues in event order.
 * `context` is given by the controller; a handler called without one (a test) gets a detached context.
 */
export interface EventHandler<T extends KubeObject = KubeObject> {
  create(event: CreateEvent<T>, queue: RequestQueue, context?: EventContext): void | Promise<void>;
  update(event: UpdateEvent<T>, queue: RequestQueue, context?: EventContext): void | Promise<void>;
  delete(event: DeleteEvent<T>, queue: RequestQueue, context?: EventContext): void | Promise<void>;
  generic(event: GenericEvent<T>, queue: RequestQueue, context?: EventContext): void | Promise<void>;
}

/** Maps an object to the requests it causes; may be async, and may read through the context's client. */
export type MapFunc<T extends KubeObject = KubeObject> = (obj: T, context: EventContext) => Request[] | Promise<Request[]>;

/**
 * A handler that maps every event through `toRequests(object)` (update events map both versions, each request
 * once). Synchronous results are enqueued at once; async ones when they resolve. A map call that throws or
 * rejects is logged, and only its own requests are dropped.
 */
function mapping<T extends KubeObject>(toRequests: MapFunc<T>): EventHandler<T> {
  // One object (create, delete, generic): no arrays beyond the map's own result, as this is every event's path.
  const one = (obj: T, queue: RequestQueue, context: EventContext = detachedEventContext): void | Promise<void> => {
    const result = mapSafely(toRequests, obj, context);
    if (Array.isArray(result)) {
      for (let i = 0; i < result.length; i++) queue.add(result[i]!);
      return;
    }
    return result.then(
      (requests) => {
        for (const req of requests) queue.add(req);
      },
      (err: unknown) => void mapFailed(err, obj, context),
    );
  };
  const both = (objects: T[], queue: RequestQueue, context: EventContext = detachedEventContext): void | Promise<void> => {
    const results = objects.map((obj) => mapSafely(toRequests, obj, context));
    if (results.every((r): r is Request[] => Array.isArray(r))) return addUnique(results, queue);
    return Promise.all(results.map((r, i) => Promise.resolve(r).catch((err: unknown) => mapFailed(err, objects[i]!, context)))).then((lists) => addUnique(lists, queue));
  };
  return {
    create: (e, q, c) => one(e.object, q, c),
    update: (e, q, c) => both([e.objectOld, e.objectNew], q, c),
    delete: (e, q, c) => one(e.object, q, c),
    generic: (e, q, c) => one(e.object, q, c),
  };
}

function mapSafely<T extends KubeObject>(toRequests: MapFunc<T>, obj: T, context: EventContext): Request[] | Promise<Request[]> {
  try {
    return toRequests(obj, context);
  } catch (err) {
    return mapFailed(err, obj, context);
  }
}

function mapFailed(err: unknown, obj: KubeObject, context: EventContext): Request[] {
  context.log.error({ ...errorLogFields(err), object: { kind: obj.kind, namespace: obj.metadata?.namespace, name: obj.metadata?.name } }, 'map function failed: no requests for this event');
  return [];
}

function addUnique(lists: Request[][], queue: RequestQueue): void {
  const seen = new Set<string>();
  for (const list of lists) {
    for (const req of list) {
      const key = `${req.namespace}/${req.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      queue.add(req);
    }
  }
}

/**
 * Enqueues the object the event is about. Every event's path: one request per event and no arrays (an
 * update's old and new object are the same object, so one request, as a mapping() of both would de-duplicate).
 */
export function enqueueRequestForObject<T extends KubeObject = KubeObject>(): EventHandler<T> {
  return new EnqueueRequestForObject<T>();
}

/** enqueueRequestForObject's handler: prototype methods, called per event (a closure's compiled code dies with its runtime; keep-shape.ts). */
class EnqueueRequestForObject<T extends KubeObject> implements EventHandler<T> {
  create(e: CreateEvent<T>, q: RequestQueue): void {
    enqueueObject(e.object, q);
  }

  update(e: UpdateEvent<T>, q: RequestQueue): void {
    const { objectOld, objectNew } = e;
    enqueueObject(objectOld, q);
    if (objectNew.metadata?.name !== objectOld.metadata?.name || objectNew.metadata?.namespace !== objectOld.metadata?.namespace) enqueueObject(objectNew, q);
  }

  delete(e: DeleteEvent<T>, q: RequestQueue): void {
    enqueueObject(e.object, q);
  }

  generic(e: GenericEvent<T>, q: RequestQueue): void {
    enqueueObject(e.object, q);
  }
}

keepShape(new EnqueueRequestForObject());

function enqueueObject(obj: KubeObject, queue: RequestQueue): void {
  if (obj.metadata?.name) queue.add(requestOf(obj));
}

export interface OwnerOptions {
  /** Only the owner reference with `controller: true` (default), or every owner reference of the kind. */
  onlyControllerOwner?: boolean;
  /** Where the owner kind's scope is looked up when the owner does not say it (default: the default registry). */
  kinds?: KindRegistry;
}

/** The owner kind: its group and kind, and whether it is namespaced (a KindInfo says it; else it is looked up). */
export interface OwnerKind {
  group: string;
  kind: string;
  namespaced?: boolean;
}

/**
 * Enqueues the owner of the object, when the owner is of `owner`'s group and kind: in the object's
 * namespace for a namespaced owner kind, with no namespace for a cluster-scoped one. An owner kind whose
 * scope is neither given nor registered is refused here, not guessed per event.
 */
export function enqueueRequestForOwner<T extends KubeObject = KubeObject>(owner: OwnerKind, options: OwnerOptions = {}): EventHandler<T> {
  const onlyController = options.onlyControllerOwner ?? true;
  const namespaced = owner.namespaced ?? (options.kinds ?? defaultKindRegistry).namespacedOf(owner.group, owner.kind);
  if (namespaced === undefined) {
    throw new Error(`enqueueRequestForOwner: no kind "${owner.kind}" of group "${owner.group}" is registered, so its scope is unknown: pass { namespaced } or register it with defineKind()`);
  }
  return mapping((obj) => {
    const requests: Request[] = [];
    for (const ref of obj.metadata?.ownerReferences ?? []) {
      if (onlyController && !ref.controller) continue;
      if (ref.kind !== owner.kind || splitApiVersion(ref.apiVersion).group !== owner.group) continue;
      requests.push({ namespace: namespaced ? (obj.metadata?.namespace ?? '') : '', name: ref.name });
    }
    return requests;
  });
}

/**
 * Enqueues whatever `map(object, context)` returns (e.g. every CronJob that references a ConfigMap), sync or
 * async: `enqueueRequestsFromMapFunc(async (cm, { client }) => …client.list(CronJobKind, { matchingFields })…)`.
 */
export function enqueueRequestsFromMapFunc<T extends KubeObject = KubeObject>(map: MapFunc<T>): EventHandler<T> {
  return mapping(map);
}

/** Builds a handler from per-event functions; missing ones do nothing. */
export function eventHandlerFuncs<T extends KubeObject = KubeObject>(funcs: Partial<EventHandler<T>>): EventHandler<T> {
  return {
    create: funcs.create ?? (() => {}),
    update: funcs.update ?? (() => {}),
    delete: funcs.delete ?? (() => {}),
    generic: funcs.generic ?? (() => {}),
  };
}
