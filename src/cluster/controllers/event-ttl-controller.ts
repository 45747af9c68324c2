/**
 * Event expiry (§7.4): the API server keeps Events for one hour after their last write (etcd lease
 * in a real cluster); here they are deleted on the cluster clock, under the API server's identity.
 */
import type { Event } from 'kubernetes-types/core/v1.js';
import type { ClusterClock } from '../clock/virtual-clock.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject, StoreEvent } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';
import type { BuiltinController, ReconcileResult } from './controller-scheduler.js';

export const eventTtlMs = 60 * 60 * 1000;

function lastWrite(stored: KubeObject): number {
  const event = asStored<Event>(stored);
  const times = [event.lastTimestamp, event.eventTime, event.series?.lastObservedTime, event.metadata.creationTimestamp].filter((t): t is string => Boolean(t)).map((t) => Date.parse(t));
  return Math.max(...times);
}

export class EventTtlController implements BuiltinController {
  readonly name = 'event-ttl';

  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock) {}

  initialKeys(): string[] {
    return this.client.list('events').map((e) => `${e.metadata.namespace}/${e.metadata.name}`);
  }

  keysFor(event: StoreEvent): string[] {
    return event.bucket === 'events' && event.type !== 'DELETED' ? [`${event.object.metadata.namespace}/${event.object.metadata.name}`] : [];
  }

  reconcile(key: string): ReconcileResult | void {
    const [namespace, name] = key.split('/') as [string, string];
    const event = this.client.get('events', namespace, name);
    if (!event) return;
    const expireAt = lastWrite(event) + eventTtlMs;
    const now = this.clock.now();
    if (now < expireAt) return { requeueAfterMs: expireAt - now };
    this.client.delete('events', namespace, name, { preconditions: { uid: event.metadata.uid } });
  }
}
