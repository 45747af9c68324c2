/**
 * Records core/v1 Events for the built-in controllers the way kube-controller-manager's recorder
 * does (§7.8 end): name `<object>.<16 hex digits of unix nanoseconds>`, source component, and an
 * identical event within 10 minutes bumps `count`/`lastTimestamp` of the existing one instead.
 */
import type { ClusterClock } from '../clock/virtual-clock.js';
import { rfc3339, rfc3339Micro } from '../registry/system-metadata.js';
import type { Event as CoreEvent, Pod } from 'kubernetes-types/core/v1.js';
import type { Event } from 'kubernetes-types/events/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject } from '../store/object-store.js';
import type { ControllerClient } from './controller-client.js';

export type EventType = 'Normal' | 'Warning';

const aggregationWindowMs = 10 * 60 * 1000;

/** One sequence per cluster (per clock), so recorders writing in one virtual millisecond never pick one name. */
const sequences = new WeakMap<ClusterClock, { next: number }>();
function nextSequence(clock: ClusterClock): number {
  let s = sequences.get(clock);
  if (!s) sequences.set(clock, (s = { next: 0 }));
  return s.next++ % 1_000_000;
}

export class EventRecorder {
  /** Name of the last event written per aggregation key (source, object, type, reason, message). */
  private readonly written = new Map<string, string>();

  /** `host`: the node a kubelet's events come from (source.host, reportingInstance). */
  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock, readonly component: string, private readonly host?: string) {}

  /**
   * Records an event about `object` (about one of its containers when `container` is given, as the
   * kubelet does); failures (e.g. a terminating namespace) are dropped as upstream does.
   */
  record(object: KubeObject, type: EventType, reason: string, message: string, container?: string): void {
    try {
      this.write(object, type, reason, message, container);
    } catch {
      // The upstream recorder logs and drops events it cannot write.
    }
  }

  private write(object: KubeObject, type: EventType, reason: string, message: string, container?: string): void {
    const now = this.clock.now();
    const namespace = object.metadata.namespace || 'default';
    const involved = involvedObject(object);
    if (container !== undefined) {
      // events name a container only on pods
      const init = (asStored<Pod>(object).spec?.initContainers ?? []).some((c) => c.name === container);
      involved.fieldPath = `spec.${init ? 'initContainers' : 'containers'}{${container}}`;
    }
    const key = JSON.stringify([namespace, involved.uid, involved.name, type, reason, message]);
    const previousName = this.written.get(key);
    const previous = previousName ? this.client.get('events', namespace, previousName) : undefined;
    const existing = previous && now - Date.parse(asStored<CoreEvent>(previous).lastTimestamp ?? previous.metadata.creationTimestamp!) <= aggregationWindowMs ? previous : undefined;
    if (existing) {
      existing.count = (asStored<CoreEvent>(existing).count ?? 1) + 1;
      existing.lastTimestamp = rfc3339(now);
      this.client.update('events', existing);
      return;
    }
    const nanos = BigInt(now) * 1_000_000n + BigInt(nextSequence(this.clock));
    const name = `${object.metadata.name}.${nanos.toString(16).padStart(16, '0')}`;
    if (this.written.size > 10_000) this.written.clear();
    this.written.set(key, name);
    this.client.create('events', namespace, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name, namespace },
      involvedObject: involved,
      reason,
      message,
      source: { component: this.component, ...(this.host ? { host: this.host } : {}) },
      firstTimestamp: rfc3339(now),
      lastTimestamp: rfc3339(now),
      count: 1,
      type,
      eventTime: null,
      reportingComponent: this.component,
      reportingInstance: this.host ?? '',
    });
  }
}

/** The ObjectReference an Event points at. */
export function involvedObject(object: KubeObject): Record<string, string> {
  const ref: Record<string, string> = { kind: object.kind!, name: object.metadata.name };
  if (object.metadata.namespace) ref.namespace = object.metadata.namespace;
  ref.uid = object.metadata.uid!;
  // a kubelet's nodeRef carries neither
  if (object.apiVersion !== undefined) ref.apiVersion = object.apiVersion;
  if (object.metadata.resourceVersion !== undefined) ref.resourceVersion = object.metadata.resourceVersion;
  return ref;
}

/** events.k8s.io/v1 series: a repeat within 6 minutes counts on the first event instead of a new one. */
const seriesWindowMs = 6 * 60 * 1000;

/**
 * Records events.k8s.io/v1 Events as the scheduler's (new-style) recorder does: eventTime, action,
 * reportingController and reportingInstance set; repeats become a `series` on the first event.
 */
export class EventsV1Recorder {
  private readonly written = new Map<string, { name: string; at: number }>();

  constructor(private readonly client: ControllerClient, private readonly clock: ClusterClock, readonly controller: string, readonly instance: string) {}

  record(object: KubeObject, type: EventType, reason: string, action: string, note: string): void {
    try {
      this.write(object, type, reason, action, note);
    } catch {
      // dropped, as upstream's broadcaster does when a write fails
    }
  }

  private write(object: KubeObject, type: EventType, reason: string, action: string, note: string): void {
    const now = this.clock.now();
    const namespace = object.metadata.namespace || 'default';
    const regarding = involvedObject(object);
    const key = JSON.stringify([namespace, regarding.uid, type, reason, action, note]);
    const seen = this.written.get(key);
    const previous = seen && now - seen.at <= seriesWindowMs ? this.client.get('events.k8s.io/events', namespace, seen.name) : undefined;
    if (previous) {
      previous.series = { count: (asStored<Event>(previous).series?.count ?? 1) + 1, lastObservedTime: rfc3339Micro(now) };
      this.client.update('events.k8s.io/events', previous);
      seen!.at = now;
      return;
    }
    const nanos = BigInt(now) * 1_000_000n + BigInt(nextSequence(this.clock));
    const name = `${object.metadata.name}.${nanos.toString(16).padStart(16, '0')}`;
    if (this.written.size > 10_000) this.written.clear();
    this.written.set(key, { name, at: now });
    this.client.create('events.k8s.io/events', namespace, {
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      metadata: { name, namespace },
      eventTime: rfc3339Micro(now),
      reportingController: this.controller,
      reportingInstance: this.instance,
      action,
      reason,
      regarding,
      note,
      type,
    });
  }
}
