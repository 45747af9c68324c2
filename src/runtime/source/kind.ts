/** The kind source: create/update/delete events of one kind from the manager cache's shared informer. */
import type { Informer, InformerHandler } from '../cache/informer.js';
import type { KindRef } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import { keepShape } from '../keep-shape.js';
import type { Dispatch, Source, SourceContext } from './source.js';

export function kindSource<T extends KubeObject>(kind: KindRef<T>): Source<T> & { kind: KindRef<T> } {
  let informer: Informer<T> | undefined;
  let active: { stopped: boolean } | undefined;
  return {
    kind,
    start(dispatch: Dispatch<T>, context: SourceContext) {
      const session = new SourceSession(dispatch);
      active = session;
      informer = context.cache.informerFor(kind);
      informer.addHandler(session);
    },
    waitForSync: () => informer?.waitForSync() ?? Promise.resolve(),
    stop() {
      if (active) active.stopped = true;
    },
  };
}

/**
 * One start of a kind source: hands the informer's notifications to the dispatch until stopped. Prototype
 * methods, not closures per start: the informer calls them on every event, and a closure's compiled code
 * dies with its runtime (keep-shape.ts).
 */
class SourceSession<T extends KubeObject> implements InformerHandler<T> {
  stopped = false;

  constructor(private readonly dispatch: Dispatch<T>) {}

  onAdd(object: T, isInitialList: boolean): void {
    if (!this.stopped) this.dispatch.create({ object, isInitialList });
  }

  onUpdate(objectOld: T, objectNew: T): void {
    if (!this.stopped) this.dispatch.update({ objectOld, objectNew });
  }

  onDelete(object: T): void {
    if (!this.stopped) this.dispatch.delete({ object });
  }
}

keepShape(new SourceSession(undefined as never));
