/**
 * Event handlers decide which reconcile requests an event causes: the object itself
 * (`enqueueRequestForObject`), its owner (`enqueueRequestForOwner`, controller owner only or all owners
 * of a kind), or whatever a function maps it to (`enqueueRequestsFromMapFunc`).
 */
import type { KubeObject, Request } from '../client/object.js';
import { requestOf, splitApiVersion } from '../client/object.js';
import type { CreateEvent, DeleteEvent, GenericEvent, RequestQueue, UpdateEvent } from './events.js';

export interface EventHandler<T extends KubeObject = KubeObject> {
  create(event: CreateEvent<T>, queue: RequestQueue): void;
  update(event: UpdateEvent<T>, queue: RequestQueue): void;
  delete(event: DeleteEvent<T>, queue: RequestQueue): void;
  generic(event: GenericEvent<T>, queue: RequestQueue): void;
}

/** A handler that maps every event through `toRequests(object)` (update events map both versions). */
function mapping<T extends KubeObject>(toRequests: (obj: T) => Request[]): EventHandler<T> {
  const addAll = (obj: T, queue: RequestQueue): void => {
    for (const req of toRequests(obj)) queue.add(req);
  };
  return {
    create: (e, q) => addAll(e.object, q),
    update: (e, q) => {
      const seen = new Set<string>();
      for (const obj of [e.objectOld, e.objectNew]) {
        for (const req of toRequests(obj)) {
          const key = `${req.namespace}/${req.name}`;
          if (seen.has(key)) continue;
          seen.add(key);
          q.add(req);
        }
      }
    },
    delete: (e, q) => addAll(e.object, q),
    generic: (e, q) => addAll(e.object, q),
  };
}

/** Enqueues the object the event is about. */
export function enqueueRequestForObject<T extends KubeObject = KubeObject>(): EventHandler<T> {
  return mapping((obj) => (obj.metadata?.name ? [requestOf(obj)] : []));
}

export interface OwnerOptions {
  /** Only the owner reference with `controller: true` (default), or every owner reference of the kind. */
  onlyControllerOwner?: boolean;
}

/** Enqueues the owner of the object, when the owner is of `owner`'s group and kind. */
export function enqueueRequestForOwner<T extends KubeObject = KubeObject>(owner: { group: string; kind: string }, options: OwnerOptions = {}): EventHandler<T> {
  const onlyController = options.onlyControllerOwner ?? true;
  return mapping((obj) => {
    const requests: Request[] = [];
    for (const ref of obj.metadata?.ownerReferences ?? []) {
      if (onlyController && !ref.controller) continue;
      if (ref.kind !== owner.kind || splitApiVersion(ref.apiVersion).group !== owner.group) continue;
      // Owners are in the object's namespace (cluster-scoped owners have none; the key ignores it then).
      requests.push({ namespace: obj.metadata?.namespace ?? '', name: ref.name });
    }
    return requests;
  });
}

/** Enqueues whatever `map(object)` returns (e.g. every CronJob that references a ConfigMap). */
export function enqueueRequestsFromMapFunc<T extends KubeObject = KubeObject>(map: (obj: T) => Request[]): EventHandler<T> {
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
