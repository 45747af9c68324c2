/**
 * What a watcher (watcher.ts) says, as kube-rs' watcher events plus three of kubeforge's own. A (re)list is
 * `Init`, one `InitApply` per listed object, then `InitDone` (the whole list is in: a store swaps it in at
 * once, so readers never see half a list); a watch then yields `WatchOpened`, `Apply` (added or modified),
 * `Delete` and `Bookmark`; a failure is an `Error` event after which the watcher retries (wrap it in
 * withBackoff, backoff.ts, to wait between tries). `reflect()` (reflect.ts) fills `old` on Apply/Delete and
 * `changes` on InitDone, so handlers can be told adds, updates and deletes.
 *
 *   for await (const e of watch(client, BuiltinKinds.ConfigMap, { namespace: 'default' }))
 *     if (e.type === 'Apply') console.log('applied', e.object.metadata?.name);
 */
import type { KubeObject } from '../client/object.js';
import { keepShape } from '../keep-shape.js';

/** One difference a relist made to a store (reflect.ts), in the order handlers are told: deletes first. */
export type StoreChange<T> = { type: 'added'; object: T } | { type: 'updated'; object: T; old: T } | { type: 'deleted'; object: T };

export type WatchEvent<T extends KubeObject = KubeObject> =
  /** A list starts (the first, or a relist); `cause` is the 410 Gone or ServerWentBackError that made it a relist. */
  | { type: 'Init'; cause?: Error }
  | { type: 'InitApply'; object: T }
  /** The list is complete at `resourceVersion`; `changes` is set by reflect(). */
  | { type: 'InitDone'; resourceVersion: string; changes?: Array<StoreChange<T>> }
  | { type: 'WatchOpened'; resourceVersion: string }
  /** Added or modified; `old` (set by reflect()) is what the store held before. */
  | { type: 'Apply'; object: T; old?: T }
  /** `old` (set by reflect()) is what the store held. */
  | { type: 'Delete'; object: T; old?: T }
  | { type: 'Bookmark'; resourceVersion: string }
  /** A try failed; the watcher tries again when pulled (at once, unless a backoff wrapper waits first). */
  | { type: 'Error'; error: Error };

/** A stream of watch events whose current watch can be dropped and re-opened (the watcher, and the wrappers around it). */
export interface WatchEvents<T extends KubeObject = KubeObject> extends AsyncIterable<WatchEvent<T>> {
  /** Drops the open watch: the stream yields an Error event with `reason` and watches again. */
  restartWatch(reason: Error): void;
}

/** A watch ended by the client (stopped, aborted) rather than by the server. */
export class WatchEndedError extends Error {
  override name = 'WatchEndedError';
}

/** No event or bookmark arrived for `timeoutMs` (stall-detection.ts). */
export class WatchStalledError extends WatchEndedError {
  override name = 'WatchStalledError';
  constructor(readonly timeoutMs: number) {
    super(`watch stalled: no event or bookmark for ${timeoutMs} ms`);
  }
}

/**
 * A watch the server ended before it delivered anything (within a second): once is a server going away (not
 * worth a warning, the next try tells), several in a row (`repeated`) are a failure state of their own.
 */
export class WatchClosedEarlyError extends Error {
  override name = 'WatchClosedEarlyError';
  constructor(readonly repeated: boolean) {
    super(repeated ? 'watches keep ending as soon as they open' : 'the watch ended as soon as it opened');
  }
}

/*
 * The events a watcher yields once per list, watch or failure, each made here and one of each kept alive: an
 * object literal made that seldom gets a hidden class that dies with the event (no boilerplate holds it), and
 * the code that reads events (the pipeline's taps, the informer's observers) was deoptimized for "wrong map" on
 * every list (keep-shape.ts). InitDone has `changes` (reflect() fills it) from the start, for the same reason.
 * Apply and Delete, made per event, keep their class anyway.
 */
export function initEvent<T extends KubeObject>(cause: Error | undefined): WatchEvent<T> {
  return { type: 'Init', cause };
}

export function initDoneEvent<T extends KubeObject>(resourceVersion: string): WatchEvent<T> {
  return { type: 'InitDone', resourceVersion, changes: undefined };
}

export function watchOpenedEvent<T extends KubeObject>(resourceVersion: string): WatchEvent<T> {
  return { type: 'WatchOpened', resourceVersion };
}

export function bookmarkEvent<T extends KubeObject>(resourceVersion: string): WatchEvent<T> {
  return { type: 'Bookmark', resourceVersion };
}

export function errorEvent<T extends KubeObject>(error: Error): WatchEvent<T> {
  return { type: 'Error', error };
}

keepShape([initEvent(undefined), initDoneEvent(''), watchOpenedEvent(''), bookmarkEvent(''), errorEvent(new Error())]);
