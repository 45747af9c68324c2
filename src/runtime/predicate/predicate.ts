/**
 * Predicates filter events before handlers see them: `generationChanged` (spec changes only),
 * `resourceVersionChanged`, `labelChanged`, `annotationChanged`, and the combinators `and`, `or`, `not`.
 * Each predicate answers per event type; only update events differ between the built-in ones. A predicate may
 * be async (`AsyncPredicate`, answering with a promise) and gets the event's context (the manager's client and
 * the logger); the combinators stay synchronous while every part is.
 */
import type { KubeObject } from '../client/object.js';
import type { EventContext } from '../handler/event-context.js';
import type { CreateEvent, DeleteEvent, GenericEvent, UpdateEvent } from '../handler/events.js';

export interface Predicate<T extends KubeObject = KubeObject> {
  create(event: CreateEvent<T>, context?: EventContext): boolean;
  update(event: UpdateEvent<T>, context?: EventContext): boolean;
  delete(event: DeleteEvent<T>, context?: EventContext): boolean;
  generic(event: GenericEvent<T>, context?: EventContext): boolean;
}

/** A predicate that may answer later (every Predicate is one). */
export interface AsyncPredicate<T extends KubeObject = KubeObject> {
  create(event: CreateEvent<T>, context?: EventContext): boolean | Promise<boolean>;
  update(event: UpdateEvent<T>, context?: EventContext): boolean | Promise<boolean>;
  delete(event: DeleteEvent<T>, context?: EventContext): boolean | Promise<boolean>;
  generic(event: GenericEvent<T>, context?: EventContext): boolean | Promise<boolean>;
}

/** A predicate from per-event functions; missing ones let the event pass. */
export function predicateFuncs<T extends KubeObject = KubeObject>(funcs: Partial<Predicate<T>>): Predicate<T>;
export function predicateFuncs<T extends KubeObject = KubeObject>(funcs: Partial<AsyncPredicate<T>>): AsyncPredicate<T>;
export function predicateFuncs<T extends KubeObject = KubeObject>(funcs: Partial<AsyncPredicate<T>>): AsyncPredicate<T> {
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

/** Passes every event type for objects for which `fn(object, context)` holds (updates: the new object). */
export function newPredicate<T extends KubeObject = KubeObject>(fn: (obj: T, context?: EventContext) => boolean): Predicate<T>;
export function newPredicate<T extends KubeObject = KubeObject>(fn: (obj: T, context?: EventContext) => boolean | Promise<boolean>): AsyncPredicate<T>;
export function newPredicate<T extends KubeObject = KubeObject>(fn: (obj: T, context?: EventContext) => boolean | Promise<boolean>): AsyncPredicate<T> {
  return { create: (e, c) => fn(e.object, c), update: (e, c) => fn(e.objectNew, c), delete: (e, c) => fn(e.object, c), generic: (e, c) => fn(e.object, c) };
}

/**
 * Asks `ps` in order until one answers `decisive` (then answers it), else answers !decisive; synchronous
 * while every answer is, so a chain of plain predicates stays plain.
 */
function firstAnswer<T extends KubeObject>(ps: AsyncPredicate<T>[], ask: (p: AsyncPredicate<T>) => boolean | Promise<boolean>, decisive: boolean, from = 0): boolean | Promise<boolean> {
  for (let i = from; i < ps.length; i++) {
    const answer = ask(ps[i]!);
    if (typeof (answer as Partial<Promise<boolean>> | undefined)?.then === 'function') {
      return (answer as Promise<boolean>).then((a) => (!!a === decisive ? decisive : firstAnswer(ps, ask, decisive, i + 1)));
    }
    if (!!answer === decisive) return decisive;
  }
  return !decisive;
}

function combine<T extends KubeObject>(ps: AsyncPredicate<T>[], decisive: boolean): AsyncPredicate<T> {
  return {
    create: (e, c) => firstAnswer(ps, (p) => p.create(e, c), decisive),
    update: (e, c) => firstAnswer(ps, (p) => p.update(e, c), decisive),
    delete: (e, c) => firstAnswer(ps, (p) => p.delete(e, c), decisive),
    generic: (e, c) => firstAnswer(ps, (p) => p.generic(e, c), decisive),
  };
}

/** Passes an event that every predicate passes (asked in order, stopping at the first no). */
export function and<T extends KubeObject = KubeObject>(...ps: Predicate<T>[]): Predicate<T>;
export function and<T extends KubeObject = KubeObject>(...ps: AsyncPredicate<T>[]): AsyncPredicate<T>;
export function and<T extends KubeObject = KubeObject>(...ps: AsyncPredicate<T>[]): AsyncPredicate<T> {
  return combine(ps, false);
}

/** Passes an event that some predicate passes (asked in order, stopping at the first yes). */
export function or<T extends KubeObject = KubeObject>(...ps: Predicate<T>[]): Predicate<T>;
export function or<T extends KubeObject = KubeObject>(...ps: AsyncPredicate<T>[]): AsyncPredicate<T>;
export function or<T extends KubeObject = KubeObject>(...ps: AsyncPredicate<T>[]): AsyncPredicate<T> {
  return combine(ps, true);
}

export function not<T extends KubeObject = KubeObject>(p: Predicate<T>): Predicate<T>;
export function not<T extends KubeObject = KubeObject>(p: AsyncPredicate<T>): AsyncPredicate<T>;
export function not<T extends KubeObject = KubeObject>(p: AsyncPredicate<T>): AsyncPredicate<T> {
  const negate = (a: boolean | Promise<boolean>) => (typeof a === 'boolean' ? !a : a.then((v) => !v));
  return { create: (e, c) => negate(p.create(e, c)), update: (e, c) => negate(p.update(e, c)), delete: (e, c) => negate(p.delete(e, c)), generic: (e, c) => negate(p.generic(e, c)) };
}

function sameMap(a: Record<string, string> | undefined, b: Record<string, string> | undefined): boolean {
  const ak = Object.keys(a ?? {});
  const bk = Object.keys(b ?? {});
  return ak.length === bk.length && ak.every((k) => b?.[k] === a?.[k]);
}
