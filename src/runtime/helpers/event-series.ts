/**
 * events.k8s.io/v1 Events for the event recorder, as client-go's tools/events writes them: the first
 * occurrence is created with eventTime (MicroTime), reportingController, reportingInstance, action,
 * reason, regarding and note; every repeat of the same (regarding, action, reason, reporting controller)
 * grows the Event's `series` — count 2 on the first repeat, then +1 — and its lastObservedTime.
 * client-go batches series updates every 30 minutes; this writer patches on each repeat, so the stored
 * count is always current (more writes for a chatty controller, never a stale count).
 */
import type { Clock } from '../clock.js';
import { isNotFound } from '../client/api-error.js';
import type { Client } from '../client/client.js';
import type { KubeObject } from '../client/object.js';
import { microTime } from '../manager/leader-election.js';
import { createEvent } from './event-name.js';

interface SeriesEntry {
  namespace: string;
  name: string;
  /** Occurrences so far (1 = no series yet). */
  count: number;
}

export class SeriesEventWriter {
  private readonly known = new Map<string, SeriesEntry>();

  constructor(
    private readonly client: Client,
    private readonly clock: Clock,
    private readonly reportingController: string,
    private readonly reportingInstance: string,
  ) {}

  async write(object: KubeObject, type: string, reason: string, note: string, action: string): Promise<void> {
    const meta = object.metadata ?? {};
    // client-go's isomorphic-event key: the note is not part of it (a repeat keeps the first note).
    const key = [meta.uid ?? `${meta.namespace}/${meta.name}`, object.apiVersion, object.kind, action, reason].join('\u0000');
    const now = this.clock.now();
    const previous = this.known.get(key);
    if (previous) {
      const series = { count: previous.count + 1, lastObservedTime: microTime(now) };
      try {
        await this.client.patch({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { namespace: previous.namespace, name: previous.name } }, { series });
        previous.count = series.count;
        return;
      } catch (err) {
        if (!isNotFound(err)) throw err; // deleted (TTL): start a new Event
      }
    }
    const namespace = meta.namespace || 'default';
    const name = await createEvent(meta.name, now, (name) =>
      this.client.create({
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { namespace, name },
        eventTime: microTime(now),
        reportingController: this.reportingController,
        reportingInstance: this.reportingInstance,
        action,
        reason,
        regarding: { apiVersion: object.apiVersion, kind: object.kind, name: meta.name, namespace: meta.namespace, uid: meta.uid, resourceVersion: meta.resourceVersion },
        note,
        type,
      }),
    );
    this.known.set(key, { namespace, name, count: 1 });
  }
}
