/**
 * The event recorder: core/v1 Events about an object, as `kubectl describe` shows them. Repeats of the
 * same event (object, type, reason, message) are aggregated into one Event whose `count` and
 * `lastTimestamp` grow, as client-go's correlator does. Recording never throws: failures are logged.
 */
import type { Event as CoreEvent } from 'kubernetes-types/core/v1.js';
import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import { isNotFound } from '../client/api-error.js';
import type { Client } from '../client/client.js';
import type { KubeObject } from '../client/object.js';

export type EventType = 'Normal' | 'Warning';

interface Recorded {
  namespace: string;
  name: string;
  count: number;
  firstTimestamp: string;
}

export class EventRecorder {
  private readonly recorded = new Map<string, Recorded>();
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: Client,
    private readonly clock: Clock,
    private readonly component: string,
    private readonly logger?: Logger,
  ) {}

  /** Records an event; resolves when it is written (callers need not wait). */
  event(object: KubeObject, type: EventType, reason: string, message: string): Promise<void> {
    // Serialised so that two quick repeats aggregate instead of racing to create two Events.
    this.chain = this.chain.then(() => this.write(object, type, reason, message)).catch((err: unknown) => {
      this.logger?.warn({ err: String(err), reason }, 'failed to record event');
    });
    return this.chain;
  }

  private async write(object: KubeObject, type: EventType, reason: string, message: string): Promise<void> {
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
    const name = `${meta.name}.${(BigInt(this.clock.now()) * 1_000_000n + BigInt(this.recorded.size % 1000)).toString(16)}`;
    await this.client.create<CoreEvent>({
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
    });
    this.recorded.set(key, { namespace, name, count: 1, firstTimestamp: now });
  }
}
