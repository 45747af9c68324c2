/**
 * An informer that never goes quiet, composed of parts each usable alone:
 *
 *   watch (watcher.ts: list pages, watch with bookmarks, relist on 410 Gone or a server gone back in time)
 *     → withStallDetection (stall-detection.ts: a silent watch is dropped and re-opened)
 *     → withBackoff (backoff.ts: exponential backoff with jitter between failed tries)
 *     → reflect (reflect.ts: the ObjectStore kept equal to what the watcher saw)
 *     → dispatch (here: handlers told adds, updates and deletes, in order).
 *
 * Health, readiness, metrics, logs and the manager's activity count for settle() are InformerObservers
 * (informer-observer.ts) told state changes, sync, failures, stalls, relists and events.
 *
 *   const informer = new Informer<ConfigMap>({ kind: BuiltinKinds.ConfigMap, client, transport, namespace: 'default' });
 *   informer.addHandler({ onAdd: (cm) => console.log('added', cm.metadata?.name) });
 *   informer.start();
 *   await informer.waitForSync();
 */
import type { Logger } from 'pino';
import type { Client } from '../client/client.js';
import type { KindInfo } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import type { Transport } from '../client/transport.js';
import { after, realClock, type Clock, type Timer } from '../clock.js';
import { withBackoff } from './backoff.js';
import type { EventStream } from './event-stream.js';
import { InformerHealth, loggingObserver, metricsObserver, type InformerMetrics, type InformerObserver, type InformerState } from './informer-observer.js';
import { ObjectStore } from './object-store.js';
import { reflect } from './reflect.js';
import { withStallDetection } from './stall-detection.js';
import type { WatchEvent } from './watch-event.js';
import { watch, type Watcher } from './watcher.js';

export type { InformerMetrics, InformerObserver, InformerState } from './informer-observer.js';

export interface InformerHandler<T extends KubeObject = KubeObject> {
  onAdd?(obj: T, isInitialList: boolean): void;
  onUpdate?(oldObj: T, newObj: T): void;
  onDelete?(obj: T): void;
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
  /** Reconnect backoff after errors: initial, doubling to max, ±25 % jitter (ms on `clock`). */
  backoffInitialMs?: number;
  backoffMaxMs?: number;
  /** The clock of the reconnect backoff (default real time). */
  clock?: Clock;
  /**
   * Resync (client-go's resyncPeriod, controller-runtime's SyncPeriod): every this many ms after the first sync,
   * each cached object is handed to the handlers again as an update from itself to itself. Off when undefined.
   */
  resyncPeriodMs?: number;
  /** The clock of the resync period (default real time). */
  resyncClock?: Clock;
  /** Applied to every object before it is stored (strip managedFields, freeze). */
  transform?: (obj: KubeObject) => KubeObject;
  metrics?: InformerMetrics;
  logger?: Logger;
  /** Called on every delivered event and state change (the manager's activity count, for settle()). */
  onActivity?: () => void;
  /** More observers (informer-observer.ts). */
  observers?: InformerObserver[];
}

export class Informer<T extends KubeObject = KubeObject> {
  readonly store = new ObjectStore<T>();
  /** Events delivered since start (list items, bookmarks and state events included). */
  eventsReceived = 0;
  private readonly handlers: InformerHandler<T>[] = [];
  private readonly watcher: Watcher<T>;
  private readonly health: InformerHealth;
  private readonly observers: InformerObserver[];
  private readonly eventObservers: InformerObserver[];
  private current: InformerState;
  private syncWaiters: Array<() => void> = [];
  private running = false;
  private stopped = false;
  private readonly stopping = new AbortController();
  private loop: Promise<void> | undefined;
  private resyncTimer: Timer | undefined;

  constructor(private readonly options: InformerOptions) {
    const kind = options.kind.kind;
    this.health = new InformerHealth(options.stallClock ?? realClock, realClock, options.watchSettleGraceMs ?? 50);
    const activity = options.onActivity;
    this.observers = [
      this.health,
      loggingObserver(kind, options.logger),
      ...(options.metrics ? [metricsObserver(options.metrics)] : []),
      ...(activity ? [{ onStateChange: activity, onEvent: activity, onError: activity }] : []),
      ...(options.observers ?? []),
    ];
    this.eventObservers = this.observers.filter((o) => o.onEvent !== undefined);
    this.watcher = watch(options.client, options.kind as KindInfo<T>, {
      transport: options.transport,
      namespace: options.namespace,
      labelSelector: options.labelSelector,
      fieldSelector: options.fieldSelector,
      pageSize: options.pageSize,
      watchTimeoutSeconds: options.watchTimeoutSeconds,
      checkClusterIdentity: options.checkClusterIdentity,
      transform: options.transform,
      logger: options.logger,
      onStateChange: (state) => this.setState(state),
    });
    this.current = this.watcher.state;
  }

  get kind(): KindInfo {
    return this.options.kind;
  }

  /** Where the informer is: listing, verifying, watching, backing off or stopped (printable). */
  get state(): InformerState {
    return this.current;
  }

  addHandler(handler: InformerHandler<T>): void {
    this.handlers.push(handler);
    if (this.health.synced) for (const obj of this.store.values()) handler.onAdd?.(obj, true);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    const kind = this.options.kind.kind;
    const stallAware = withStallDetection(this.watcher, {
      timeoutMs: this.options.stallTimeoutMs ?? 90_000,
      clock: this.options.stallClock,
      onStall: (error) => {
        for (const o of this.observers) o.onStall?.(kind, error);
      },
    });
    const retried = withBackoff(stallAware, {
      initialMs: this.options.backoffInitialMs,
      maxMs: this.options.backoffMaxMs,
      clock: this.options.clock,
      signal: this.stopping.signal,
      onBackoff: (error, delayMs, failures) => {
        for (const o of this.observers) o.onError?.(kind, error, delayMs);
        this.setState({ phase: 'backing-off', delayMs: Math.round(delayMs), failures, error: error.message });
      },
    });
    this.loop = this.dispatch(reflect(retried, this.store));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.resyncTimer?.cancel();
    this.watcher.stop();
    this.stopping.abort();
    for (const w of this.syncWaiters.splice(0)) w();
    await this.loop;
  }

  hasSynced(): boolean {
    return this.health.synced;
  }

  waitForSync(): Promise<void> {
    if (this.health.synced || this.stopped) return Promise.resolve();
    return new Promise((resolve) => this.syncWaiters.push(resolve));
  }

  /** Synced, not stalled, and its watch is up or was lost less than `graceMs` ago (on stallClock when given). */
  healthy(graceMs = 15_000): boolean {
    return this.health.healthy(graceMs);
  }

  /** Watching with nothing in progress (InformerHealth.idle), or stopped. */
  isIdle(): boolean {
    return this.stopped || this.health.idle();
  }

  lastResourceVersion(): string {
    return this.watcher.resourceVersion;
  }

  /** The last stage: tells handlers and observers about each event the store has taken in (a batch per await). */
  private async dispatch(events: EventStream<T>): Promise<void> {
    const batches = events.batches();
    let batch: ReadonlyArray<WatchEvent<T>> | undefined;
    for (;;) {
      batch = batches.poll();
      if (batch === undefined) {
        const arrival = batches.arrival();
        if (arrival !== undefined) {
          await arrival; // an open watch: one plain promise per socket chunk
          continue;
        }
        batch = await batches.next();
        if (batch === undefined) return;
      }
      for (let i = 0; i < batch.length; i++) this.deliver(batch[i]!);
      // Cleared before the next await: the suspended function would keep a list's events reachable.
      // eslint-disable-next-line no-useless-assignment -- read by no one, but it frees the list for the GC
      batch = undefined;
    }
  }

  private deliver(event: WatchEvent<T>): void {
    const kind = this.options.kind.kind;
    const handlers = this.handlers;
    this.eventsReceived++;
    try {
      switch (event.type) {
        case 'Apply': {
          const { object, old } = event;
          // Indexed loops: the per-event path allocates no array iterator.
          if (old === undefined) for (let i = 0; i < handlers.length; i++) handlers[i]!.onAdd?.(object, false);
          else for (let i = 0; i < handlers.length; i++) handlers[i]!.onUpdate?.(old, object);
          break;
        }
        case 'Delete': {
          const object = event.old ?? event.object;
          for (let i = 0; i < handlers.length; i++) handlers[i]!.onDelete?.(object);
          break;
        }
        case 'InitDone':
          this.listed(event.changes ?? []);
          break;
        case 'Init':
          if (event.cause) for (const o of this.observers) o.onRelist?.(kind, event.cause);
          break;
      }
    } catch (err) {
      // The store already holds the change; a throwing handler loses only its own notification.
      this.options.logger?.error({ kind, err: String(err) }, 'informer handler failed');
    }
    const observers = this.eventObservers;
    for (let i = 0; i < observers.length; i++) observers[i]!.onEvent!(kind, event);
  }

  private listed(changes: NonNullable<Extract<WatchEvent<T>, { type: 'InitDone' }>['changes']>): void {
    const initial = !this.health.synced;
    const handlers = this.handlers;
    for (let c = 0; c < changes.length; c++) {
      const change = changes[c]!;
      if (change.type === 'deleted') for (let i = 0; i < handlers.length; i++) handlers[i]!.onDelete?.(change.object);
      else if (change.type === 'added') for (let i = 0; i < handlers.length; i++) handlers[i]!.onAdd?.(change.object, initial);
      else for (let i = 0; i < handlers.length; i++) handlers[i]!.onUpdate?.(change.old, change.object);
    }
    if (initial) {
      for (const o of this.observers) o.onSynced?.(this.options.kind.kind);
      for (const w of this.syncWaiters.splice(0)) w();
      this.scheduleResync();
    }
  }

  /** The next resync, one period of the resync clock from now (when a period is set). */
  private scheduleResync(): void {
    const periodMs = this.options.resyncPeriodMs;
    if (periodMs === undefined || periodMs <= 0 || this.stopped) return;
    this.resyncTimer = after(this.options.resyncClock ?? realClock, periodMs, () => {
      if (this.stopped) return;
      const handlers = this.handlers;
      try {
        for (const obj of this.store.values()) for (let i = 0; i < handlers.length; i++) handlers[i]!.onUpdate?.(obj, obj);
      } catch (err) {
        this.options.logger?.error({ kind: this.options.kind.kind, err: String(err) }, 'informer handler failed');
      }
      this.scheduleResync();
    });
  }

  private setState(state: InformerState): void {
    this.current = state;
    const kind = this.options.kind.kind;
    for (const o of this.observers) o.onStateChange?.(kind, state);
  }
}
