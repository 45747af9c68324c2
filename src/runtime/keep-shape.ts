/**
 * Keeps one instance of a per-event class alive for the life of the process. V8's optimized code holds the
 * hidden classes (maps) it was compiled for weakly: a class whose instances all die between two bursts of
 * events (a reconcile request, a reconcile context) loses its field maps at the next GC, and every function
 * that inlined them — the worker loop first — is deoptimized and compiled again on the next burst (measured
 * on one long-lived manager: the worker loop re-optimized after every 1,000-event burst, 12–52 ms of compiler
 * time each). One live instance keeps the maps, and so the compiled code, valid.
 *
 *   class KeyedRequest { … }
 *   keepShape(new KeyedRequest('', '', ''));
 */
const kept: object[] = [];

export function keepShape<T extends object>(instance: T): T {
  kept.push(instance);
  return instance;
}
