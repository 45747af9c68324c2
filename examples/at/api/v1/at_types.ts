/*
Copyright 2026 The at Authors.

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
import type { JobSpec } from 'kubernetes-types/batch/v1.js';
import { groupVersion } from './groupversion_info.js';

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: JSON field names are the property names; `?` marks an optional field (Go's omitempty).

/** Annotation on the child Job holding the instant the Job was created (the upstream key, misspelling kept). */
export const scheduledTimeAnnotation = 'my.domain/schduledTime';

/**
 * Labels and annotations copied onto the created Job. (batch/v1 JobTemplateSpec's metadata would be emitted as
 * a bare `type: object`, which the API server prunes to `{}` in a v1 CRD; `kubeforge manifests` has no
 * `crd:generateEmbeddedObjectMeta` switch yet, so the two copied fields are declared here.)
 */
export interface JobTemplateMetadata {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** JobTemplateSpec describes the Job the AT creates: batch/v1 JobTemplateSpec with the metadata kept. */
export interface JobTemplateSpec {
  /** Standard object's metadata of the jobs created from this template. */
  metadata?: JobTemplateMetadata;
  /** Specification of the desired behavior of the job. */
  spec?: JobSpec;
}

/** ATSpec defines the desired state of AT */
export interface ATSpec {
  /** JobTemplate that is run by AT */
  jobTemplate: JobTemplateSpec;
  /** Time which we run this job */
  schedule: Time;
}

/** ATScheduleStatus is the phase of an AT. `Stale` is declared (as upstream) but never written. */
export type ATScheduleStatus = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Stale';

/** ATStatus defines the observed state of AT */
export interface ATStatus {
  /** Status of AT */
  // +optional
  lastScheduleTime?: Time;
  /** AT Status */
  // +optional
  status?: ATScheduleStatus;
}

/** AT is the Schema for the ats API. */
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="status",type=string,JSONPath=`.status.status`
// +kubebuilder:printcolumn:name="lastScheduleTime",type=string,JSONPath=`.status.lastScheduleTime`
// +kubebuilder:printcolumn:name="schdule",type=string,JSONPath=`.spec.schedule`
export interface AT {
  apiVersion: 'batch.my.domain/v1';
  kind: 'AT';
  metadata?: ObjectMeta;
  /** spec defines the desired state of AT. */
  spec: ATSpec;
  /** status defines the observed state of AT. */
  status?: ATStatus;
}

/** ATList contains a list of AT. */
// +kubebuilder:object:root=true
export interface ATList {
  apiVersion: 'batch.my.domain/v1';
  kind: 'ATList';
  metadata?: ListMeta;
  items: AT[];
}

/** The AT kind for the runtime's client, cache and builder (controller-runtime's scheme registration). */
export const ATKind = defineKind<AT>({ ...groupVersion, kind: 'AT', plural: 'ats', namespaced: true });
