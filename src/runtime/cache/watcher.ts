/**
 * The watcher: one kind's list+watch as an explicit state machine (kube-rs' watcher, client-go's reflector
 * rules), pulled as an async iterable of WatchEvents (watch-event.ts). Its state, a plain object you can
 * print (`JSON.stringify(w.state)`), is one of:
 * - `listing`   — list pages (`limit`/`continue`) from `from`: "0" at start (a 1.32 server answers it whole
 *                 from its watch cache), the last seen version after a 410 Gone, "" (the latest, paginated)
 *                 when that is refused as expired or too new or the server went back in time;
 * - `verifying` — after a lost connection, checking the server did not go back in time before resuming
 *                 (server-timeline.ts: a restart that lost its storage, a replaced cluster);
 * - `watching`  — a watch from `resourceVersion` with bookmarks; re-opened from the last seen version when
 *                 the server ends it, relisting on 410 Gone;
 * - `stopped`.
 * A failure yields an Error event and the same state is tried again on the next pull — at once: wrap the
 * watcher in withBackoff (backoff.ts) to wait, and in withStallDetection (stall-detection.ts) to drop a
 * watch that went silent. Backing off is the wrapper's state, not the watcher's.
 *
 *   const w = watch(client, BuiltinKinds.ConfigMap, { namespace: 'default', pageSize: 100 });
 *   for await (const e of withBackoff(w, { clock })) {
 *     if (e.type === 'Apply') console.log(JSON.stringify(w.state), e.object.metadata?.name);
 *   }
 *   // elsewhere: w.stop() ends the loop
 */
import type { Logger } from 'pino';
import { ApiError, isGone } from '../client/api-error.js';
import type { Client } from '../client/client.js';
import type { KindInfo } from '../client/kinds.js';
import { type KubeObject } from '../client/object.js';
import { resourcePath, selectorString } from '../client/paths.js';
import { acceptFor } from '../client/partial-metadata.js';
import type { Transport } from '../client/transport.js';
import { realClock, type Clock } from '../clock.js';
import { clusterIdentity, currentResourceVersion, ServerWentBackError, wentBackInTime } from './server-timeline.js';
import { WatchClosedEarlyError, WatchEndedError, type WatchEvent, type WatchEvents } from './watch-event.js';
import { WatchLines } from './watch-lines.js';

export type WatcherState =
  | { phase: 'listing'; from: string; continue?: string; listed: number; cause?: string }
  | { phase: 'verifying'; resourceVersion: string }
  | { phase: 'watching'; resourceVersion: string; open: boolean }
  | { phase: 'stopped'; resourceVersion: string };

export interface WatchOptions {
  /** Opens the watch streams; default the client's own. */
  transport?: Transport;
  namespace?: string;
  labelSelector?: string | Record<string, string>;
  fieldSelector?: string;
  /** Page size of lists from "" (default 500). */
  pageSize?: number;
  /** Server-side watch timeout; default random 300–600 s so reconnects spread out. */
  watchTimeoutSeconds?: number;
  /**
   * Also compare the cluster's identity (the kube-system namespace's uid) before re-watching, to notice a
   * replaced cluster whose resourceVersions already passed ours; needs `get` on namespaces (default false).
   */
  checkClusterIdentity?: boolean;
  /** Applied to every object before it is yielded (strip managedFields, freeze). */
  transform?: (obj: KubeObject) => KubeObject;
  /** Told every state change (not every event). */
  onStateChange?: (state: WatcherState) => void;
  /** Measures whether a watch ended "at once" (within a second); default the real clock. */
  clock?: Clock;
  logger?: Logger;
}

type RawEvent = { type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR'; object: KubeObject };

/** The 504 a server answers for a resourceVersion it has not reached (cause ResourceVersionTooLarge). */
function isTooLargeResourceVersion(err: unknown): boolean {
  if (!(err instanceof ApiError) || err.code !== 504) return false;
  const causes = (err.status as { details?: { causes?: Array<{ reason?: string }> } }).details?.causes ?? [];
  return causes.some((c) => c.reason === 'ResourceVersionTooLarge');
}

/** A watcher of one kind; iterate it once. */
export function watch<T extends KubeObject>(client: Client, kind: KindInfo<T>, options: WatchOptions = {}): Watcher<T> {
  return new Watcher<T>(client, kind, options);
}

export class Watcher<T extends KubeObject = KubeObject> implements WatchEvents<T> {
  private current: WatcherState = { phase: 'listing', from: '0', listed: 0 };
  private stopped = false;
  private lines: WatchLines | undefined;
  private abortWatch: (() => void) | undefined;
  /** The 410 or ServerWentBackError that made the pending list a relist (reported on its Init event). */
  private relistCause: Error | undefined;
  /** The server paginated a list for us once: keep asking for pages on relists from a resourceVersion. */
  private serverPaginates = false;
  /** The cluster identity seen at the last list (checkClusterIdentity only). */
  private identity: string | undefined;
  private earlyEnds = 0;
  /** The resourceVersion of the last state that had one (what a relist started from). */
  private lastSeen = '';
  private readonly transport: Transport;
  private readonly apiVersion: string;
  private readonly clock: Clock;

  constructor(
    private readonly client: Client,
    readonly kind: KindInfo<T>,
    private readonly options: WatchOptions = {},
  ) {
    this.transport = options.transport ?? client.transport;
    this.apiVersion = kind.group ? `${kind.group}/${kind.version}` : kind.version;
    this.clock = options.clock ?? realClock;
  }

  get state(): WatcherState {
    return this.current;
  }

  /** The last resourceVersion listed or watched ("" before the first list). */
  get resourceVersion(): string {
    const s = this.current;
    return s.phase === 'listing' ? this.lastSeen : s.resourceVersion;
  }

  restartWatch(reason: Error): void {
    this.lines?.fail(reason);
    this.abortWatch?.();
  }

  /** Ends the iteration (a list in flight is awaited first). */
  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.restartWatch(new WatchEndedError('watcher stopped'));
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<WatchEvent<T>, void, undefined> {
    while (!this.stopped) {
      const state = this.current;
      try {
        if (state.phase === 'listing') yield* this.list(state.from);
        else if (state.phase === 'verifying') await this.verify(state.resourceVersion);
        else if (state.phase === 'watching') yield* this.watchOnce(state.resourceVersion);
        else break;
      } catch (err) {
        if (this.stopped) break;
        const error = err instanceof Error ? err : new Error(String(err));
        const rv = this.resourceVersion;
        if (error instanceof ServerWentBackError) {
          this.relist('', error);
          continue;
        }
        if (isGone(error) && state.phase === 'watching') {
          // As client-go's reflector: list "not older than" the last seen version first; only if that is
          // refused too does the next list ask for the latest.
          this.relist(rv || '0', error);
          continue;
        }
        const now = this.current;
        // A list that failed starts over (from the version it was listing from).
        if (now.phase === 'listing') this.setState({ phase: 'listing', from: now.from, listed: 0 });
        // The connection itself failed (refused, reset, TLS): the server may have been replaced. (One that
        // answers with a status is the same server; a watch the server ended or that stalled is re-opened, and
        // a server that restarted in between is caught by the re-watch's first bookmark, older than ours.)
        else if (now.phase === 'watching' && !(error instanceof ApiError) && !(error instanceof WatchEndedError) && !(error instanceof WatchClosedEarlyError)) this.setState({ phase: 'verifying', resourceVersion: rv });
        yield { type: 'Error', error };
      }
    }
    this.setState({ phase: 'stopped', resourceVersion: this.resourceVersion });
  }

  private relist(from: string, cause: Error): void {
    this.relistCause = cause;
    this.setState({ phase: 'listing', from, listed: 0, cause: cause.message });
  }

  private setState(state: WatcherState): void {
    if (this.current.phase !== 'listing') this.lastSeen = this.current.resourceVersion;
    this.current = state;
    this.options.onStateChange?.(state);
  }

  /** Lists every page from `from` (retried at once from the latest when `from` is refused), then watches. */
  private async *list(from: string): AsyncGenerator<WatchEvent<T>, void, undefined> {
    const cause = this.relistCause;
    this.relistCause = undefined;
    for (;;) {
      yield { type: 'Init', cause };
      try {
        yield* this.listPages(from);
        return;
      } catch (err) {
        if (from === '' || !(isGone(err) || isTooLargeResourceVersion(err))) throw err;
        this.options.logger?.debug({ kind: this.kind.kind, resourceVersion: from, err: String(err) }, 'list refused its resourceVersion, listing the latest');
        from = '';
        this.setState({ phase: 'listing', from, listed: 0 });
      }
    }
  }

  private async *listPages(from: string): AsyncGenerator<WatchEvent<T>, void, undefined> {
    // From a specific version a server lists from etcd; unless it paginated before, ask for everything at once
    // (client-go does the same, to spare etcd a herd of paginated lists).
    const unpaged = from !== '' && from !== '0' && !this.serverPaginates;
    const limit = unpaged ? undefined : this.options.pageSize ?? 500;
    const { namespace, labelSelector, fieldSelector } = this.options;
    const state: WatcherState & { phase: 'listing' } = { phase: 'listing', from, listed: 0 };
    this.setState(state);
    let token: string | undefined;
    let rv = '';
    do {
      const page = await this.client.listPage(this.kind, { namespace, labelSelector, fieldSelector, limit, resourceVersion: from }, token);
      if (this.stopped) return;
      for (const item of page.items) yield { type: 'InitApply', object: this.prepare(item) };
      token = page.continue;
      if (token) this.serverPaginates = true;
      rv = page.resourceVersion;
      state.continue = token;
      state.listed += page.items.length;
    } while (token && !this.stopped);
    if (this.stopped) return;
    if (this.options.checkClusterIdentity) this.identity = await clusterIdentity(this.transport);
    this.earlyEnds = 0;
    this.options.logger?.debug({ kind: this.kind.kind, objects: state.listed, resourceVersion: rv }, 'informer listed');
    this.setState({ phase: 'watching', resourceVersion: rv, open: false });
    yield { type: 'InitDone', resourceVersion: rv };
  }

  /**
   * After a lost watch, before resuming from our resourceVersion: a server whose latest resourceVersion is
   * below it (or whose identity changed) is not the one we listed — resuming would show nothing below our
   * version and keep vanished objects forever.
   */
  private async verify(rv: string): Promise<void> {
    const { namespace, labelSelector, fieldSelector } = this.options;
    const latest = await currentResourceVersion(this.client, this.kind, { namespace, labelSelector, fieldSelector });
    if (wentBackInTime(latest, rv)) throw new ServerWentBackError(latest, rv, 'its latest resourceVersion is lower than the last one seen');
    if (this.options.checkClusterIdentity && this.identity !== undefined) {
      const identity = await clusterIdentity(this.transport);
      if (identity !== undefined && identity !== this.identity) throw new ServerWentBackError(latest, rv, `the cluster identity changed (kube-system uid ${this.identity} → ${identity})`);
    }
    this.setState({ phase: 'watching', resourceVersion: rv, open: false });
  }

  /** One watch stream; returns when the server ended it after it was useful, throws when it ended at once. */
  private async *watchOnce(from: string): AsyncGenerator<WatchEvent<T>, void, undefined> {
    const opened = this.clock.now();
    const timeoutSeconds = this.options.watchTimeoutSeconds ?? 300 + Math.floor(Math.random() * 300);
    const handle = await this.transport.stream(resourcePath(this.kind, this.options.namespace), {
      watch: 'true',
      resourceVersion: from,
      allowWatchBookmarks: 'true',
      timeoutSeconds,
      labelSelector: selectorString(this.options.labelSelector),
      fieldSelector: this.options.fieldSelector,
    }, acceptFor(this.kind, false));
    if (this.stopped) {
      handle.abort();
      return;
    }
    const lines = new WatchLines(handle.response, () => (this.stopped ? new WatchEndedError('watch closed') : undefined));
    this.lines = lines;
    this.abortWatch = () => handle.abort();
    // Mutated per event (the resourceVersion), never re-allocated while the watch runs.
    const state: WatcherState & { phase: 'watching' } = { phase: 'watching', resourceVersion: from, open: true };
    this.setState(state);
    this.options.logger?.debug({ kind: this.kind.kind, resourceVersion: from }, 'watch opened');
    let received = 0;
    let ended = false;
    try {
      yield { type: 'WatchOpened', resourceVersion: from };
      for (;;) {
        const line = lines.next();
        if (line === undefined) {
          if (await lines.more()) continue;
          break;
        }
        received++;
        const event = this.decode(JSON.parse(line) as RawEvent, state);
        if (this.stopped) return;
        yield event;
      }
      ended = true;
    } finally {
      this.lines = undefined;
      this.abortWatch = undefined;
      if (!ended) handle.abort();
      if (state === this.current) this.setState({ phase: 'watching', resourceVersion: state.resourceVersion, open: false });
      this.options.logger?.debug({ kind: this.kind.kind, received, resourceVersion: state.resourceVersion }, 'watch ended');
    }
    if (received > 0 || this.clock.now() - opened > 1000) this.earlyEnds = 0;
    else throw new WatchClosedEarlyError(++this.earlyEnds > 1);
  }

  private decode(raw: RawEvent, state: WatcherState & { phase: 'watching' }): WatchEvent<T> {
    if (raw.type === 'ERROR') {
      const status = raw.object as { code?: number; reason?: string; message?: string };
      throw new ApiError(status.code ?? 500, status as never, `watch ${this.kind.kind}`);
    }
    const rv = raw.object.metadata?.resourceVersion;
    if (wentBackInTime(rv, state.resourceVersion)) throw new ServerWentBackError(rv!, state.resourceVersion, `a ${raw.type} event is older than the last one seen`);
    if (rv) state.resourceVersion = rv;
    if (raw.type === 'BOOKMARK') return { type: 'Bookmark', resourceVersion: rv ?? state.resourceVersion };
    const object = this.prepare(raw.object as T);
    return raw.type === 'DELETED' ? { type: 'Delete', object, old: undefined } : { type: 'Apply', object, old: undefined };
  }

  private prepare(obj: T): T {
    // Missing or equal type meta is set to the kind's own strings, so cached objects share one copy
    // (metadata-only watches say PartialObjectMetadata: they get the kind they describe).
    const described = this.kind.metadataOnly === true;
    if (described || !obj.apiVersion || obj.apiVersion === this.apiVersion) obj.apiVersion = this.apiVersion;
    if (described || !obj.kind || obj.kind === this.kind.kind) obj.kind = this.kind.kind;
    return (this.options.transform ? this.options.transform(obj) : obj) as T;
  }
}
