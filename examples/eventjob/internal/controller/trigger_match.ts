/**
 * Which core/v1 Events fire an EventJob, as pure functions: the `.spec.trigger` index value, the match of a
 * trigger against an Event (reference-operators.md §3.2 with KF-EJ-1 and KF-EJ-2), and the watermark walk
 * that picks the Event a reconcile answers with a Job (§3.3 step 3).
 */
import type { Event as CoreEvent } from 'kubernetes-types/core/v1.js';
import type { EventJob, Trigger } from '../../api/v1/eventjob_types.js';

/** Field index on EventJobs: `<apiVersion>/<kind>` of the trigger; EventJobs missing either are not indexed. */
export const triggerIndex = '.spec.trigger';

export function triggerIndexValue(eventJob: EventJob): string | undefined {
  const { apiVersion, kind } = eventJob.spec.trigger;
  return apiVersion && kind ? `${apiVersion}/${kind}` : undefined;
}

/** The index value an Event looks EventJobs up with. */
export function eventIndexValue(event: CoreEvent): string {
  return `${event.involvedObject.apiVersion ?? ''}/${event.involvedObject.kind ?? ''}`;
}

/**
 * KF-EJ-1: as the original, any message ending in `status: <type>` counts (the built-in CronJob controller's
 * `SawCompletedJob` ends with `, status: <type>` in older releases); the `condition: <type>` ending of current
 * releases counts too. What precedes the ending does not matter.
 */
export function messageReportsOutcome(message: string | undefined, type: string): boolean {
  const text = message ?? '';
  return text.endsWith(`status: ${type}`) || text.endsWith(`condition: ${type}`);
}

/** Mapping-time match (§3.2): the outcome suffix and the involved object's name. */
export function matchesTrigger(trigger: Trigger, event: CoreEvent): boolean {
  return messageReportsOutcome(event.message, trigger.type) && event.involvedObject.name === trigger.name;
}

/** KF-EJ-2: reconcile-time match also requires the involved object's apiVersion and kind. */
export function firesTrigger(trigger: Trigger, event: CoreEvent): boolean {
  return matchesTrigger(trigger, event) && event.involvedObject.apiVersion === trigger.apiVersion && event.involvedObject.kind === trigger.kind;
}

/**
 * The creationTimestamp of the newest Event that fires `eventJob` and is strictly newer than its watermark
 * `status.last_scheduled_time`, or undefined. Newest first; the walk stops at the first Event older than the
 * watermark, and Events of exactly the watermark second are skipped (so one Event never fires twice).
 */
export function eventToAnswer(eventJob: EventJob, events: readonly CoreEvent[]): string | undefined {
  const watermark = eventJob.status?.last_scheduled_time ? Date.parse(eventJob.status.last_scheduled_time) : Number.NEGATIVE_INFINITY;
  const newestFirst = events
    .filter((e) => e.metadata?.creationTimestamp)
    .map((e) => ({ event: e, at: Date.parse(e.metadata!.creationTimestamp!) }))
    .sort((a, b) => b.at - a.at);
  for (const { event, at } of newestFirst) {
    if (at < watermark) return undefined;
    if (at > watermark && firesTrigger(eventJob.spec.trigger, event)) return event.metadata!.creationTimestamp!;
  }
  return undefined;
}
