/**
 * An informer that never goes quiet: a paginated list, then a watch from the list's resourceVersion with
 * bookmarks; a relist on 410 Gone; a re-watch after the server ends the stream; a reconnect with
 * exponential backoff and jitter after any error; and stall detection (no event or bookmark for too long
 * → the watch is dropped and re-opened, counted in a metric). Before re-watching after a lost connection it
 * checks the server did not go back in time (server-timeline.ts: a restart that lost its storage) and, if
 * it did, relists from the latest, sending deletes for what vanished. Failures are warned once per state
 * (watch-failure-log.ts). Handlers see adds, updates and deletes in order.
 */
import type { Logger } from 'pino';
import { isGone, ApiError } from '../client/api-error.js';
import type { Client } from '../client/client.js';
import type { KindInfo } from '../client/kinds.js';
import { objectKey, type KubeObject } from '../client/object.js';
import { resourcePath, selectorString } from '../client/paths.js';
import { acceptFor } from '../client/partial-metadata.js';
import type { Transport } from '../client/transport.js';
import type { Clock } from '../clock.js';
import { ObjectStore } from './object-store.js';
import { clusterIdentity, currentResourceVersion, ServerWentBackError, wentBackInTime } from './server-timeline.js';
import { stallTimer } from './stall-timer.js';
import { WatchFailureLog } from './watch-failure-log.js';

export interface InformerHandler<T extends KubeObject = KubeObject> {
  onAdd?(obj: T, isInitialList: boolean): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T): void;
}

export interface InformerMetrics {
  stalled?(kind: string): void;
  relisted?(kind: string): void;
  watchRestarted?(kind: string, reason: string): void;
}

export interface InformerOptions {
  kind: KindInfo;
  client: Client;
  transport: Transport;
  namespace?: string;
  labelSelector?: string | Record<string, string>;
  fieldSelector?: string;
  pageSize?: number;
  /** No event or bookmark for this long (ms, real unless stallClock) → re-watch, not ready until it opens. Default 90 s (the server bookmarks every minute). */
  stallTimeoutMs?: number;
  /** Measure stallTimeoutMs and readiness's grace for a lost watch on this clock instead of real time (tests on a virtual clock). */
  stallClock?: Clock;
  /**
   * Also compare the cluster's identity (the kube-system namespace's uid) before re-watching, to notice a
   * replaced cluster whose resourceVersions already passed ours; needs `get` on namespaces (default false).
   */
  checkClusterIdentity?: boolean;
  /** Real ms a freshly opened, silent watch counts as busy for settle() (default 50). */
  watchSettleGraceMs?: number;
  /** Server-side watch timeout; default random 300–600 s so reconnects spread out. */
  watchTimeoutSeconds?: number;
  /** Reconnect backoff after errors (real ms): initial, doubling to max, ±25 % jitter. */
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  /** Applied to every object before it is stored (strip managedFields, freeze). */
  transform?: (obj: KubeObject) => KubeObject;
  metrics?: InformerMetrics;
  logger?: Logger;
  /** Called on every received event, state change or error (for settle()). */
  onActivity?: () => void;
}

type WatchEvent = { type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'; object: KubeObject & { code?: number } };

class WatchEndedError extends Error {
  override name = 'WatchEndedError';
}

/** The 504 a server answers for a resourceVersion it has not reached (cause ResourceVersionTooLarge). */
function isTooLargeResourceVersion(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.code !== 504) return false;
  const causes = (err.status as { details?: { causes?: Array<{ reason?: string }> } }).details?.causes ?? [];
  return causes.some((c) => c.reason === 'ResourceVersionTooLarge');
}

export class Informer<T extends KubeObject = KubeObject> {
  readonly store = new ObjectStore<T>();
  private readonly handlers: InformerHandler<T>[] = [];
  private resourceVersion = '';
  /** A list must come before the next watch (at start, and after a watch answered 410). */
  private needsList = true;
  /** The last list's or event's resourceVersion is too old (or too new) to list from: list the latest (""). */
  private lastSyncUnavailable = false;
  /** The server paginated a list for us once: keep asking for pages on relists from a resourceVersion. */
  private paginatedResult = false;
  private synced = false;
  private syncWaiters: Array<() => void> = [];
  private running = false;
  private stopped = false;
  private connected = false;
  /** A stall was detected and no re-watch has opened since: not ready. */
  private stalled = false;
  private listing = false;
  private abortCurrent: (() => void) | undefined;
  private sleepTimer: NodeJS.Timeout | undefined;
  private wakeSleep: (() => void) | undefined;
  private failures = 0;
  private readonly failureLog: WatchFailureLog;
  /** The connection failed: before the next watch, check the server did not go back in time. */
  private verifyServer = false;
  /** The cluster identity seen at the last list (checkClusterIdentity only). */
  private identity: string | undefined;
  private disconnectedSince = 0;
  private connectedAt = 0;
  private receivedSinceConnect = false;
  private loop: Promise<void> | undefined;
  /** Events received since start (bookmarks included). */
  eventsReceived = 0;

  private readonly apiVersion: string;
  private readonly metadataOnly: boolean;

  constructor(private readonly options: InformerOptions) {
    this.apiVersion = options.kind.group ? `${options.kind.group}/${options.kind.version}` : options.kind.version;
    this.metadataOnly = options.kind.metadataOnly === true;
    this.failureLog = new WatchFailureLog(options.kind.kind, options.logger);
    this.disconnectedSince = this.now();
  }

  get kind(): KindInfo {
    return this.options.kind;
  }

  addHandler(handler: InformerHandler<T>): void {
    this.handlers.push(handler);
    if (this.synced) for (const obj of this.store.values()) handler.onAdd?.(obj, true);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abortCurrent?.();
    if (this.sleepTimer) clearTimeout(this.sleepTimer);
    this.wakeSleep?.();
    for (const w of this.syncWaiters.splice(0)) w();
    await this.loop;
  }

  hasSynced(): boolean {
    return this.synced;
  }

  waitForSync(): Promise<void> {
    if (this.synced || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** Synced, not stalled, and its watch is up or was lost less than `graceMs` ago (on stallClock when given). */
  healthy(graceMs = 15_000): boolean {
    return this.synced && !this.stalled && (this.connected || this.now() - this.disconnectedSince < graceMs);
  }

  /**
   * Watching with nothing in progress: no list running, no reconnect pending, and the current watch has
   * either delivered something or been open for a short grace period. (A resumed watch answers 410 or
   * replays history in its first lines; until those could have arrived it is not known to be current.)
   */
  isIdle(): boolean {
    if (this.stopped) return true;
    if (!this.synced || !this.connected || this.listing) return false;
    return this.receivedSinceConnect || Date.now() - this.connectedAt >= (this.options.watchSettleGraceMs ?? 50);
  }

  lastResourceVersion(): string {
    return this.resourceVersion;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        if (this.needsList) await this.relist();
        else if (this.verifyServer) await this.checkServerTimeline();
        const lasted = await this.watchOnce();
        this.failures = lasted ? 0 : this.failures + 1;
        // One watch ending at once is a server going away (the error, if any, comes with the next try);
        // watches that keep ending at once are a failure state of their own.
        if (this.failures > 0) await this.backoff(this.failures > 1 ? new WatchEndedError('watches keep ending as soon as they open') : undefined);
      } catch (err) {
        this.setConnected(false);
        if (this.stopped) break;
        if (err instanceof ServerWentBackError) {
          this.options.logger?.warn({ kind: this.kind.kind, resourceVersion: err.seen, lastResourceVersion: err.last }, `${err.message}; relisting from the latest`);
          this.needsList = true;
          this.lastSyncUnavailable = true;
          this.options.metrics?.relisted?.(this.kind.kind);
          continue;
        }
        if (isGone(err)) {
          this.options.logger?.debug({ kind: this.kind.kind }, 'watch expired (410), relisting');
          // as client-go's reflector: list "not older than" the last seen version first; only if that is
          // refused too does the next list ask for the latest (relist() handles that).
          this.needsList = true;
          this.options.metrics?.relisted?.(this.kind.kind);
          continue;
        }
        this.failures++;
        // The connection itself failed (refused, reset, TLS): the server may have been replaced. (One that
        // answers with a status is the same server; a watch the server ended or that stalled is re-opened, and
        // a server that restarted in between is caught by the re-watch's first bookmark, older than ours.)
        if (!(err instanceof ApiError) && !(err instanceof WatchEndedError)) this.verifyServer = true;
        const reason = err instanceof ApiError ? String(err.code) : err instanceof WatchEndedError ? 'stall' : 'error';
        this.options.metrics?.watchRestarted?.(this.kind.kind, reason);
        await this.backoff(err);
      }
    }
    this.setConnected(false);
  }

  /**
   * Lists every page, then replaces the store, telling handlers about the differences. As client-go's
   * reflector: the first list asks for resourceVersion "0" (a 1.32 server answers it whole from its watch
   * cache, ignoring the limit), a relist after a 410 asks for the last seen version, and a list refused as
   * expired or too new is repeated at once for the latest ("", paginated).
   */
  private async relist(): Promise<void> {
    this.listing = true;
    this.activity();
    try {
      let fresh: Map<string, T> | undefined;
      let rv = '';
      for (;;) {
        const from = this.lastSyncUnavailable ? '' : this.resourceVersion || '0';
        try {
          ({ fresh, rv } = await this.listAll(from));
          break;
        } catch (err) {
          if (from === '' || !(isGone(err) || isTooLargeResourceVersion(err))) throw err;
          this.options.logger?.debug({ kind: this.kind.kind, resourceVersion: from, err: String(err) }, 'list refused its resourceVersion, listing the latest');
          this.lastSyncUnavailable = true;
        }
      }
      if (this.stopped) return;
      this.replace(fresh);
      this.resourceVersion = rv;
      this.lastSyncUnavailable = false;
      this.needsList = false;
      // The server answered a whole list: whatever failed before is over, so the next failure backs off from
      // the start. (Kept, the count only grew across 410 → relist cycles; at the maximum delay every retry met
      // the next short fault and the informer stayed out for good.)
      this.failures = 0;
      this.verifyServer = false;
      if (this.options.checkClusterIdentity) this.identity = await clusterIdentity(this.options.transport);
      this.options.logger?.debug({ kind: this.kind.kind, objects: fresh.size, resourceVersion: rv }, 'informer listed');
      if (!this.synced) {
        this.synced = true;
        for (const w of this.syncWaiters.splice(0)) w();
      }
    } finally {
      this.listing = false;
      this.activity();
    }
  }

  /**
   * After a lost watch, before resuming from our resourceVersion: a server whose latest resourceVersion is
   * below it (or whose identity changed) is not the one we listed — resuming would show nothing below our
   * version and keep vanished objects forever.
   */
  private async checkServerTimeline(): Promise<void> {
    const latest = await currentResourceVersion(this.options.client, this.kind, { namespace: this.options.namespace, labelSelector: this.options.labelSelector, fieldSelector: this.options.fieldSelector });
    if (wentBackInTime(latest, this.resourceVersion)) throw new ServerWentBackError(latest, this.resourceVersion, 'its latest resourceVersion is lower than the last one seen');
    if (this.options.checkClusterIdentity && this.identity !== undefined) {
      const identity = await clusterIdentity(this.options.transport);
      if (identity !== undefined && identity !== this.identity) throw new ServerWentBackError(latest, this.resourceVersion, `the cluster identity changed (kube-system uid ${this.identity} → ${identity})`);
    }
    this.verifyServer = false;
  }

  private async listAll(resourceVersion: string): Promise<{ fresh: Map<string, T>; rv: string }> {
    // From a specific version a server lists from etcd; unless it paginated before, ask for everything at once
    // (client-go does the same, to spare etcd a herd of paginated lists).
    const unpaged = resourceVersion !== '' && resourceVersion !== '0' && !this.paginatedResult;
    const limit = unpaged ? undefined : this.options.pageSize ?? 500;
    const fresh = new Map<string, T>();
    let token: string | undefined;
    let rv = '';
    do {
      const page = await this.options.client.listPage(this.kind, { namespace: this.options.namespace, labelSelector: this.options.labelSelector, fieldSelector: this.options.fieldSelector, limit, resourceVersion }, token);
      for (const item of page.items) fresh.set(objectKey(item), this.prepare(item as T));
      token = page.continue;
      if (token) this.paginatedResult = true;
      rv = page.resourceVersion;
    } while (token && !this.stopped);
    return { fresh, rv };
  }

  private replace(fresh: Map<string, T>): void {
    const initial = !this.synced;
    for (const key of [...this.store.keys()]) {
      if (!fresh.has(key)) {
        const old = this.store.remove(key)!;
        for (const h of this.handlers) h.onDelete?.(old);
      }
    }
    for (const [key, obj] of fresh) {
      const old = this.store.upsert(key, obj);
      if (old === undefined) for (const h of this.handlers) h.onAdd?.(obj, initial);
      else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) for (const h of this.handlers) h.onUpdate?.(old, obj);
    }
  }

  /** One watch stream; resolves true when it ended normally after being useful, false when it ended at once. */
  private async watchOnce(): Promise<boolean> {
    const opened = Date.now();
    const timeoutSeconds = this.options.watchTimeoutSeconds ?? 300 + Math.floor(Math.random() * 300);
    const handle = await this.options.transport.stream(resourcePath(this.kind, this.options.namespace), {
      watch: 'true',
      resourceVersion: this.resourceVersion,
      allowWatchBookmarks: 'true',
      timeoutSeconds,
      labelSelector: selectorString(this.options.labelSelector),
      fieldSelector: this.options.fieldSelector,
    }, acceptFor(this.kind, false));
    if (this.stopped) {
      handle.abort();
      return true;
    }
    this.options.logger?.debug({ kind: this.kind.kind, resourceVersion: this.resourceVersion }, 'watch opened');
    this.setConnected(true);
    let received = 0;
    let stalled = false;
    const stallMs = this.options.stallTimeoutMs ?? 90_000;
    const stallTimeout = stallTimer(stallMs, onStall, this.options.stallClock);
    const self = this;
    function onStall(): void {
      stalled = true;
      self.stalled = true;
      self.options.metrics?.stalled?.(self.kind.kind);
      self.options.logger?.warn({ kind: self.kind.kind, stallMs }, 'watch stalled: no event or bookmark, re-watching');
      handle.abort();
    }
    this.abortCurrent = () => handle.abort();
    try {
      await new Promise<void>((resolve, reject) => {
        // Lines are cut from the raw bytes: one Buffer→string conversion per event (the JSON text itself),
        // none for the chunk as a whole, and a carried-over partial line only when a chunk splits one.
        let carry: Buffer | undefined;
        const res = handle.response;
        res.on('data', (chunk: Buffer) => {
          const data = carry ? Buffer.concat([carry, chunk]) : chunk;
          carry = undefined;
          let start = 0;
          let newline: number;
          while ((newline = data.indexOf(10, start)) >= 0) {
            const end = newline > start && data[newline - 1] === 13 ? newline - 1 : newline;
            const lineStart = start;
            start = newline + 1;
            if (end <= lineStart) continue;
            stallTimeout.refresh(); // sets a flag; one periodic check (stall-timer.ts)
            received++;
            try {
              this.handleEvent(JSON.parse(data.toString('utf8', lineStart, end)) as WatchEvent);
            } catch (err) {
              handle.abort();
              reject(err);
              return;
            }
          }
          if (start < data.length) carry = data.subarray(start);
        });
        res.on('end', () => resolve());
        res.on('aborted', () => reject(new WatchEndedError('watch aborted')));
        res.on('error', (err) => reject(err));
        res.on('close', () => (stalled || this.stopped ? reject(new WatchEndedError('watch closed')) : resolve()));
      });
    } finally {
      stallTimeout.cancel();
      this.abortCurrent = undefined;
      this.setConnected(false);
      this.options.logger?.debug({ kind: this.kind.kind, received, resourceVersion: this.resourceVersion }, 'watch ended');
    }
    return received > 0 || Date.now() - opened > 1000;
  }

  private handleEvent(event: WatchEvent): void {
    this.eventsReceived++;
    this.receivedSinceConnect = true;
    if (event.type === 'ERROR') {
      const status = event.object as { code?: number; reason?: string; message?: string };
      throw new ApiError(status.code ?? 500, status as never, `watch ${this.kind.kind}`);
    }
    const rv = event.object.metadata?.resourceVersion;
    if (wentBackInTime(rv, this.resourceVersion)) throw new ServerWentBackError(rv!, this.resourceVersion, `a ${event.type} event is older than the last one seen`);
    if (event.type !== 'BOOKMARK') {
      const obj = this.prepare(event.object as unknown as T);
      const key = objectKey(obj);
      if (event.type === 'DELETED') {
        const old = this.store.remove(key);
        for (const h of this.handlers) h.onDelete?.(old ?? obj);
      } else {
        const old = this.store.upsert(key, obj);
        if (old === undefined) for (const h of this.handlers) h.onAdd?.(obj, false);
        else for (const h of this.handlers) h.onUpdate?.(old, obj);
      }
    }
    if (rv) this.resourceVersion = rv;
    this.activity();
  }

  private prepare(obj: T): T {
    // Missing or equal type meta is set to the kind's own strings, so cached objects share one copy
    // (metadata-only watches say PartialObjectMetadata: they get the kind they describe).
    const described = this.metadataOnly;
    if (described || !obj.apiVersion || obj.apiVersion === this.apiVersion) obj.apiVersion = this.apiVersion;
    if (described || !obj.kind || obj.kind === this.kind.kind) obj.kind = this.kind.kind;
    return (this.options.transform ? this.options.transform(obj) : obj) as T;
  }

  /** Waits before the next try after `err` (warned once per failure state, with this delay; none: not warned). */
  private async backoff(err?: unknown): Promise<void> {
    if (this.stopped) return;
    const initial = this.options.backoffInitialMs ?? 200;
    const max = this.options.backoffMaxMs ?? 30_000;
    const base = Math.min(initial * 2 ** Math.max(0, this.failures - 1), max);
    const delay = base * (0.75 + Math.random() * 0.5);
    if (err !== undefined) this.failureLog.failed(err, delay);
    await new Promise<void>((resolve) => {
      this.wakeSleep = resolve;
      this.sleepTimer = setTimeout(resolve, delay);
    });
    this.wakeSleep = undefined;
    this.sleepTimer = undefined;
  }

  private now(): number {
    return this.options.stallClock?.now() ?? Date.now();
  }

  private setConnected(connected: boolean): void {
    if (this.connected && !connected) this.disconnectedSince = this.now();
    if (connected && !this.connected) {
      this.failureLog.recovered();
      this.stalled = false; // the re-watch is open
      this.connectedAt = Date.now();
      this.receivedSinceConnect = false;
    }
    this.connected = connected;
    this.activity();
  }

  private activity(): void {
    this.options.onActivity?.();
  }
}
