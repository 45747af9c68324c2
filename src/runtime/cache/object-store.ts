/**
 * An informer's local copy of one kind: objects by `namespace/name`, plus field indexes
 * (`indexField`) kept up to date on every change, and a namespace index for scoped lists. Index
 * functions must be pure functions of the object (as client-go's indexers): stored objects never change.
 * An index added `lazy` costs nothing per change until its first lookup builds it (the cache's namespace
 * index: most controllers only get their objects and never list a namespace).
 * reflect() (reflect.ts) keeps one up to date from a watcher's events; it is also usable on its own:
 *
 *   const store = new ObjectStore<ConfigMap>();
 *   store.addIndex('owner', (cm) => cm.data?.owner);
 *   store.upsert('ns/a', cm);
 *   store.byIndex('owner', 'x'); // ['ns/a']
 */
import type { StoreChange } from './watch-event.js';
import { keepShape } from '../keep-shape.js';

export type IndexFunc<T> = (obj: T) => string | string[] | undefined;

export class ObjectStore<T> {
  private readonly objects = new Map<string, T>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  private readonly indices = new Map<string, Map<string, Set<string>>>();
  /** The indexes as a list, for the per-event paths (no Map iterator or entry array per object). */
  private readonly indexList: Array<{ fn: IndexFunc<T>; index: Map<string, Set<string>> }> = [];
  /** Lazy indexes not looked up yet: built (and from then on kept up to date) by their first byIndex(). */
  private readonly unbuilt = new Map<string, IndexFunc<T>>();

  get size(): number {
    return this.objects.size;
  }

  get(key: string): T | undefined {
    return this.objects.get(key);
  }

  keys(): IterableIterator<string> {
    return this.objects.keys();
  }

  values(): IterableIterator<T> {
    return this.objects.values();
  }

  hasIndex(name: string): boolean {
    return this.indexers.has(name);
  }

  /**
   * Adds an index and fills it from the objects already stored; with `lazy`, its first byIndex() does that
   * instead (its keys then come in the store's order, which is the order an eager index has when the
   * function's value never changes for a key, as a namespace's does), and changes before it cost nothing.
   */
  addIndex(name: string, fn: IndexFunc<T>, options: { lazy?: boolean } = {}): void {
    if (this.indexers.has(name)) throw new Error(`index "${name}" already exists`);
    this.indexers.set(name, fn);
    if (options.lazy === true) this.unbuilt.set(name, fn);
    else this.build(name, fn);
  }

  private build(name: string, fn: IndexFunc<T>): void {
    const index = new Map<string, Set<string>>();
    this.indices.set(name, index);
    this.indexList.push({ fn, index });
    for (const [key, obj] of this.objects) indexValues(index, key, fn(obj), +1);
  }

  /** Stores `obj` under `key`; returns the object it replaced. */
  upsert(key: string, obj: T): T | undefined {
    const old = this.objects.get(key);
    this.objects.set(key, obj);
    const indexes = this.indexList;
    for (let i = 0; i < indexes.length; i++) {
      const { fn, index } = indexes[i]!;
      const values = fn(obj);
      if (old === undefined) indexValues(index, key, values, +1);
      else {
        // An update that keeps the object's index values (most do: the namespace never changes) leaves the index alone.
        const oldValues = fn(old);
        if (sameValues(oldValues, values)) continue;
        indexValues(index, key, oldValues, -1);
        indexValues(index, key, values, +1);
      }
    }
    return old;
  }

  remove(key: string): T | undefined {
    const old = this.objects.get(key);
    if (old === undefined) return undefined;
    const indexes = this.indexList;
    for (let i = 0; i < indexes.length; i++) indexValues(indexes[i]!.index, key, indexes[i]!.fn(old), -1);
    this.objects.delete(key);
    return old;
  }

  /**
   * Makes the store hold exactly `fresh` (a complete list) and returns what changed, deletes first, then
   * adds and updates in `fresh`'s order; an object whose resourceVersion did not change is not an update.
   */
  replace(fresh: Map<string, T>, versionOf: (obj: T) => string | undefined): Array<StoreChange<T>> {
    const changes: Array<StoreChange<T>> = [];
    for (const [key, old] of this.objects) {
      if (!fresh.has(key)) {
        this.remove(key);
        changes.push({ type: 'deleted', object: old });
      }
    }
    for (const [key, obj] of fresh) {
      const old = this.upsert(key, obj);
      if (old === undefined) changes.push({ type: 'added', object: obj });
      else if (versionOf(old) !== versionOf(obj)) changes.push({ type: 'updated', object: obj, old });
    }
    return changes;
  }

  /** Keys whose index `name` holds `value`. */
  byIndex(name: string, value: string): string[] {
    const lazy = this.unbuilt.get(name);
    if (lazy !== undefined) {
      this.unbuilt.delete(name);
      this.build(name, lazy);
    }
    const index = this.indices.get(name);
    if (!index) throw new Error(`no index named "${name}": register it with indexField() before the cache starts`);
    return [...(index.get(value) ?? [])];
  }
}

// One store lives on between informers, so the store's compiled code stays valid (keep-shape.ts).
keepShape(new ObjectStore());

/** True when an index function gave the same values for two objects (the same string, or equal lists). */
function sameValues(a: string | string[] | undefined, b: string | string[] | undefined): boolean {
  if (a === b) return true;
  if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Adds `key` under `values` in `index` (+1), or takes it out (-1). The values an old object was indexed under
 * are computed again from it rather than remembered — stored objects are never changed (reads hand out
 * copies or frozen objects) — which saves a map entry per object and index.
 */
function indexValues(index: Map<string, Set<string>>, key: string, values: string | string[] | undefined, change: 1 | -1): void {
  if (values === undefined) return;
  if (typeof values === 'string') indexValue(index, values, key, change);
  else for (let i = 0; i < values.length; i++) indexValue(index, values[i]!, key, change);
}

function indexValue(index: Map<string, Set<string>>, value: string, key: string, change: 1 | -1): void {
  let keys = index.get(value);
  if (change > 0) {
    if (!keys) index.set(value, (keys = new Set()));
    keys.add(key);
  } else if (keys) {
    keys.delete(key);
    if (keys.size === 0) index.delete(value);
  }
}
