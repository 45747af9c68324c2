/**
 * An informer that never goes quiet: a paginated list, then a watch from the list's resourceVersion with
 * bookmarks; a relist on 410 Gone; a re-watch after the server ends the stream; a reconnect with
 * exponential backoff and jitter after any error; and stall detection (no event or bookmark for too long
 * → the watch is dropped and re-opened, counted in a metric). Handlers see adds, updates and deletes in order.
 */
import type { Logger } from 'pino';
import { isGone, ApiError } from '../client/api-error.js';
import type { Client } from '../client/client.js';
import type { KindInfo } from '../client/kinds.js';
import { objectKey, type KubeObject } from '../client/object.js';
import { resourcePath, selectorString } from '../client/paths.js';
import type { Transport } from '../client/transport.js';
import { ObjectStore } from './object-store.js';

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
  /** No event or bookmark for this long (real ms) → re-watch. Default 90 s (the server bookmarks every minute). */
  stallTimeoutMs?: number;
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

class WatchEndedError extends Error {}

export class Informer<T extends KubeObject = KubeObject> {
  readonly store = new ObjectStore<T>();
  private readonly handlers: InformerHandler<T>[] = [];
  private resourceVersion = '';
  private synced = false;
  private syncWaiters: Array<() => void> = [];
  private running = false;
  private stopped = false;
  private connected = false;
  private listing = false;
  private abortCurrent: (() => void) | undefined;
  private sleepTimer: NodeJS.Timeout | undefined;
  private wakeSleep: (() => void) | undefined;
  private failures = 0;
  private disconnectedSince = Date.now();
  private connectedAt = 0;
  private receivedSinceConnect = false;
  private loop: Promise<void> | undefined;
  /** Events received since start (bookmarks included). */
  eventsReceived = 0;

  private readonly apiVersion: string;

  constructor(private readonly options: InformerOptions) {
    this.apiVersion = options.kind.group ? `${options.kind.group}/${options.kind.version}` : options.kind.version;
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

  /** Synced, and its watch is up or was lost less than `graceMs` ago. */
  healthy(graceMs = 60_000): boolean {
    return this.synced && (this.connected || Date.now() - this.disconnectedSince < graceMs);
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
        if (!this.resourceVersion) await this.relist();
        const lasted = await this.watchOnce();
        this.failures = lasted ? 0 : this.failures + 1;
        if (this.failures > 0) await this.backoff();
      } catch (err) {
        this.setConnected(false);
        if (this.stopped) break;
        if (isGone(err)) {
          this.options.logger?.debug({ kind: this.kind.kind }, 'watch expired (410), relisting');
          this.resourceVersion = '';
          this.options.metrics?.relisted?.(this.kind.kind);
          continue;
        }
        this.failures++;
        const reason = err instanceof ApiError ? String(err.code) : err instanceof WatchEndedError ? 'stall' : 'error';
        this.options.metrics?.watchRestarted?.(this.kind.kind, reason);
        this.options.logger?.debug({ kind: this.kind.kind, err: String(err) }, 'informer error, reconnecting with backoff');
        await this.backoff();
      }
    }
    this.setConnected(false);
  }

  /** Lists every page, then replaces the store, telling handlers about the differences. */
  private async relist(): Promise<void> {
    this.listing = true;
    this.activity();
    try {
      const fresh = new Map<string, T>();
      let token: string | undefined;
      let rv = '';
      do {
        const page = await this.options.client.listPage(this.kind, { namespace: this.options.namespace, labelSelector: this.options.labelSelector, fieldSelector: this.options.fieldSelector, limit: this.options.pageSize ?? 500 }, token);
        for (const item of page.items) fresh.set(objectKey(item), this.prepare(item as T));
        token = page.continue;
        rv = page.resourceVersion;
      } while (token);
      if (this.stopped) return;
      this.replace(fresh);
      this.resourceVersion = rv;
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
    });
    if (this.stopped) {
      handle.abort();
      return true;
    }
    this.options.logger?.debug({ kind: this.kind.kind, resourceVersion: this.resourceVersion }, 'watch opened');
    this.setConnected(true);
    let received = 0;
    let stalled = false;
    const stallMs = this.options.stallTimeoutMs ?? 90_000;
    const stallTimer = setTimeout(onStall, stallMs);
    const self = this;
    function onStall(): void {
      stalled = true;
      self.options.metrics?.stalled?.(self.kind.kind);
      self.options.logger?.warn({ kind: self.kind.kind, stallMs }, 'watch stalled: no event or bookmark, re-watching');
      handle.abort();
    }
    this.abortCurrent = () => handle.abort();
    try {
      await new Promise<void>((resolve, reject) => {
        let buffered = '';
        const res = handle.response;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffered = buffered ? buffered + chunk : chunk;
          let start = 0;
          let newline: number;
          while ((newline = buffered.indexOf('\n', start)) >= 0) {
            const line = buffered.slice(start, newline).trim();
            start = newline + 1;
            if (!line) continue;
            stallTimer.refresh(); // re-arms the same timer: no Timeout allocated per event
            received++;
            try {
              this.handleEvent(JSON.parse(line) as WatchEvent);
            } catch (err) {
              handle.abort();
              reject(err);
              return;
            }
          }
          buffered = start === 0 ? buffered : buffered.slice(start);
        });
        res.on('end', () => resolve());
        res.on('aborted', () => reject(new WatchEndedError('watch aborted')));
        res.on('error', (err) => reject(err));
        res.on('close', () => (stalled || this.stopped ? reject(new WatchEndedError('watch closed')) : resolve()));
      });
    } finally {
      clearTimeout(stallTimer);
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
    // Missing or equal type meta is set to the kind's own strings, so cached objects share one copy.
    if (!obj.apiVersion || obj.apiVersion === this.apiVersion) obj.apiVersion = this.apiVersion;
    if (!obj.kind || obj.kind === this.kind.kind) obj.kind = this.kind.kind;
    return (this.options.transform ? this.options.transform(obj) : obj) as T;
  }

  private async backoff(): Promise<void> {
    if (this.stopped) return;
    const initial = this.options.backoffInitialMs ?? 200;
    const max = this.options.backoffMaxMs ?? 30_000;
    const base = Math.min(initial * 2 ** Math.max(0, this.failures - 1), max);
    const delay = base * (0.75 + Math.random() * 0.5);
    await new Promise<void>((resolve) => {
      this.wakeSleep = resolve;
      this.sleepTimer = setTimeout(resolve, delay);
    });
    this.wakeSleep = undefined;
    this.sleepTimer = undefined;
  }

  private setConnected(connected: boolean): void {
    if (this.connected && !connected) this.disconnectedSince = Date.now();
    if (connected && !this.connected) {
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
