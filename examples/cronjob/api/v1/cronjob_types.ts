/*
Copyright 2026 The project Authors.

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

import type { Condition, int32, int64, ListMeta, ObjectMeta, Time } from 'kubeforge/api';
import type { JobTemplateSpec } from 'kubernetes-types/batch/v1.js';
import type { ObjectReference } from 'kubernetes-types/core/v1.js';
import { defineKind } from 'kubeforge/runtime';
import { groupVersion } from './groupversion_info.js';

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: JSON field names are the property names; `?` marks an optional field (Go's omitempty).
// The types below are the kubebuilder book's CronJob tutorial (api/v1/cronjob_types.go) in TypeScript.

/** CronJobSpec defines the desired state of CronJob */
export interface CronJobSpec {
  // +kubebuilder:validation:MinLength=0
  // +required
  /** schedule in Cron format, see https://en.wikipedia.org/wiki/Cron. */
  schedule: string;

  // +kubebuilder:validation:Minimum=0
  // +optional
  /** startingDeadlineSeconds is the optional deadline in seconds for starting the job if it misses scheduled time for any reason. */
  startingDeadlineSeconds?: int64;

  // +optional
  // +kubebuilder:default:=Allow
  /**
   * concurrencyPolicy specifies how to treat concurrent executions of a Job.
   * Valid values are:
   * - "Allow" (default): allows CronJobs to run concurrently;
   * - "Forbid": forbids concurrent runs, skipping next run if previous run hasn't finished yet;
   * - "Replace": cancels currently running job and replaces it with a new one
   */
  concurrencyPolicy?: ConcurrencyPolicy;

  // +optional
  /** suspend tells the controller to suspend subsequent executions, it does not apply to already started executions. */
  suspend?: boolean;

  // +required
  /** jobTemplate defines the job that will be created when executing a CronJob. */
  jobTemplate: JobTemplateSpec;

  // +kubebuilder:validation:Minimum=0
  // +optional
  /** successfulJobsHistoryLimit defines the number of successful finished jobs to retain. */
  successfulJobsHistoryLimit?: int32;

  // +kubebuilder:validation:Minimum=0
  // +optional
  /** failedJobsHistoryLimit defines the number of failed finished jobs to retain. */
  failedJobsHistoryLimit?: int32;
}

// +kubebuilder:validation:Enum=Allow;Forbid;Replace
/** ConcurrencyPolicy describes how the job will be handled. Only one of the following concurrent policies may be specified. */
export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Replace';

/** CronJobStatus defines the observed state of CronJob. */
export interface CronJobStatus {
  // +optional
  // +listType=atomic
  // +kubebuilder:validation:MinItems=1
  // +kubebuilder:validation:MaxItems=10
  /** active defines a list of pointers to currently running jobs. */
  active?: ObjectReference[];

  // +optional
  /** lastScheduleTime defines when was the last time the job was successfully scheduled. */
  lastScheduleTime?: Time;

  // +listType=map
  // +listMapKey=type
  // +optional
  /** conditions represent the current state of the CronJob resource. */
  conditions?: Condition[];
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:storageversion

/** CronJob is the Schema for the cronjobs API. v1 is the storage version and the conversion hub (cronjob_conversion.ts). */
export interface CronJob {
  apiVersion: 'batch.tutorial.kubebuilder.io/v1';
  kind: 'CronJob';
  // +optional
  metadata?: ObjectMeta;
  // +required
  spec: CronJobSpec;
  // +optional
  status?: CronJobStatus;
}

// +kubebuilder:object:root=true

/** CronJobList contains a list of CronJob */
export interface CronJobList {
  apiVersion: 'batch.tutorial.kubebuilder.io/v1';
  kind: 'CronJobList';
  metadata?: ListMeta;
  items: CronJob[];
}

/** The CronJob kind for the runtime's client, cache and builder (controller-runtime's scheme registration). */
export const CronJobKind = defineKind<CronJob>({ ...groupVersion, kind: 'CronJob', plural: 'cronjobs', namespaced: true });
