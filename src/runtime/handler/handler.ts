/**
 * Event handlers decide which reconcile requests an event causes: the object itself
 * (`enqueueRequestForObject`), its owner (`enqueueRequestForOwner`, controller owner only or all owners
 * of a kind), or whatever a function maps it to (`enqueueRequestsFromMapFunc`). An owner handler knows its
 * owner kind's scope, as controller-runtime's does through the RESTMapper: a namespaced owner lives in its
 * child's namespace, a cluster-scoped one is one key with no namespace whatever namespaces its children are in.
 */
import type { KubeObject, Request } from '../client/object.js';
import { requestOf, splitApiVersion } from '../client/object.js';
import { defaultKindRegistry, type KindRegistry } from '../client/kinds.js';
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
