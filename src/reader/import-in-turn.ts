/**
 * Runs the generator's lazy imports (the parser, the generators, the marker scanner) one after another. jest's
 * ESM loader can fail ("request for … is not in cache") when dynamic imports that share modules are in flight at
 * once — as when in-process callers plan `manifests` and `generate` together — so each waits for the one before
 * it to settle. In a CLI run they follow each other anyway, so this costs nothing there. (So a module loaded
 * this way must not wait at its top level for another such import: that one would wait for it.)
 */
let previous: Promise<unknown> = Promise.resolve();

/** Starts `load` once every lazy import started before has settled. */
export function importInTurn<T>(load: () => Promise<T>): Promise<T> {
  const next = previous.then(load);
  previous = next.catch(() => undefined);
  return next;
}
