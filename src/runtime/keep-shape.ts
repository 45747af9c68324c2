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

/** Objects decoded for each kind, kept by keepDecodedShape (at most one set per kind). */
const decodedShapes = new Map<string, readonly object[]>();

/**
 * Keeps the first objects decoded from the server for `kind` (the object as cached, and the metadata
 * JSON.parse made for it) alive for the life of the process. JSON.parse gives objects of one shape shared
 * hidden classes, which die with the last object that had them: a runtime's cache going away took them,
 * and the watch and cache code compiled for them (objectKey, the namespace index, the cache's transform, the
 * store) was deoptimized and compiled again for the next runtime ("weak objects"). The caller bounds their
 * size (watcher.ts keeps objects whose JSON is small). Returns false when `kind` already has its objects.
 */
export function keepDecodedShape(kind: string, objects: readonly object[]): boolean {
  if (decodedShapes.has(kind)) return false;
  decodedShapes.set(kind, objects);
  return true;
}

/** True once keepDecodedShape kept objects for `kind`. */
export function hasDecodedShape(kind: string): boolean {
  return decodedShapes.has(kind);
}
