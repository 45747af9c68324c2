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

import type { ListMeta, ObjectMeta, Time } from 'kubeforge/api';
import { defineKind } from 'kubeforge/runtime';
import type { JobTemplateSpec } from 'kubernetes-types/batch/v1.js';
import { groupVersion } from './groupversion_info.js';

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: JSON field names are the property names; `?` marks an optional field (Go's omitempty).

/**
 * Trigger names the object whose Events start a Job. `apiVersion`/`kind` select Events through the
 * `.spec.trigger` index (both must be set for the EventJob to ever fire); `name` must equal the Event's
 * involved object and `type` the finished Job's outcome at the end of its message (`Complete`, `Failed`).
 */
export interface Trigger {
  /** API version of the involved object, e.g. batch/v1. */
  apiVersion?: string;
  /** Kind of the involved object, e.g. CronJob. */
  kind?: string;
  /** Name of the involved object. */
  name: string;
  /** Outcome to react to: the message must end with `status: <type>` or `condition: <type>`. */
  type: string;
}

/** EventJobSpec defines the desired state of EventJob */
export interface EventJobSpec {
  /** Which Events start a Job. */
  trigger: Trigger;
  /** The Job to create; only its spec is used. */
  jobTemplate: JobTemplateSpec;
}

/** EventJobStatus defines the observed state of EventJob */
export interface EventJobStatus {
  /** creationTimestamp of the last Event that produced a Job (the duplicate watermark). */
  last_scheduled_time: Time;
}

/** EventJob is the Schema for the eventjobs API. */
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
export interface EventJob {
  apiVersion: 'batch.kitagry.github.io/v1';
  kind: 'EventJob';
  metadata?: ObjectMeta;
  /** spec defines the desired state of EventJob. */
  spec: EventJobSpec;
  /** status defines the observed state of EventJob. */
  status?: EventJobStatus;
}

/** EventJobList contains a list of EventJob. */
// +kubebuilder:object:root=true
export interface EventJobList {
  apiVersion: 'batch.kitagry.github.io/v1';
  kind: 'EventJobList';
  metadata?: ListMeta;
  items: EventJob[];
}

/** The EventJob kind for the runtime's client, cache and builder (controller-runtime's scheme registration). */
export const EventJobKind = defineKind<EventJob>({ ...groupVersion, kind: 'EventJob', plural: 'eventjobs', namespaced: true });
