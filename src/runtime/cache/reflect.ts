/**
 * The reflector (kube-rs' reflector, client-go's Reflector + Indexer): keeps an ObjectStore equal to what a
 * watcher saw and passes every event on. A list (Init … InitApply … InitDone) is gathered aside and swapped
 * in whole at InitDone — readers never see half a list — and the differences it made are put on the InitDone
 * event (`changes`: deletes, then adds and updates); Apply and Delete get `old`, what the store held before.
 *
 *   const store = new ObjectStore<ConfigMap>();
 *   for await (const e of reflect(watch(client, BuiltinKinds.ConfigMap), store))
 *     if (e.type === 'InitDone') console.log(`${store.size} ConfigMaps listed`);
 */
import { objectKey, type KubeObject } from '../client/object.js';
import type { ObjectStore } from './object-store.js';
import { EventStream } from './event-stream.js';
import type { WatchEvent, WatchEvents } from './watch-event.js';

const versionOf = (obj: KubeObject): string | undefined => obj.metadata?.resourceVersion;

export function reflect<T extends KubeObject>(events: AsyncIterable<WatchEvent<T>> & Partial<WatchEvents<T>>, store: ObjectStore<T>): EventStream<T> {
  let listed: Map<string, T> | undefined;
  return EventStream.of(events).through({
    onEvent(event) {
      switch (event.type) {
        case 'Apply':
          event.old = store.upsert(objectKey(event.object), event.object);
          break;
        case 'Delete':
          event.old = store.remove(objectKey(event.object));
          break;
        case 'Init':
          listed = new Map();
          break;
        case 'InitApply':
          (listed ??= new Map()).set(objectKey(event.object), event.object);
          break;
        case 'InitDone':
          event.changes = store.replace(listed ?? new Map(), versionOf);
          listed = undefined;
          break;
      }
      return undefined;
    },
  });
}
