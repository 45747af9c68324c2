/**
 * The event recorder: Events about an object, as `kubectl describe` and `kubectl events` show them, in
 * either API. `core/v1` (the default, client-go's record package): repeats of the same event (object,
 * type, reason, message) are aggregated into one Event whose `count` and `lastTimestamp` grow.
 * `events.k8s.io/v1` (client-go's newer events package, controller-runtime's new recorder): each Event
 * carries reportingController/Instance and an action, and repeats (object, action, reason) grow its
 * `series` (count, lastObservedTime) — see event-series.ts. Recording never throws: failures are logged.
 */
import os from 'node:os';
import type { Event as CoreEvent } from 'kubernetes-types/core/v1.js';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { isNotFound } from '../client/api-error.js';
import type { Client } from '../client/client.js';
import type { KubeObject } from '../client/object.js';
import { createEvent } from './event-name.js';
import { SeriesEventWriter } from './event-series.js';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorderOptions {
  /** Which Event API to write (default `core/v1`). */
  api?: 'core/v1' | 'events.k8s.io/v1';
  /** events.k8s.io/v1 `reportingInstance` (default `<component>-<hostname>`, as client-go). */
  reportingInstance?: string;
}

interface Recorded {
  namespace: string;
  name: string;
  count: number;
  firstTimestamp: string;
}

export class EventRecorder {
  private readonly recorded = new Map<string, Recorded>();
  private readonly series: SeriesEventWriter | undefined;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: Client,
    private readonly clock: Clock,
    private readonly component: string,
    private readonly logger?: Logger,
    options: EventRecorderOptions = {},
  ) {
    if (options.api === 'events.k8s.io/v1') {
      this.series = new SeriesEventWriter(client, clock, component, options.reportingInstance ?? `${component}-${os.hostname()}`);
    }
  }

  /**
   * Records an event; resolves when it is written (callers need not wait). `action` (what was done or
   * failed, e.g. "Reconcile") is written only to events.k8s.io/v1 Events, where it is required; it
   * defaults to the reason.
   */
  event(object: KubeObject, type: EventType, reason: string, message: string, action?: string): Promise<void> {
    // Serialised so that two quick repeats aggregate instead of racing to create two Events.
    const write = () => (this.series ? this.series.write(object, type, reason, message, action ?? reason) : this.writeCore(object, type, reason, message));
    this.chain = this.chain.then(write).catch((err: unknown) => {
      this.logger?.warn({ err: String(err), reason }, 'failed to record event');
    });
    return this.chain;
  }

  private async writeCore(object: KubeObject, type: EventType, reason: string, message: string): Promise<void> {
    const meta = object.metadata ?? {};
    const namespace = meta.namespace || 'default';
    const key = [meta.uid ?? `${meta.namespace}/${meta.name}`, object.kind, type, reason, message].join('\u0000');
    const now = new Date(Math.floor(this.clock.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    const previous = this.recorded.get(key);
    if (previous) {
      try {
        await this.client.patch<CoreEvent>({ apiVersion: 'v1', kind: 'Event', metadata: { namespace: previous.namespace, name: previous.name } } as CoreEvent, { count: previous.count + 1, lastTimestamp: now });
        previous.count++;
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    const name = await createEvent(meta.name, this.clock.now(), (name) =>
      this.client.create<CoreEvent>({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { namespace, name },
        involvedObject: { apiVersion: object.apiVersion, kind: object.kind, name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion },
        reason,
        message,
        type,
        source: { component: this.component },
        count: 1,
        firstTimestamp: now,
        lastTimestamp: now,
        reportingComponent: this.component,
      }),
    );
    this.recorded.set(key, { namespace, name, count: 1, firstTimestamp: now });
  }
}
