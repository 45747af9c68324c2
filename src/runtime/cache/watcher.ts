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
 * Each pull past the buffered events runs one step (`step()`: fetch a page, open a watch, read the lines of a
 * socket chunk, verify the server). A failure yields an Error event and the same state is tried again on the
 * next pull — at once: wrap the watcher in withBackoff (backoff.ts) to wait, and in withStallDetection
 * (stall-detection.ts) to drop a watch that went silent. Backing off is the wrapper's state, not the
 * watcher's. The informer pulls `nextBatch()` (a step's events at once) rather than single events.
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
import { asError } from '../as-error.js';
import { clusterIdentity, currentResourceVersion, ServerWentBackError, wentBackInTime } from './server-timeline.js';
import { bookmarkEvent, errorEvent, initDoneEvent, initEvent, watchOpenedEvent, WatchClosedEarlyError, WatchEndedError, type WatchEvent, type WatchEvents } from './watch-event.js';
import { WatchLines } from './watch-lines.js';
import { hasDecodedShape, keepDecodedShape, keepShape } from '../keep-shape.js';

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

const NONE: ReadonlyArray<never> = [];
/** The longest watch event (JSON characters) whose objects may be kept for their shape (keepDecodedShape). */
const KEPT_SHAPE_MAX_CHARS = 16 * 1024;
const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

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
  /** The current list has yielded its Init. */
  private listStarted = false;
  private announced = false;
  /** A failure found after some events of a batch were decoded: thrown by the next step. */
  private pendingFailure: Error | undefined;
  private watchOpenedAt = 0;
  /** Lines received on the current watch. */
  private received = 0;
  /** The resourceVersion of the last state that had one (what a relist started from). */
  private lastSeen = '';
  private readonly transport: Transport;
  private readonly apiVersion: string;
  private readonly clock: Clock;
  /** This kind's key for keepDecodedShape, and whether objects of it are kept already. */
  private readonly shapeKind: string;
  private shapeKept: boolean;

  constructor(
    private readonly client: Client,
    readonly kind: KindInfo<T>,
    private readonly options: WatchOptions = {},
  ) {
    this.transport = options.transport ?? client.transport;
    this.apiVersion = kind.group ? `${kind.group}/${kind.version}` : kind.version;
    this.clock = options.clock ?? realClock;
    this.shapeKind = `${this.apiVersion}/${kind.kind}${kind.metadataOnly === true ? '#metadata' : ''}`;
    this.shapeKept = hasDecodedShape(this.shapeKind);
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

  /** Pulls events; each pull past the buffered ones runs one step of the state machine (step()). */
  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>, undefined> {
    let batch: ReadonlyArray<WatchEvent<T>> = NONE;
    let next = 0;
    return {
      next: async (): Promise<IteratorResult<WatchEvent<T>, undefined>> => {
        if (next >= batch.length) {
          const more = await this.nextBatch();
          if (more === undefined) return DONE;
          batch = more;
          next = 0;
        }
        return { value: batch[next++]!, done: false };
      },
      return: async (): Promise<IteratorReturnResult<undefined>> => {
        this.stop();
        this.finish();
        return DONE;
      },
    };
  }

  /**
   * The next events, at least one — all a step produced (a list page, the lines of a socket chunk) — or
   * undefined once stopped. The pipeline pulls these, not single events: one await per chunk, not per event.
   */
  async nextBatch(): Promise<ReadonlyArray<WatchEvent<T>> | undefined> {
    if (!this.announced) {
      this.announced = true;
      this.options.onStateChange?.(this.current); // the initial state
    }
    for (;;) {
      if (this.stopped) {
        this.finish();
        return undefined;
      }
      let batch = this.takeReady();
      if (batch === undefined) {
        const arrival = this.arrival();
        if (arrival !== undefined) {
          // The hot path — reading an open watch: one plain promise per socket chunk, its lines decoded at once.
          await arrival;
          continue;
        }
        batch = await this.safeStep();
      }
      if (batch.length > 0) return batch;
    }
  }

  /**
   * The events of lines the open watch already received, decoded now, without waiting; undefined when none
   * are ready or no watch is open (then nextBatch() steps on). May be empty: the watch ended.
   */
  takeReady(): ReadonlyArray<WatchEvent<T>> | undefined {
    const state = this.current;
    const lines = this.lines;
    if (this.stopped || state.phase !== 'watching' || !state.open || lines === undefined || this.pendingFailure !== undefined || !lines.ready()) return undefined;
    try {
      return this.readBuffered(state, lines);
    } catch (err) {
      return this.failed(err, 'watching');
    }
  }

  /** While a watch is open with nothing ready: resolves when lines arrive or it ends. Otherwise undefined. */
  arrival(): Promise<void> | undefined {
    const state = this.current;
    const lines = this.lines;
    if (this.stopped || state.phase !== 'watching' || !state.open || lines === undefined || this.pendingFailure !== undefined || lines.ready()) return undefined;
    return lines.arrival();
  }

  private finish(): void {
    if (this.lines) this.closeWatch(true);
    if (this.current.phase !== 'stopped') this.setState({ phase: 'stopped', resourceVersion: this.resourceVersion });
  }

  /** One step; a failure becomes the state it leads to and, unless it is a relist, an Error event. */
  private async safeStep(): Promise<ReadonlyArray<WatchEvent<T>>> {
    const phase = this.current.phase;
    try {
      return await this.step();
    } catch (err) {
      return this.failed(err, phase);
    }
  }

  /** The state a failure in `phase` leads to, and the events it yields (an Error, or none for a relist). */
  private failed(err: unknown, phase: WatcherState['phase']): ReadonlyArray<WatchEvent<T>> {
    if (this.lines) this.closeWatch(true);
    if (this.stopped) return NONE;
    const error = asError(err);
    const rv = this.resourceVersion;
    if (error instanceof ServerWentBackError) {
      this.relist('', error);
      return NONE;
    }
    if (isGone(error) && phase === 'watching') {
      // As client-go's reflector: list "not older than" the last seen version first; only if that is
      // refused too does the next list ask for the latest.
      this.relist(rv || '0', error);
      return NONE;
    }
    const now = this.current;
    // A list that failed starts over (from the version it was listing from).
    if (now.phase === 'listing') this.startList(now.from, now.cause);
    // The connection itself failed (refused, reset, TLS): the server may have been replaced. (One that
    // answers with a status is the same server; a watch the server ended or that stalled is re-opened, and
    // a server that restarted in between is caught by the re-watch's first bookmark, older than ours.)
    else if (now.phase === 'watching' && !(error instanceof ApiError) && !(error instanceof WatchEndedError) && !(error instanceof WatchClosedEarlyError)) this.setState({ phase: 'verifying', resourceVersion: rv });
    return [errorEvent(error)];
  }

  /** The state machine's step: what the current state does next, and the events it yields. */
  private async step(): Promise<ReadonlyArray<WatchEvent<T>>> {
    const failure = this.pendingFailure;
    if (failure !== undefined) {
      this.pendingFailure = undefined;
      throw failure;
    }
    const state = this.current;
    switch (state.phase) {
      case 'listing':
        return this.listStep(state);
      case 'verifying':
        await this.verify(state.resourceVersion);
        return NONE;
      case 'watching':
        return state.open ? this.readStep(state) : this.openStep(state.resourceVersion);
      case 'stopped':
        return NONE;
    }
  }

  private relist(from: string, cause: Error): void {
    this.relistCause = cause;
    this.startList(from, cause.message);
  }

  private startList(from: string, cause: string | undefined): void {
    this.listStarted = false;
    this.setState(cause === undefined ? { phase: 'listing', from, listed: 0 } : { phase: 'listing', from, listed: 0, cause });
  }

  private setState(state: WatcherState): void {
    if (this.current.phase !== 'listing') this.lastSeen = this.current.resourceVersion;
    this.current = state;
    this.options.onStateChange?.(state);
  }

  /**
   * One step of a list: first `Init`, then one page per step (`InitApply` each), and after the last page
   * `InitDone` and the switch to watching. A list from a version the server refuses (expired, too new) starts
   * over at once from the latest ("", paginated).
   */
  private async listStep(state: WatcherState & { phase: 'listing' }): Promise<ReadonlyArray<WatchEvent<T>>> {
    if (!this.listStarted) {
      this.listStarted = true;
      const cause = this.relistCause;
      this.relistCause = undefined;
      return [initEvent(cause)];
    }
    const { from } = state;
    // From a specific version a server lists from etcd; unless it paginated before, ask for everything at once
    // (client-go does the same, to spare etcd a herd of paginated lists).
    const unpaged = from !== '' && from !== '0' && !this.serverPaginates;
    const limit = unpaged ? undefined : this.options.pageSize ?? 500;
    const { namespace, labelSelector, fieldSelector } = this.options;
    let page: { items: T[]; resourceVersion: string; continue?: string };
    try {
      page = await this.client.listPage(this.kind, { namespace, labelSelector, fieldSelector, limit, resourceVersion: from }, state.continue);
    } catch (err) {
      if (from === '' || !(isGone(err) || isTooLargeResourceVersion(err))) throw err;
      this.options.logger?.debug({ kind: this.kind.kind, resourceVersion: from, err: String(err) }, 'list refused its resourceVersion, listing the latest');
      this.startList('', state.cause);
      return NONE;
    }
    if (this.stopped) return NONE;
    const events: Array<WatchEvent<T>> = new Array(page.items.length);
    for (let i = 0; i < page.items.length; i++) events[i] = { type: 'InitApply', object: this.prepare(page.items[i]!) };
    state.listed += page.items.length;
    state.continue = page.continue;
    if (page.continue) {
      this.serverPaginates = true;
      return events;
    }
    const rv = page.resourceVersion;
    if (this.options.checkClusterIdentity) this.identity = await clusterIdentity(this.transport);
    this.earlyEnds = 0;
    this.options.logger?.debug({ kind: this.kind.kind, objects: state.listed, resourceVersion: rv }, 'informer listed');
    this.setState({ phase: 'watching', resourceVersion: rv, open: false });
    events.push(initDoneEvent(rv));
    return events;
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

  /** Opens a watch from `from`. */
  private async openStep(from: string): Promise<ReadonlyArray<WatchEvent<T>>> {
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
      return NONE;
    }
    this.lines = new WatchLines(handle.response, () => (this.stopped ? new WatchEndedError('watch closed') : undefined));
    this.abortWatch = () => handle.abort();
    this.watchOpenedAt = opened;
    this.received = 0;
    // Mutated per event (its resourceVersion), never re-allocated while the watch runs.
    this.setState({ phase: 'watching', resourceVersion: from, open: true });
    this.options.logger?.debug({ kind: this.kind.kind, resourceVersion: from }, 'watch opened');
    return [watchOpenedEvent(from)];
  }

  /** Waits for lines of the open watch, then reads them (readBuffered). */
  private async readStep(state: WatcherState & { phase: 'watching' }): Promise<ReadonlyArray<WatchEvent<T>>> {
    const lines = this.lines!;
    await lines.arrival();
    return this.readBuffered(state, lines);
  }

  /**
   * The events of the lines received so far; when the server ended the watch, none, and the next step
   * re-opens it — unless it ended at once, which is a failure (WatchClosedEarlyError).
   */
  private readBuffered(state: WatcherState & { phase: 'watching' }, lines: WatchLines): ReadonlyArray<WatchEvent<T>> {
    let line = lines.next();
    if (line === undefined) {
      const ended = lines.endState();
      if (ended === undefined) return NONE;
      if (ended !== null) throw ended;
      this.closeWatch(false);
      if (this.received > 0 || this.clock.now() - this.watchOpenedAt > 1000) {
        this.earlyEnds = 0;
        return NONE;
      }
      throw new WatchClosedEarlyError(++this.earlyEnds > 1);
    }
    const events: Array<WatchEvent<T>> = [];
    for (; line !== undefined; line = lines.next()) {
      this.received++;
      try {
        const raw = JSON.parse(line) as RawEvent;
        // The metadata as parsed, before prepare() replaces it: kept with the first small object (keep-shape.ts).
        const parsedMetadata = this.shapeKept || line.length > KEPT_SHAPE_MAX_CHARS ? undefined : raw.object?.metadata;
        const event = this.decode(raw, state);
        if (parsedMetadata !== undefined && (event.type === 'Apply' || event.type === 'Delete')) {
          keepDecodedShape(this.shapeKind, [event.object, parsedMetadata]);
          this.shapeKept = true;
        }
        events.push(event);
      } catch (err) {
        // What came before the bad line is delivered; the failure is the next step's.
        if (events.length === 0) throw err;
        this.pendingFailure = asError(err);
        this.closeWatch(true);
        break;
      }
    }
    return events;
  }

  private closeWatch(abort: boolean): void {
    const abortWatch = this.abortWatch;
    this.lines = undefined;
    this.abortWatch = undefined;
    if (abort) abortWatch?.();
    const state = this.current;
    if (state.phase === 'watching' && state.open) {
      this.options.logger?.debug({ kind: this.kind.kind, received: this.received, resourceVersion: state.resourceVersion }, 'watch ended');
      this.setState({ phase: 'watching', resourceVersion: state.resourceVersion, open: false });
    }
  }

  private decode(raw: RawEvent, state: WatcherState & { phase: 'watching' }): WatchEvent<T> {
    if (raw.type === 'ERROR') {
      const status = raw.object as { code?: number; reason?: string; message?: string };
      throw new ApiError(status.code ?? 500, status as never, `watch ${this.kind.kind}`);
    }
    const rv = raw.object.metadata?.resourceVersion;
    if (wentBackInTime(rv, state.resourceVersion)) throw new ServerWentBackError(rv!, state.resourceVersion, `a ${raw.type} event is older than the last one seen`);
    if (rv) state.resourceVersion = rv;
    if (raw.type === 'BOOKMARK') return bookmarkEvent(rv ?? state.resourceVersion);
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

// One watcher lives on between informers, so the event path's compiled code stays valid (keep-shape.ts).
keepShape(new Watcher(undefined as never, { group: '', version: 'v1', kind: '', plural: '' } as KindInfo, { transport: {} as Transport }));
