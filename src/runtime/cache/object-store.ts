/**
 * An informer's local copy of one kind: objects by `namespace/name`, plus field indexes
 * (`indexField`) kept up to date on every change, and a namespace index for scoped lists.
 */

export type IndexFunc<T> = (obj: T) => string | string[] | undefined;

export class ObjectStore<T> {
  private readonly objects = new Map<string, T>();
  private readonly indexers = new Map<string, IndexFunc<T>>();
  private readonly indices = new Map<string, Map<string, Set<string>>>();
  /** Per index, the values each key was indexed under (a lone value is kept unwrapped to save an array per object). */
  private readonly indexedValues = new Map<string, Map<string, string | string[]>>();

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

  /** Adds an index and fills it from the objects already stored. */
  addIndex(name: string, fn: IndexFunc<T>): void {
    if (this.indexers.has(name)) throw new Error(`index "${name}" already exists`);
    this.indexers.set(name, fn);
    this.indices.set(name, new Map());
    this.indexedValues.set(name, new Map());
    for (const [key, obj] of this.objects) this.indexOne(name, key, obj);
  }

  /** Stores `obj` under `key`; returns the object it replaced. */
  upsert(key: string, obj: T): T | undefined {
    const old = this.objects.get(key);
    if (old !== undefined) this.unindex(key);
    this.objects.set(key, obj);
    for (const name of this.indexers.keys()) this.indexOne(name, key, obj);
    return old;
  }

  remove(key: string): T | undefined {
    const old = this.objects.get(key);
    if (old === undefined) return undefined;
    this.unindex(key);
    this.objects.delete(key);
    return old;
  }

  /** Keys whose index `name` holds `value`. */
  byIndex(name: string, value: string): string[] {
    const index = this.indices.get(name);
    if (!index) throw new Error(`no index named "${name}": register it with indexField() before the cache starts`);
    return [...(index.get(value) ?? [])];
  }

  private indexOne(name: string, key: string, obj: T): void {
    const raw = this.indexers.get(name)!(obj);
    const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    this.indexedValues.get(name)!.set(key, values.length === 1 ? values[0]! : values);
    const index = this.indices.get(name)!;
    for (const value of values) {
      let keys = index.get(value);
      if (!keys) index.set(value, (keys = new Set()));
      keys.add(key);
    }
  }

  private unindex(key: string): void {
    for (const [name, byKey] of this.indexedValues) {
      const index = this.indices.get(name)!;
      const indexed = byKey.get(key) ?? [];
      for (const value of typeof indexed === 'string' ? [indexed] : indexed) {
        const keys = index.get(value);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(value);
      }
      byKey.delete(key);
    }
  }
}
