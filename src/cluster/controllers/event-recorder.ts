/**
 * Records core/v1 Events for the built-in controllers the way kube-controller-manager's recorder
 * does (§7.8 end): name `<object>.<16 hex digits of unix nanoseconds>`, source component, and an
 * identical event within 10 minutes bumps `count`/`lastTimestamp` of the existing one instead.
 */
import type { ClusterClock } from '../clock/virtual-clock.js';
import { rfc3339 } from '../registry/system-metadata.js';
import type { KubeObject } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';

export type EventType = 'Normal' | 'Warning';

const aggregationWindowMs = 10 * 60 * 1000;

export class EventRecorder {
  /** Makes names unique when several events share one virtual millisecond. */
  private sequence = 0;
  /** Name of the last event written per aggregation key (source, object, type, reason, message). */
  private readonly written = new Map<string, string>();

  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock, readonly component: string) {}

  /** Records an event about `object`; failures (e.g. a terminating namespace) are dropped as upstream does. */
  record(object: KubeObject, type: EventType, reason: string, message: string): void {
    try {
      this.write(object, type, reason, message);
    } catch {
      // The upstream recorder logs and drops events it cannot write.
    }
  }

  private write(object: KubeObject, type: EventType, reason: string, message: string): void {
    const now = this.clock.now();
    const namespace = object.metadata.namespace || 'default';
    const involved = involvedObject(object);
    const key = JSON.stringify([namespace, involved.uid, involved.name, type, reason, message]);
    const previousName = this.written.get(key);
    const previous = previousName ? this.client.get('events', namespace, previousName) : undefined;
    const existing = previous && now - Date.parse(previous.lastTimestamp ?? previous.metadata.creationTimestamp) <= aggregationWindowMs ? previous : undefined;
    if (existing) {
      existing.count = (existing.count ?? 1) + 1;
      existing.lastTimestamp = rfc3339(now);
      this.client.update('events', existing);
      return;
    }
    const eventName = (): string => `${object.metadata.name}.${(BigInt(now) * 1_000_000n + BigInt(this.sequence++ % 1_000_000)).toString(16).padStart(16, '0')}`;
    let name = eventName();
    // another recorder may have written about the same object in the same virtual millisecond
    while (this.client.get('events', namespace, name)) name = eventName();
    if (this.written.size > 10_000) this.written.clear();
    this.written.set(key, name);
    this.client.create('events', namespace, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: involved,
      reason,
      message,
      source: { component: this.component },
      firstTimestamp: rfc3339(now),
      lastTimestamp: rfc3339(now),
      count: 1,
      type,
      eventTime: null,
      reportingComponent: this.component,
      reportingInstance: '',
    });
  }
}

/** The ObjectReference an Event points at. */
export function involvedObject(object: KubeObject): Record<string, string> {
  const ref: Record<string, string> = { kind: object.kind, name: object.metadata.name };
  if (object.metadata.namespace) ref.namespace = object.metadata.namespace;
  ref.uid = object.metadata.uid;
  ref.apiVersion = object.apiVersion;
  ref.resourceVersion = object.metadata.resourceVersion;
  return ref;
}
