/**
 * One way to watch an informer at work: an InformerObserver is told its state changes (the watcher's state,
 * or backing off), sync, failures, stalls, relists and every event it delivered. Health and readiness
 * (InformerHealth below), metrics (metricsObserver), the failure log and the tests' `settle()` (through the
 * manager's activity count) are observers; pass more with `observers` to an Informer or the Cache.
 *
 *   const seen: string[] = [];
 *   new Informer({ kind, client, transport, observers: [{ onStateChange: (kind, s) => seen.push(`${kind} ${s.phase}`) }] });
 */
import type { Logger } from 'pino';
import { ApiError, isGone } from '../client/api-error.js';
import { realClock, type Clock } from '../clock.js';
import { ServerWentBackError } from './server-timeline.js';
import { WatchClosedEarlyError, WatchEndedError, type WatchEvent, type WatchStalledError } from './watch-event.js';
import type { WatcherState } from './watcher.js';
import { WatchFailureLog } from './watch-failure-log.js';
import { keepShape } from '../keep-shape.js';

/** The watcher's state, or waiting before the next try (backoff.ts). */
export type InformerState = WatcherState | { phase: 'backing-off'; delayMs: number; failures: number; error: string };

export interface InformerObserver {
  onStateChange?(kind: string, state: InformerState): void;
  /** The first complete list is in the store and handlers were told. */
  onSynced?(kind: string): void;
  /** A try failed; the next comes after `backoffMs`. */
  onError?(kind: string, error: Error, backoffMs: number): void;
  onStall?(kind: string, error: WatchStalledError): void;
  /** A relist starts because the watch answered 410 Gone or the server went back in time. */
  onRelist?(kind: string, cause: Error): void;
  /** An event went through the store to the handlers (bookmarks and state events too). */
  onEvent?(kind: string, event: WatchEvent): void;
}

/** Prometheus-style counters an informer feeds (the manager's metrics). */
export interface InformerMetrics {
  stalled?(kind: string): void;
  relisted?(kind: string): void;
  watchRestarted?(kind: string, reason: string): void;
}

/** Metrics as an observer: stalls, relists, and restarts by reason (the status code, "stall" or "error"). */
export function metricsObserver(metrics: InformerMetrics): InformerObserver {
  return {
    onStall: (kind) => metrics.stalled?.(kind),
    onRelist: (kind) => metrics.relisted?.(kind),
    onError: (kind, error) => {
      if (error instanceof WatchClosedEarlyError) return; // the server ended a watch: not a restart of ours
      metrics.watchRestarted?.(kind, error instanceof ApiError ? String(error.code) : error instanceof WatchEndedError ? 'stall' : 'error');
    },
  };
}

/** The log lines of an informer: failures once per state (watch-failure-log.ts), stalls, relists. */
export function loggingObserver(kind: string, logger: Logger | undefined): InformerObserver {
  const failures = new WatchFailureLog(kind, logger);
  return {
    onError: (_kind, error, backoffMs) => {
      // One watch ending at once is a server going away (the error, if any, comes with the next try).
      if (error instanceof WatchClosedEarlyError && !error.repeated) return;
      failures.failed(error, backoffMs);
    },
    onStateChange: (_kind, state) => {
      if (state.phase === 'watching' && state.open) failures.recovered();
    },
    onStall: (_kind, error) => logger?.warn({ kind, stallMs: error.timeoutMs }, 'watch stalled: no event or bookmark, re-watching'),
    onRelist: (_kind, cause) => {
      if (cause instanceof ServerWentBackError) logger?.warn({ kind, resourceVersion: cause.seen, lastResourceVersion: cause.last }, `${cause.message}; relisting from the latest`);
      else if (isGone(cause)) logger?.debug({ kind }, 'watch expired (410), relisting');
    },
  };
}

/**
 * Health and idleness from an informer's observed life: synced, watch open or lost only briefly, not stalled
 * since the last re-watch; and, for settle(), nothing in progress.
 */
export class InformerHealth implements InformerObserver {
  synced = false;
  private connected = false;
  private listing = false;
  /** A stall was detected and no re-watch has opened since: not ready. */
  private stalled = false;
  private disconnectedSince: number;
  private connectedAt = 0;
  private receivedSinceConnect = false;

  /**
   * @param healthClock measures the grace of a lost watch (default real time)
   * @param settleClock measures the settle grace of a fresh silent watch (default real time: settle() waits
   *   in real time while a virtual clock stands still)
   */
  constructor(
    private readonly healthClock: Clock = realClock,
    private readonly settleClock: Clock = realClock,
    private readonly settleGraceMs = 50,
  ) {
    this.disconnectedSince = healthClock.now();
  }

  onStateChange(_kind: string, state: InformerState): void {
    this.listing = state.phase === 'listing';
    const connected = state.phase === 'watching' && state.open;
    if (this.connected && !connected) this.disconnectedSince = this.healthClock.now();
    if (connected && !this.connected) {
      this.stalled = false; // the re-watch is open
      this.connectedAt = this.settleClock.now();
      this.receivedSinceConnect = false;
    }
    this.connected = connected;
  }

  onSynced(): void {
    this.synced = true;
  }

  onStall(): void {
    this.stalled = true;
  }

  onEvent(_kind: string, event: WatchEvent): void {
    const type = event.type;
    if (type === 'Apply' || type === 'Delete' || type === 'Bookmark') this.receivedSinceConnect = true;
  }

  /** Synced, not stalled, and its watch is up or was lost less than `graceMs` ago. */
  healthy(graceMs: number): boolean {
    return this.synced && !this.stalled && (this.connected || this.healthClock.now() - this.disconnectedSince < graceMs);
  }

  /**
   * Watching with nothing in progress: no list running, no reconnect pending, and the current watch has
   * either delivered something or been open for a short grace period. (A resumed watch answers 410 or
   * replays history in its first lines; until those could have arrived it is not known to be current.)
   */
  idle(): boolean {
    if (!this.synced || !this.connected || this.listing) return false;
    return this.receivedSinceConnect || this.settleClock.now() - this.connectedAt >= this.settleGraceMs;
  }
}

// One instance lives on between informers, so the event path's compiled code stays valid (keep-shape.ts).
keepShape(new InformerHealth());
