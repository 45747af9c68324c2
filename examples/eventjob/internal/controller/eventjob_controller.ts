/*
Copyright 2026 The eventjob Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

/**
 * The EventJob controller: creates a Job each time an Event reports that the trigger's object (a built-in
 * CronJob) saw one of its Jobs finish with the wanted outcome (reference-operators.md §3.2–§3.5).
 */
import { randomInt } from 'node:crypto';
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { Event as CoreEvent } from 'kubernetes-types/core/v1.js';
import {
  BuiltinKinds,
  enqueueRequestsFromMapFunc,
  isNotFound,
  predicateFuncs,
  resourceVersionChanged,
  setControllerReference,
  type EventContext,
  type KubeObject,
  type Manager,
  type Predicate,
  type ReconcileContext,
  type Request,
  type Result,
} from 'kubeforge/runtime';
import { EventJobKind, type EventJob } from '../../api/v1/eventjob_types.js';
import { eventIndexValue, eventToAnswer, matchesTrigger, triggerIndex, triggerIndexValue } from './trigger_match.js';

// +kubebuilder:rbac:groups=batch.kitagry.github.io,resources=eventjobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=batch.kitagry.github.io,resources=eventjobs/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=batch.kitagry.github.io,resources=eventjobs/finalizers,verbs=update
// +kubebuilder:rbac:groups="",resources=events,verbs=get;list;watch
// +kubebuilder:rbac:groups=batch,resources=cronjobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;update;patch;delete

/** EventJobReconciler reconciles a EventJob object. */
export class EventJobReconciler {
  constructor(private readonly mgr: Manager) {}

  /**
   * Finds the newest Event of the namespace that fires this EventJob and is newer than its watermark;
   * creates one Job for it and moves the watermark to that Event's creation second.
   */
  async reconcile(request: Request, context: ReconcileContext): Promise<Result> {
    let eventJob: EventJob;
    try {
      // From the API server, not the cache: a watermark this controller just wrote must never be missed,
      // or a reconcile racing the status write's watch event would answer the same Event twice.
      eventJob = await this.mgr.apiReader().get(EventJobKind, request);
    } catch (err) {
      // Deleted after the request was queued: nothing to do (owned objects are garbage-collected).
      if (isNotFound(err)) return {};
      throw err;
    }
    const events = await this.mgr.client.list(BuiltinKinds.Event, { namespace: request.namespace });
    const answeredAt = eventToAnswer(eventJob, events);
    if (answeredAt === undefined) return {};

    const job = childJob(eventJob);
    await this.mgr.client.create(job);
    context.log.info({ job: job.metadata?.name, event: answeredAt }, 'created Job for a trigger Event');
    // Replaces the whole status (it has this one field). If this write fails the retry creates a second
    // Job for the same Event, as the reference does.
    await this.mgr.client.patchStatus(eventJob, { status: { last_scheduled_time: answeredAt } });
    return {};
  }
}

const suffixAlphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `<eventjob>-<5 random chars>`, the template's spec as is, no template labels or annotations, owned by the EventJob. */
export function childJob(eventJob: EventJob): Job {
  const suffix = Array.from({ length: 5 }, () => suffixAlphabet[randomInt(suffixAlphabet.length)]).join('');
  const job: Job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: `${eventJob.metadata?.name ?? ''}-${suffix}`, namespace: eventJob.metadata?.namespace },
    spec: structuredClone(eventJob.spec.jobTemplate.spec ?? { template: {} }),
  };
  setControllerReference(eventJob, job);
  return job;
}

/**
 * The reference's predicate for EventJobs and their Jobs: creates, deletes and generic events never
 * reconcile; updates do when the resourceVersion changed.
 */
function updatesOnly<T extends KubeObject>(): Predicate<T> {
  return predicateFuncs<T>({ create: () => false, delete: () => false, generic: () => false, update: resourceVersionChanged<T>().update });
}

/**
 * Every EventJob of the Event's namespace whose trigger the Event matches (§3.2): listed through the
 * trigger index by the context's client, which serves EventJobs from the manager's cache.
 */
async function eventJobsFiredBy(event: CoreEvent, { client }: EventContext): Promise<Request[]> {
  const candidates = await client.list(EventJobKind, { namespace: event.metadata?.namespace, matchingFields: { [triggerIndex]: eventIndexValue(event) } });
  return candidates.filter((ej) => matchesTrigger(ej.spec.trigger, event)).map((ej) => ({ namespace: ej.metadata!.namespace!, name: ej.metadata!.name! }));
}

/** Registers the EventJob controller with the manager (called from internal/controller/index.ts). */
export function setupEventJobController(mgr: Manager): void {
  mgr.indexField(EventJobKind, triggerIndex, triggerIndexValue);
  mgr
    .controllerFor(EventJobKind)
    .withPredicates(updatesOnly<EventJob>())
    .owns(BuiltinKinds.Job, { predicates: [updatesOnly<Job>()] })
    .watches(BuiltinKinds.Event, enqueueRequestsFromMapFunc(eventJobsFiredBy))
    .named('eventjob')
    .complete(new EventJobReconciler(mgr));
}
