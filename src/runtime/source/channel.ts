/**
 * Channel sources bring events from outside the cluster (a webhook call, a message bus): `send(object)`
 * delivers a generic event to every controller watching the channel; sends before start are buffered.
 */
import type { KubeObject } from '../client/object.js';
import type { Dispatch, Source } from './source.js';

export class EventChannel<T extends KubeObject = KubeObject> {
  private readonly sinks = new Set<Dispatch<T>>();
  private readonly buffered: T[] = [];

  send(object: T): void {
    if (this.sinks.size === 0) {
      this.buffered.push(object);
      return;
    }
    for (const sink of this.sinks) sink.generic({ object });
  }

  /** @internal used by channelSource. */
  attach(sink: Dispatch<T>): () => void {
    this.sinks.add(sink);
    for (const object of this.buffered.splice(0)) sink.generic({ object });
    return () => this.sinks.delete(sink);
  }
}

export function channelSource<T extends KubeObject>(channel: EventChannel<T>): Source<T> {
  let detach: (() => void) | undefined;
  return {
    start(dispatch) {
      detach?.();
      detach = channel.attach(dispatch);
    },
    stop() {
      detach?.();
      detach = undefined;
    },
  };
}
