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
import { ObjectStore } from './object-store.js';
import { EventStream, type EventTap } from './event-stream.js';
import { keepShape } from '../keep-shape.js';
import type { WatchEvent, WatchEvents } from './watch-event.js';

const versionOf = (obj: KubeObject): string | undefined => obj.metadata?.resourceVersion;

export function reflect<T extends KubeObject>(events: AsyncIterable<WatchEvent<T>> & Partial<WatchEvents<T>>, store: ObjectStore<T>): EventStream<T> {
  return EventStream.of(events).through(new ReflectTap<T>(store));
}

/**
 * reflect's stage. A class, not a closure per stream: the pipeline calls onEvent on every event, and a
 * closure's compiled code dies with its runtime (keep-shape.ts).
 */
class ReflectTap<T extends KubeObject> implements EventTap<T> {
  /** The list being gathered (Init … InitDone), swapped into the store whole. */
  private listed: Map<string, T> | undefined;

  constructor(private readonly store: ObjectStore<T>) {}

  onEvent(event: WatchEvent<T>): undefined {
    switch (event.type) {
      case 'Apply':
        event.old = this.store.upsert(objectKey(event.object), event.object);
        break;
      case 'Delete':
        event.old = this.store.remove(objectKey(event.object));
        break;
      case 'Init':
        this.listed = new Map();
        break;
      case 'InitApply':
        (this.listed ??= new Map()).set(objectKey(event.object), event.object);
        break;
      case 'InitDone':
        event.changes = this.store.replace(this.listed ?? new Map(), versionOf);
        this.listed = undefined;
        break;
    }
    return undefined;
  }
}

keepShape(new ReflectTap(new ObjectStore<KubeObject>()));
