/**
 * What `complete()` checks before it builds anything, with controller-runtime's wording where `Build` has
 * one: For given once, Owns only with For, some watch, a reconciler, a valid controller name that no other
 * controller of the manager has, and no kind watched twice by one controller — except For(X) with Owns(X), a
 * parent owning children of its own kind, which `Build` accepts (the two watches enqueue different keys: the
 * object, its owner). Returns the controller's name.
 */
import { apiVersionOf, type KindInfo } from '../client/kinds.js';
import type { ReconcileFunc, Reconciler } from '../controller/reconcile.js';

/** A kind a builder watches, and the call that gave it. */
export interface WatchedKind {
  info: KindInfo;
  by: 'For()' | 'Owns()' | 'Watches()';
}

export interface BuilderInput {
  reconciler: Reconciler | ReconcileFunc | null | undefined;
  forCalls: number;
  forKind: KindInfo | undefined;
  name: string | undefined;
  /** The kinds of owns() and of watches() with a kind source, in call order. */
  watched: WatchedKind[];
  /** owns() and watches() calls, any source. */
  watchCount: number;
  nameTaken(name: string): boolean;
}

/**
 * A controller's name: it labels the controller's metrics and logs, so it is kept to what a Prometheus label
 * value and a log reader take without quoting — letters, digits, '-', '_' and '.', starting and ending with a
 * letter or digit, at most 63 characters (the default, the lower-cased kind, always is one).
 */
const CONTROLLER_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?$/;

export function checkBuilder(input: BuilderInput): string {
  const { reconciler } = input;
  if (reconciler === null || reconciler === undefined || (typeof reconciler !== 'function' && typeof (reconciler as Partial<Reconciler>).reconcile !== 'function')) {
    throw new Error('must provide a non-nil Reconciler (complete() takes a reconcile function or an object with a reconcile method)');
  }
  if (input.forCalls > 1) throw new Error('For(...) should only be called once, could not assign multiple objects for reconciliation');
  const owns = input.watched.filter((w) => w.by === 'Owns()');
  if (owns.length > 0 && !input.forKind) throw new Error('Owns() can only be used together with For()');
  if (!input.forKind && input.watchCount === 0) throw new Error('there are no watches configured, controller will never get triggered. Use For(), Owns() or Watches() to set them up');
  if (input.name === undefined && !input.forKind) throw new Error('one of For() or Named() must be called');
  const name = input.name ?? input.forKind!.kind.toLowerCase();
  if (name === '') throw new Error('must specify Name for Controller');
  if (!CONTROLLER_NAME.test(name)) {
    throw new Error(`controller name ${JSON.stringify(name)} is not valid: use letters, digits, '-', '_' and '.', starting and ending with a letter or digit, at most 63 characters (it labels the controller's metrics and logs)`);
  }
  if (input.nameTaken(name)) throw new Error(duplicateNameMessage(name));
  const all: WatchedKind[] = input.forKind ? [{ info: input.forKind, by: 'For()' }, ...input.watched] : input.watched;
  const seen = new Map<string, WatchedKind>();
  for (const w of all) {
    const id = `${apiVersionOf(w.info)}/${w.info.kind}${w.info.metadataOnly ? ' (metadata only)' : ''}`;
    const first = seen.get(id);
    const parentOfItsKind = first?.by === 'For()' && w.by === 'Owns()';
    if (first && !parentOfItsKind) {
      throw new Error(
        `controller ${name}: ${w.info.kind} (${apiVersionOf(w.info)}) is watched twice, by ${first.by} and by ${w.by}: each event would reach the controller through both watches; watch a kind once (one Watches() whose handler enqueues everything its events map to)`,
      );
    }
    if (!first) seen.set(id, w);
  }
  return name;
}

/** controller-runtime's wording for a name already used (names label metrics, so they must be unique). */
export function duplicateNameMessage(name: string): string {
  return `controller with name ${name} already exists. Controller names must be unique to avoid multiple controllers reporting to the same metric`;
}
