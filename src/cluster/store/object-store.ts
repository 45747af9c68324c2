/**
 * The local cluster's MVCC object store: every object of every kind under one increasing
 * resourceVersion, a bounded history of committed changes (for watches, paginated lists and exact
 * reads), and synchronous commit listeners (watch streams, built-in controllers). In memory by default;
 * with a `persistence` adapter (sqlite-persistence.ts) each change is written through, durably, before
 * it is applied and announced, and a restart restores the objects and the counter (not the history).
 */
import { expired } from '../errors/status-errors.js';
import { checkEtcdRequestSize } from './etcd-request-limit.js';
import type { PersistedState, StorePersistence } from './sqlite-persistence.js';

export type { KubeObject, NewKubeObject, Stored, StoredObjectMeta, WritableObjectMeta } from './kube-object.js';
import type { KubeObject } from './kube-object.js';
import { copyObject } from './copy-object.js';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One committed change, as watches see it. */
export interface StoreEvent {
  type: ChangeType;
  /** Storage bucket, e.g. `configmaps` or `widgets.example.com`. */
  bucket: string;
  rv: number;
  /** The object after the change (for DELETED: its last state carrying the delete's resourceVersion). */
  object: KubeObject;
  /** The object before the change (absent for ADDED). */
  oldObject?: KubeObject;
}

export type CommitListener = (event: StoreEvent) => void;

export interface ObjectStoreOptions {
  /** First resourceVersion handed out is `initialResourceVersion + 1`. */
  initialResourceVersion?: number;
  /** How many changes stay replayable. */
  historyLimit?: number;
  /** Makes every change durable before it is applied (default: none, memory only). */
  persistence?: StorePersistence;
}

const keyOf = (namespace: string | undefined, name: string): string => `${namespace ?? ''}/${name}`;

function compareKeys(a: KubeObject, b: KubeObject): number {
  const na = a.metadata.namespace ?? '';
  const nb = b.metadata.namespace ?? '';
  if (na !== nb) return na < nb ? -1 : 1;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}

/** Snapshot reads older than the history answer 410 Expired with the real message. */
export function tooOldResourceVersion(rv: number, oldest: number): Error {
  return expired(`too old resource version: ${rv} (${oldest})`);
}

export class ObjectStore {
  private readonly buckets = new Map<string, Map<string, KubeObject>>();
  private readonly history: StoreEvent[] = [];
  private readonly listeners = new Set<CommitListener>();
  private readonly historyLimit: number;
  private readonly persistence: StorePersistence | undefined;
  private rv: number;
  /** Oldest resourceVersion from which history can replay (events with rv > this are kept). */
  private compactedThrough: number;

  constructor(options: ObjectStoreOptions = {}) {
    this.rv = options.initialResourceVersion ?? 1000;
    this.compactedThrough = this.rv;
    this.historyLimit = options.historyLimit ?? 10_000;
    this.persistence = options.persistence;
  }

  /**
   * Loads what a data directory held (before anything subscribes): the objects and the counter, with no
   * history, so resourceVersions older than the restored one answer 410 Expired as after a compaction.
   */
  restore(state: PersistedState): void {
    this.buckets.clear();
    this.history.length = 0;
    for (const { bucket, object } of state.objects) this.bucket(bucket).set(keyOf(object.metadata.namespace, object.metadata.name), Object.freeze(object) as KubeObject);
    this.rv = Math.max(this.rv, state.resourceVersion);
    this.compactedThrough = this.rv;
  }

  /**
   * Tells commit listeners (controllers, indexes) about every object, as ADDED at its own
   * resourceVersion, the way a restarted controller manager lists everything; nothing enters the history.
   */
  announceExisting(): void {
    for (const [bucket, objects] of this.buckets) {
      for (const object of [...objects.values()]) this.notify({ type: 'ADDED', bucket, rv: Number(object.metadata.resourceVersion), object });
    }
  }

  /** The current (latest committed) resourceVersion. */
  get resourceVersion(): number {
    return this.rv;
  }

  /** The oldest resourceVersion a watch or exact list may start from. */
  get oldestResourceVersion(): number {
    return this.compactedThrough;
  }

  onCommit(listener: CommitListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(bucket: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const found = this.buckets.get(bucket)?.get(keyOf(namespace, name));
    return found ? copyObject(found) : undefined;
  }

  /** The stored (frozen, shared) object without a copy — for read-only checks on hot paths. */
  peek(bucket: string, namespace: string | undefined, name: string): Readonly<KubeObject> | undefined {
    return this.buckets.get(bucket)?.get(keyOf(namespace, name));
  }

  /** Whether the bucket holds any object. */
  peekAny(bucket: string): boolean {
    return (this.buckets.get(bucket)?.size ?? 0) > 0;
  }

  /** Current objects of a bucket (optionally one namespace), ordered by namespace then name. */
  list(bucket: string, namespace?: string): KubeObject[] {
    return this.listShared(bucket, namespace).map((o) => copyObject(o));
  }

  /** Like list(), but the stored (frozen, shared) objects themselves — for read-only serialization. */
  listShared(bucket: string, namespace?: string): KubeObject[] {
    const all = [...(this.buckets.get(bucket)?.values() ?? [])].filter((o) => namespace === undefined || o.metadata.namespace === namespace);
    return all.sort(compareKeys);
  }

  /**
   * Bucket contents (optionally one namespace) as they were at `rv`, from history, ordered like list();
   * the stored (frozen, shared) objects, as listShared() — for paginated and exact lists, which only
   * serialize them. 410 when `rv` predates the history.
   */
  listAt(bucket: string, rv: number, namespace?: string): KubeObject[] {
    if (rv >= this.rv) return this.listShared(bucket, namespace);
    if (rv < this.compactedThrough) throw tooOldResourceVersion(rv, this.compactedThrough + 1);
    const inScope = (o: KubeObject): boolean => namespace === undefined || o.metadata.namespace === namespace;
    const state = new Map<string, KubeObject>();
    for (const [k, o] of this.buckets.get(bucket) ?? []) if (inScope(o)) state.set(k, o);
    for (let i = this.history.length - 1; i >= 0; i--) {
      const e = this.history[i]!;
      if (e.rv <= rv) break;
      if (e.bucket !== bucket || !inScope(e.object)) continue;
      const k = keyOf(e.object.metadata.namespace, e.object.metadata.name);
      if (e.type === 'ADDED') state.delete(k);
      else state.set(k, e.oldObject!);
    }
    return [...state.values()].sort(compareKeys);
  }

  /** Every retained change with rv > `since`, oldest first; 410 when `since` predates the history. */
  eventsSince(since: number): StoreEvent[] {
    if (since < this.compactedThrough) throw tooOldResourceVersion(since, this.compactedThrough + 1);
    let lo = 0;
    let hi = this.history.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.history[mid]!.rv <= since) lo = mid + 1;
      else hi = mid;
    }
    return this.history.slice(lo);
  }

  /** Commits a new object; the caller has checked it does not exist. Returns the stored copy. */
  create(bucket: string, object: KubeObject): KubeObject {
    return copyObject(this.commitCreate(bucket, object));
  }

  /** Commits a changed object; the caller has checked it exists and differs. */
  update(bucket: string, object: KubeObject): KubeObject {
    return copyObject(this.commitUpdate(bucket, object));
  }

  /** create() for a caller that needs no copy back: returns the stored (frozen, shared) object. */
  commitCreate(bucket: string, object: KubeObject): Readonly<KubeObject> {
    checkEtcdRequestSize(bucket, object);
    const stored = this.stamp(object);
    this.makeDurable('ADDED', bucket, stored);
    this.bucket(bucket).set(keyOf(stored.metadata.namespace, stored.metadata.name), stored);
    this.commit({ type: 'ADDED', bucket, rv: this.rv, object: stored });
    return stored;
  }

  /** update() for a caller that needs no copy back: returns the stored (frozen, shared) object. */
  commitUpdate(bucket: string, object: KubeObject): Readonly<KubeObject> {
    checkEtcdRequestSize(bucket, object);
    const key = keyOf(object.metadata.namespace, object.metadata.name);
    const old = this.bucket(bucket).get(key);
    const stored = this.stamp(object);
    this.makeDurable('MODIFIED', bucket, stored);
    this.bucket(bucket).set(key, stored);
    this.commit({ type: 'MODIFIED', bucket, rv: this.rv, object: stored, ...(old ? { oldObject: old } : {}) });
    return stored;
  }

  /** Removes an object; the DELETED event carries its last state with the delete's resourceVersion. */
  delete(bucket: string, namespace: string | undefined, name: string): KubeObject | undefined {
    const key = keyOf(namespace, name);
    const old = this.bucket(bucket).get(key);
    if (!old) return undefined;
    const last = this.stamp(old);
    this.makeDurable('DELETED', bucket, last);
    this.bucket(bucket).delete(key);
    this.commit({ type: 'DELETED', bucket, rv: this.rv, object: last, oldObject: old });
    return copyObject(last);
  }

  /** Drops the whole history so older resourceVersions answer 410 (test hook). */
  compactHistory(): void {
    this.history.length = 0;
    this.compactedThrough = this.rv;
  }

  /** Every bucket name that holds objects. */
  bucketNames(): string[] {
    return [...this.buckets.keys()].filter((b) => (this.buckets.get(b)?.size ?? 0) > 0).sort();
  }

  private bucket(name: string): Map<string, KubeObject> {
    let b = this.buckets.get(name);
    if (!b) this.buckets.set(name, (b = new Map()));
    return b;
  }

  /** A frozen copy carrying the next resourceVersion (taken by makeDurable once the change is stored). */
  private stamp(object: KubeObject): KubeObject {
    const copy = copyObject(object);
    copy.metadata.resourceVersion = String(this.rv + 1);
    return Object.freeze(copy) as KubeObject;
  }

  /** Writes the change through to the persistence adapter (throws, changing nothing, if it cannot), then takes its resourceVersion. */
  private makeDurable(type: ChangeType, bucket: string, stamped: KubeObject): void {
    this.persistence?.write({ type, bucket, rv: this.rv + 1, object: stamped });
    this.rv += 1;
  }

  private commit(event: StoreEvent): void {
    this.history.push(event);
    // one change in, the oldest out: shift() trims the array in place, where splice(0, 1) copied all 10 000
    while (this.history.length > this.historyLimit) this.compactedThrough = this.history.shift()!.rv;
    this.notify(event);
  }

  private notify(event: StoreEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        queueMicrotask(() => {
          throw err;
        });
      }
    }
  }
}
