/** The kind source: create/update/delete events of one kind from the manager cache's shared informer. */
import type { Informer } from '../cache/informer.js';
import type { KindRef } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import type { Dispatch, Source, SourceContext } from './source.js';

export function kindSource<T extends KubeObject>(kind: KindRef<T>): Source<T> & { kind: KindRef<T> } {
  let informer: Informer<T> | undefined;
  let active: { stopped: boolean } | undefined;
  return {
    kind,
    start(dispatch: Dispatch<T>, context: SourceContext) {
      const session = { stopped: false };
      active = session;
      informer = context.cache.informerFor(kind);
      informer.addHandler({
        onAdd: (object, isInitialList) => session.stopped || dispatch.create({ object, isInitialList }),
        onUpdate: (objectOld, objectNew) => session.stopped || dispatch.update({ objectOld, objectNew }),
        onDelete: (object) => session.stopped || dispatch.delete({ object }),
      });
    },
    waitForSync: () => informer?.waitForSync() ?? Promise.resolve(),
    stop() {
      if (active) active.stopped = true;
    },
  };
}
