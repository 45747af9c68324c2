/**
 * Predicates filter events before handlers see them: `generationChanged` (spec changes only),
 * `resourceVersionChanged`, `labelChanged`, `annotationChanged`, and the combinators `and`, `or`, `not`.
 * Each predicate answers per event type; only update events differ between the built-in ones.
 */
import type { KubeObject } from '../client/object.js';
import type { CreateEvent, DeleteEvent, GenericEvent, UpdateEvent } from '../handler/events.js';

export interface Predicate<T extends KubeObject = KubeObject> {
  create(event: CreateEvent<T>): boolean;
  update(event: UpdateEvent<T>): boolean;
  delete(event: DeleteEvent<T>): boolean;
  generic(event: GenericEvent<T>): boolean;
}

/** A predicate from per-event functions; missing ones let the event pass. */
export function predicateFuncs<T extends KubeObject = KubeObject>(funcs: Partial<Predicate<T>>): Predicate<T> {
  return {
    create: funcs.create ?? (() => true),
    update: funcs.update ?? (() => true),
    delete: funcs.delete ?? (() => true),
    generic: funcs.generic ?? (() => true),
  };
}

/** Passes updates whose metadata.generation changed (status-only writes do not bump it). */
export function generationChanged<T extends KubeObject = KubeObject>(): Predicate<T> {
  return predicateFuncs<T>({ update: (e) => e.objectOld.metadata?.generation !== e.objectNew.metadata?.generation });
}

/** Passes updates whose resourceVersion changed (drops the resync-style no-op updates). */
export function resourceVersionChanged<T extends KubeObject = KubeObject>(): Predicate<T> {
  return predicateFuncs<T>({ update: (e) => e.objectOld.metadata?.resourceVersion !== e.objectNew.metadata?.resourceVersion });
}

/** Passes updates whose labels changed. */
export function labelChanged<T extends KubeObject = KubeObject>(): Predicate<T> {
  return predicateFuncs<T>({ update: (e) => !sameMap(e.objectOld.metadata?.labels, e.objectNew.metadata?.labels) });
}

/** Passes updates whose annotations changed. */
export function annotationChanged<T extends KubeObject = KubeObject>(): Predicate<T> {
  return predicateFuncs<T>({ update: (e) => !sameMap(e.objectOld.metadata?.annotations, e.objectNew.metadata?.annotations) });
}

/** Passes every event type for objects for which `fn(object)` holds (updates: the new object). */
export function newPredicate<T extends KubeObject = KubeObject>(fn: (obj: T) => boolean): Predicate<T> {
  return { create: (e) => fn(e.object), update: (e) => fn(e.objectNew), delete: (e) => fn(e.object), generic: (e) => fn(e.object) };
}

export function and<T extends KubeObject = KubeObject>(...ps: Predicate<T>[]): Predicate<T> {
  return {
    create: (e) => ps.every((p) => p.create(e)),
    update: (e) => ps.every((p) => p.update(e)),
    delete: (e) => ps.every((p) => p.delete(e)),
    generic: (e) => ps.every((p) => p.generic(e)),
  };
}

export function or<T extends KubeObject = KubeObject>(...ps: Predicate<T>[]): Predicate<T> {
  return {
    create: (e) => ps.some((p) => p.create(e)),
    update: (e) => ps.some((p) => p.update(e)),
    delete: (e) => ps.some((p) => p.delete(e)),
    generic: (e) => ps.some((p) => p.generic(e)),
  };
}

export function not<T extends KubeObject = KubeObject>(p: Predicate<T>): Predicate<T> {
  return { create: (e) => !p.create(e), update: (e) => !p.update(e), delete: (e) => !p.delete(e), generic: (e) => !p.generic(e) };
}

function sameMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ak = Object.keys(a ?? {});
  const bk = Object.keys(b ?? {});
  return ak.length === bk.length && ak.every((k) => b?.[k] === a?.[k]);
}
