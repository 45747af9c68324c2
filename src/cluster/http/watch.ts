/**
 * Watch streams: one compact JSON event per line, replay from a resourceVersion (or synthetic ADDED
 * events for the current state), objects entering and leaving the selectors, bookmarks for clients
 * that ask, 410 Expired as an ERROR event, server-side close (embedded-apiserver.md §4), and cutting
 * off watchers that stop reading once their buffered output passes a bound (the watch cache's
 * "forcing watcher close due to unresponsiveness").
 */
import type { ServerResponse } from 'node:http';
import { ApiError } from '../errors/status-errors.js';
import type { ObjectOperations } from '../registry/object-operations.js';
import { type ResourceType, groupVersion } from '../registry/resource-type.js';
import { type LabelSelector, matchesLabels } from '../selectors/label-selector.js';
import { type FieldSelector, matchesFields } from '../selectors/field-selector.js';
import type { KubeObject, ObjectStore, StoreEvent } from '../store/object-store.js';
import { partialObjectMetadata, tableRow } from './table.js';
import type { ResponseShape } from './negotiation.js';
import { type FreshnessWaiter, requestedResourceVersion } from '../store/freshness.js';

export interface WatchRequest {
  rt: ResourceType;
  namespace?: string;
  labelSelector: LabelSelector;
  fieldSelector: FieldSelector;
  /** Undefined or '' or '0' = start with the current state. */
  resourceVersion?: string;
  bookmarks: boolean;
  /** WatchList: ADDED for the current state, then a BOOKMARK marked `k8s.io/initial-events-end`. */
  sendInitialEvents?: boolean;
  /** Real seconds until the server closes the stream. */
  timeoutSeconds: number;
  shape: ResponseShape;
  tableVersion?: string;
  /**
   * Converts a stored object to the watched version through a conversion webhook: events are then
   * written in order as their conversions finish, and a failed conversion ends the stream with an ERROR event.
   */
  convert?: (stored: KubeObject) => Promise<KubeObject>;
}

interface OpenWatch {
  rt: ResourceType;
  close(): void;
}

/** Every open watch stream of the server, so stop() and CRD deletion can end them. */
export class WatchHub {
  private readonly open = new Set<OpenWatch>();
  /** Serialized events per resource type, shared by every plain-JSON watcher of that type. */
  private readonly serialized = new Map<ResourceType, WeakMap<KubeObject, string>>();
  /** Real milliseconds between bookmarks (tests may shorten it). */
  bookmarkIntervalMs = 60_000;
  /**
   * Bytes a watcher may leave unread (in the response and socket buffers) before the server ends its
   * stream, so a client that stops reading cannot grow the server's memory without bound.
   */
  maxBufferedBytes = 8 * 1024 * 1024;
  /** Watchers ended for not reading, since start (observable in tests and the request log). */
  slowWatchersClosed = 0;
  /** Waits of WatchList requests (sendInitialEvents) for a resourceVersion the store has not reached. */
  freshness: FreshnessWaiter | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly operations: ObjectOperations,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.open.size;
  }

  closeAll(): void {
    for (const w of [...this.open]) w.close();
  }

  /** Ends the watches of one resource (its CRD was deleted or stopped serving). */
  closeWhere(pred: (rt: ResourceType) => boolean): void {
    for (const w of [...this.open]) if (pred(w.rt)) w.close();
  }

  /** One JSON line per (type, stored object), computed once however many watchers receive it. */
  private plainEvent(rt: ResourceType, type: string, stored: KubeObject): string {
    let cache = this.serialized.get(rt);
    if (!cache) this.serialized.set(rt, (cache = new WeakMap()));
    let body = cache.get(stored);
    if (body === undefined) {
      body = JSON.stringify(this.operations.presentShared(rt, stored));
      if (Object.isFrozen(stored)) cache.set(stored, body);
    }
    return `{"type":"${type}","object":${body}}\n`;
  }

  start(req: WatchRequest, res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    // A WatchList request waits (like a list) for the store to reach its resourceVersion; a plain watch
    // from a future resourceVersion starts at once and delivers the events after it (the 1.32 watch cache).
    let wanted: number | undefined;
    try {
      wanted = req.sendInitialEvents ? requestedResourceVersion(req.resourceVersion) : undefined;
    } catch (err) {
      this.failStream(res, err);
      return;
    }
    if (wanted === undefined || !this.freshness || this.store.resourceVersion >= wanted) {
      this.begin(req, res);
      return;
    }
    this.freshness.waitUntilFresh(wanted).then(
      () => {
        if (!res.destroyed && !res.writableEnded) this.begin(req, res);
      },
      (err: unknown) => this.failStream(res, err),
    );
  }

  /** Ends a stream with one ERROR event carrying the Status (the server's way once the stream is 200). */
  private failStream(res: ServerResponse, err: unknown): void {
    const status = err instanceof ApiError ? err.status : new ApiError(500, 'InternalError', String(err)).status;
    if (!res.writableEnded) {
      res.write(`${JSON.stringify({ type: 'ERROR', object: status })}\n`);
      res.end();
    }
  }

  private begin(req: WatchRequest, res: ServerResponse): void {
    const { rt } = req;
    let first = true;
    const matches = (o: KubeObject | undefined): boolean =>
      o !== undefined &&
      (req.namespace === undefined || o.metadata.namespace === req.namespace) &&
      matchesLabels(req.labelSelector, o.metadata.labels) &&
      matchesFields(rt, req.fieldSelector, o);
    const render = (type: string, stored: KubeObject, converted?: KubeObject): string => {
      if (req.shape === 'object' && !converted) return this.plainEvent(rt, type, stored);
      const object = converted ?? this.operations.present(rt, stored);
      let payload: unknown = object;
      if (req.shape === 'table') {
        const table: Record<string, unknown> = { kind: 'Table', apiVersion: `meta.k8s.io/${req.tableVersion ?? 'v1'}`, metadata: { resourceVersion: object.metadata.resourceVersion } };
        if (first) table.columnDefinitions = rt.table.columns;
        table.rows = [tableRow(rt, object, stored, this.now(), 'Metadata')];
        payload = table;
      } else if (req.shape === 'metadata') payload = partialObjectMetadata(object);
      first = false;
      return `${JSON.stringify({ type, object: payload })}\n`;
    };
    // set once the initial events are written: only live events count against maxBufferedBytes
    let watch: OpenWatch | undefined;
    const write = (line: string): void => {
      if (res.writableEnded) return;
      res.write(line);
      if (res.writableLength > this.maxBufferedBytes && watch) {
        this.slowWatchersClosed++;
        watch.close();
      }
    };
    // with a conversion webhook every line waits for the conversions of the events before it
    let pending: Promise<void> = Promise.resolve();
    const queue = (line: () => Promise<string>): void => {
      pending = pending
        .then(async () => {
          if (!res.writableEnded) write(await line());
        })
        .catch((err: unknown) => {
          this.failStream(res, err);
          watch?.close();
        });
    };
    const send = (line: string): void => (req.convert ? queue(async () => line) : write(line));
    const emit = (type: string, stored: KubeObject): void => {
      const convert = req.convert;
      if (!convert) write(render(type, stored));
      else queue(async () => render(type, stored, await convert(stored)));
    };
    // events at or before the requested resourceVersion are not sent (it may be ahead of the store)
    let after = 0;
    const translate = (e: StoreEvent): void => {
      if (e.bucket !== rt.bucket || e.rv <= after) return;
      const now = matches(e.object) && e.type !== 'DELETED';
      const before = matches(e.oldObject);
      if (e.type === 'ADDED' && now) emit('ADDED', e.object);
      else if (e.type === 'MODIFIED') {
        if (now && before) emit('MODIFIED', e.object);
        else if (now) emit('ADDED', e.object);
        else if (before) emit('DELETED', { ...e.oldObject!, metadata: { ...e.oldObject!.metadata, resourceVersion: String(e.rv) } });
      } else if (e.type === 'DELETED' && before) emit('DELETED', e.object);
    };

    const rv = req.resourceVersion;
    let unsubscribe = (): void => {};
    try {
      if (req.sendInitialEvents || rv === undefined || rv === '' || rv === '0') {
        const ns = rt.namespaced ? req.namespace : undefined;
        for (const o of this.store.listShared(rt.bucket, ns)) if (matches(o)) emit('ADDED', o);
        if (req.sendInitialEvents) {
          const end = { kind: rt.kind, apiVersion: groupVersion(rt), metadata: { resourceVersion: String(this.store.resourceVersion), annotations: { 'k8s.io/initial-events-end': 'true' } } };
          send(`${JSON.stringify({ type: 'BOOKMARK', object: end })}\n`);
        }
      } else {
        const since = Number(rv);
        if (!Number.isInteger(since)) throw new ApiError(400, 'BadRequest', `invalid resource version: ${rv}`);
        for (const e of this.store.eventsSince(since)) translate(e);
        after = since;
      }
      unsubscribe = this.store.onCommit(translate);
    } catch (err) {
      this.failStream(res, err);
      return;
    }

    const bookmark = (): void => {
      send(`${JSON.stringify({ type: 'BOOKMARK', object: { kind: rt.kind, apiVersion: groupVersion(rt), metadata: { resourceVersion: String(this.store.resourceVersion) } } })}\n`);
    };
    const timers: NodeJS.Timeout[] = [];
    const opened: OpenWatch = {
      rt,
      close: () => {
        if (!this.open.delete(opened)) return;
        unsubscribe();
        for (const t of timers) clearTimeout(t);
        if (!res.writableEnded) res.end();
      },
    };
    watch = opened;
    this.open.add(opened);
    if (req.bookmarks) {
      const interval = setInterval(bookmark, this.bookmarkIntervalMs);
      timers.push(interval as unknown as NodeJS.Timeout);
      if (req.timeoutSeconds > 2) timers.push(setTimeout(bookmark, (req.timeoutSeconds - 1) * 1000));
    }
    timers.push(setTimeout(() => opened.close(), req.timeoutSeconds * 1000));
    res.on('close', () => opened.close());
  }
}
