/**
 * Read-your-own-writes for the manager's cache-backed client (controller-runtime's "read your own write
 * client" design, opt-in as there): after this client's own create, update, patch, apply or delete of an
 * object, a cached get of that object waits until the cache has observed at least that write's
 * resourceVersion, and a cached list of the kind waits for the highest one written. The wait is bounded
 * (`timeoutMs` on the manager's clock); past it the read goes to the API server instead, which always
 * holds the write (the fallback KEP-2340's consistent reads take when the watch cache lags), and says so
 * in the log. Writes of kinds the cache does not serve, writes its watch can never show (another
 * namespace, a label selector the object fails, unless the object is cached and must leave), and dry runs
 * are not tracked. A write whose scope cannot be checked (the kind's cache has a field selector) is tracked
 * until one read has waited it out: that read waits the whole timeout and reads the API server (one log
 * line); later reads are the cache's again, at once, as for a write outside the scope.
 *
 * What it needs of the cache: a kind's informer's last observed resourceVersion and store, and a call to
 * `observed()` whenever an informer took an event or a list (the cache's activity hook).
 */
import type { Logger } from 'pino';
import { after, type Clock, type Timer } from '../clock.js';
import { isNotFound } from './api-error.js';
import type { CacheReader, Client, ListOptions, ObjectKey } from './client.js';
import type { KindInfo } from './kinds.js';
import { keyOf, type KubeObject } from './object.js';
import { compareResourceVersions, isComparableResourceVersion } from '../../apimachinery/resource-version.js';

export interface ReadYourOwnWritesOptions {
  /** Off by default, as in controller-runtime. */
  enabled?: boolean;
  /** How long a read waits for the cache to catch up before asking the API server (manager clock ms, default 3000: the API server's own wait for a consistent read from its watch cache). */
  timeoutMs?: number;
}

export const DEFAULT_READ_YOUR_OWN_WRITES_TIMEOUT_MS = 3000;

/** What the wait reads of a kind's informer. */
export interface ObservedKind {
  lastResourceVersion(): string;
  store: { get(key: string): KubeObject | undefined };
}

/** The cache underneath: its reads, and each kind's informer. */
export interface TrackedCache extends CacheReader {
  informerFor(info: KindInfo): ObservedKind;
}

/**
 * Whether the cache's watch of `info` can ever show `obj` (its namespace and label selector scope): 'in',
 * 'out', or 'unknown' when the scope has a part that cannot be checked here (a field selector). A write it
 * cannot show is not waited for: no event would come, and every read would wait out the timeout.
 */
export type CacheScope = (info: KindInfo, obj: KubeObject) => 'in' | 'out' | 'unknown';

/** This client's writes of one kind that the cache may not have seen yet. */
interface PendingWrites {
  /** The highest resourceVersion written, and each object's (decimal integers, apimachinery/resource-version.ts). */
  highest: string;
  byKey: Map<string, string>;
  /** Deletes answered without a resourceVersion (a Status): the object (this uid, or any) must leave the cache. */
  deletes: Map<string, string>;
  /** Keys of writes the cache's scope may hide (a field selector): dropped once a read waited them out. */
  unchecked: Set<string>;
}

interface Waiter {
  satisfied: () => boolean;
  resolve: (caughtUp: boolean) => void;
}

/** A resourceVersion that can be ordered (etcd's and the local cluster's decimal integers); undefined otherwise (then it is not tracked). */
function versionOf(rv: string | undefined): string | undefined {
  return isComparableResourceVersion(rv) ? rv : undefined;
}

/** `a` is above `b` (both comparable). */
const above = (a: string, b: string): boolean => compareResourceVersions(a, b) === 1;

/** `rv` is at least `wanted`; false when `rv` is absent or not comparable. */
const atLeast = (rv: string | undefined, wanted: string): boolean => (compareResourceVersions(rv, wanted) ?? -1) >= 0;

export class ReadYourOwnWrites implements CacheReader {
  private readonly pending = new Map<string, PendingWrites>();
  private waiters: Waiter[] = [];
  /** Reads that waited for the cache, and reads that gave up waiting and went to the API server. */
  readonly stats = { waited: 0, fellBack: 0 };

  constructor(
    private readonly cache: () => TrackedCache,
    private readonly server: () => Client,
    private readonly clock: Clock,
    private readonly timeoutMs: number,
    private readonly logger?: Logger,
    private readonly inScope: CacheScope = () => 'in',
  ) {}

  serves(info: KindInfo): boolean {
    return this.cache().serves(info);
  }

  /**
   * Notes a write's answer. A delete answered with the object (or, with finalizers, its update) is tracked
   * by resourceVersion; one answered with a Status by `deletedUid`: the cache must lose that object.
   */
  wrote(info: KindInfo, written: KubeObject | undefined, key: ObjectKey, deletedUid?: string): void {
    if (!this.serves(info)) return;
    const rv = versionOf(written?.kind === 'Status' ? undefined : written?.metadata?.resourceVersion);
    if (rv === undefined && deletedUid === undefined) return;
    const id = kindIdOf(info);
    const objectKey = keyOf({ namespace: info.namespaced ? key.namespace : undefined, name: key.name });
    // Out of the watch's scope and not cached: no event will come. (Cached, it leaves with a DELETED event.)
    const scope = rv === undefined ? 'in' : this.inScope(info, written!);
    if (scope === 'out' && this.cache().informerFor(info).store.get(objectKey) === undefined) return;
    let writes = this.pending.get(id);
    if (!writes) this.pending.set(id, (writes = { highest: '0', byKey: new Map(), deletes: new Map(), unchecked: new Set() }));
    else if (writes.byKey.size + writes.deletes.size >= 256) this.forgetSeen(info, this.cache().informerFor(info)); // keep the maps small
    if (rv === undefined) {
      writes.deletes.set(objectKey, deletedUid!);
      return;
    }
    if (above(rv, writes.highest)) writes.highest = rv;
    writes.deletes.delete(objectKey); // a later write's version covers an earlier delete of the key
    if (above(rv, writes.byKey.get(objectKey) ?? '0')) writes.byKey.set(objectKey, rv);
    if (scope === 'unknown') writes.unchecked.add(objectKey);
    else writes.unchecked.delete(objectKey);
  }

  /** An informer took an event or a list: wake the reads it has caught up for. */
  observed(): void {
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.satisfied()) w.resolve(true);
      else still.push(w);
    }
    this.waiters = still;
  }

  async get<T extends KubeObject>(info: KindInfo<T>, key: ObjectKey): Promise<T | undefined> {
    const writes = this.pending.get(kindIdOf(info));
    if (writes) {
      const objectKey = keyOf({ namespace: info.namespaced ? key.namespace : undefined, name: key.name });
      const informer = this.cache().informerFor(info);
      const wanted = writes.byKey.get(objectKey);
      const deletedUid = writes.deletes.get(objectKey);
      const seen = () => (wanted === undefined || this.seenVersion(informer, wanted, objectKey)) && (deletedUid === undefined || gone(informer, objectKey, deletedUid));
      if ((wanted !== undefined || deletedUid !== undefined) && !(await this.caughtUp(info, informer, seen, objectKey))) {
        this.dropUnchecked(info, [objectKey]);
        try {
          return await this.server().get(info, key);
        } catch (err) {
          if (isNotFound(err)) return undefined;
          throw err;
        }
      }
    }
    return this.cache().get(info, key);
  }

  async list<T extends KubeObject>(info: KindInfo<T>, options: ListOptions): Promise<T[]> {
    const writes = this.pending.get(kindIdOf(info));
    if (writes) {
      const informer = this.cache().informerFor(info);
      const seen = () => this.seenVersion(informer, writes.highest) && [...writes.deletes].every(([key, uid]) => gone(informer, key, uid));
      const caughtUp = await this.caughtUp(info, informer, seen);
      if (!caughtUp) this.dropUnchecked(info, [...writes.unchecked]);
      // matchingFields needs the cache's indexes: a list with them is answered from the cache, late or not
      if (!caughtUp && !options.matchingFields) return this.server().list(info, options);
    }
    return this.cache().list(info, options);
  }

  /** Waits until `seen()` (checked whenever an informer moves); false after the timeout. */
  private async caughtUp(info: KindInfo, informer: ObservedKind, seen: () => boolean, key?: string): Promise<boolean> {
    this.forgetSeen(info, informer);
    if (seen()) return true;
    this.stats.waited++;
    let timer: Timer | undefined;
    const caughtUp = await new Promise<boolean>((resolve) => {
      const waiter: Waiter = { satisfied: seen, resolve };
      this.waiters.push(waiter);
      timer = after(this.clock, this.timeoutMs, () => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      });
    });
    timer?.cancel();
    this.forgetSeen(info, informer);
    if (!caughtUp) {
      this.stats.fellBack++;
      this.logger?.info({ kind: info.kind, key, observed: informer.lastResourceVersion(), timeoutMs: this.timeoutMs }, "the cache did not observe this client's own write in time; reading from the API server");
    }
    return caughtUp;
  }

  /** The informer's last resourceVersion (or, given a key, the cached object's) is at least `wanted`. */
  private seenVersion(informer: ObservedKind, wanted: string, key?: string): boolean {
    if (atLeast(informer.lastResourceVersion(), wanted)) return true;
    return key !== undefined && atLeast(informer.store.get(key)?.metadata?.resourceVersion, wanted);
  }

  /**
   * Drops writes among `keys` whose scope could not be checked, once a read waited them out: the cache may never
   * show them, and waiting again on every read would make each one as slow as the timeout.
   */
  private dropUnchecked(info: KindInfo, keys: string[]): void {
    const id = kindIdOf(info);
    const writes = this.pending.get(id);
    if (!writes) return;
    for (const key of keys) {
      if (!writes.unchecked.delete(key)) continue;
      writes.byKey.delete(key);
    }
    writes.highest = [...writes.byKey.values()].reduce((a, b) => (above(b, a) ? b : a), '0');
    if (writes.byKey.size === 0 && writes.deletes.size === 0) this.pending.delete(id);
  }

  /** Drops the writes the cache has seen (all of a kind's, once it passed the highest). */
  private forgetSeen(info: KindInfo, informer: ObservedKind): void {
    const id = kindIdOf(info);
    const writes = this.pending.get(id);
    if (!writes) return;
    const observed = informer.lastResourceVersion();
    for (const [key, rv] of writes.byKey) {
      if (!atLeast(observed, rv)) continue;
      writes.byKey.delete(key);
      writes.unchecked.delete(key);
    }
    for (const [key, uid] of writes.deletes) if (gone(informer, key, uid)) writes.deletes.delete(key);
    if (writes.byKey.size === 0 && writes.deletes.size === 0) this.pending.delete(id);
  }
}

/** The cache no longer holds the deleted object (none under its key, or another one: recreated). */
function gone(informer: ObservedKind, key: string, uid: string): boolean {
  const cached = informer.store.get(key);
  return cached === undefined || (uid !== '' && cached.metadata?.uid !== uid);
}

const kindIds = new WeakMap<KindInfo, string>();

/** A kind's key across its views (a metadata-only view waits for writes of the full kind); built once per KindInfo, reads are a hot path. */
function kindIdOf(info: KindInfo): string {
  let id = kindIds.get(info);
  if (id === undefined) kindIds.set(info, (id = `${info.group}/${info.kind}`));
  return id;
}
