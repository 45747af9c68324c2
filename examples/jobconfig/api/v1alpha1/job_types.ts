/*
Copyright 2026 The jobconfig Authors.

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

import type { int32, int64, ListMeta, ObjectMeta, Time } from 'kubeforge/api';
import type { PodSpec } from 'kubernetes-types/core/v1.js';
import { defineKind } from 'kubeforge/runtime';
import { groupVersion } from './groupversion_info.js';
import type { ConcurrencyPolicy } from './jobconfig_types.js';

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: JSON field names are the property names; `?` marks an optional field (Go's omitempty).
// The types below are Furiko's Job (furiko-io/furiko apis/execution/v1alpha1/{job,task}_types.go) in
// TypeScript. Enumerations are checked by the admission webhooks (as in Furiko), not by the CRD schema.

/** JobSpec defines the desired state of a Job. */
export interface JobSpec {
  // +optional
  /**
   * ConfigName names the JobConfig (same namespace) to create the Job from. A write-only input: the
   * mutating webhook copies the JobConfig's template, labels, annotations and owner reference, then clears it.
   */
  configName?: string;

  // +optional
  /** Specifies the type of Job: Adhoc (the webhook default) or Scheduled (set by the cron controller). Immutable. */
  type?: JobType;

  // +optional
  /** Specifies conditions which have to be met before the Job is started. */
  startPolicy?: StartPolicySpec;

  // +optional
  /** Template specifies how to create the Job's tasks (the webhook defaults it to {} when absent). */
  template?: JobTemplate;

  // +optional
  /**
   * Key-value pairs of values for the JobConfig's options, in JSON or YAML; evaluated at admission into
   * `option.<name>` substitutions and re-serialised as compact JSON. Immutable.
   */
  optionValues?: string;

  // +optional
  /** Context variables (`<context>.<name>` → value) substituted into the task template; highest precedence. Immutable. */
  substitutions?: Record<string, string>;

  // +optional
  /** When this time passes, all tasks are killed and the Job ends Killed. Cannot be changed once passed. */
  killTimestamp?: Time;

  // +optional
  /** Seconds after finishing that the Job is deleted (the webhook defaults it from the controller config). */
  ttlSecondsAfterFinished?: int64;
}

/** JobType says how a Job came to be. */
export type JobType = 'Adhoc' | 'Scheduled';

/** The Job types, in Furiko's order (the order of the "supported values" message). */
export const JOB_TYPES: readonly JobType[] = ['Adhoc', 'Scheduled'];

/** StartPolicySpec specifies conditions that have to be met before a Job can be started. */
export interface StartPolicySpec {
  // +optional
  /** The behaviour when there are other concurrent Jobs for the JobConfig: Allow, Forbid or Enqueue. */
  concurrencyPolicy: ConcurrencyPolicy;

  // +optional
  /** The earliest time that the Job may be started (inclusive). */
  startAfter?: Time;
}

/** JobTemplate specifies how to create the Job's tasks. */
export interface JobTemplate {
  // +optional
  /** Defines the template to create a single task in the Job (validated by the webhook: exactly one kind). */
  taskTemplate: TaskTemplate;

  // +optional
  /** Describes how to run multiple tasks in parallel; without it there is at most one task at a time. */
  parallelism?: ParallelismSpec;

  // +optional
  /** Maximum attempts (per parallel index) before the Job terminates in failure; 1 to 50, defaults to 1. */
  maxAttempts?: int64;

  // +optional
  /** Seconds to wait between retries of the same index, measured from its last finish; empty means no delay. */
  retryDelaySeconds?: int64;

  // +optional
  /** Seconds a task may stay pending before it is killed; defaulted from the controller config, 0 disables. */
  taskPendingTimeoutSeconds?: int64;

  // +optional
  /** If true, tasks are never force deleted, even on an unresponsive node. */
  forbidTaskForceDeletion?: boolean;
}

/** TaskTemplate defines how to create a single task for the Job. Exactly one field must be specified. */
export interface TaskTemplate {
  // +optional
  /** Describes how to create tasks as Pods. */
  pod?: PodTemplateSpec;
}

/** PodTemplateSpec describes the data a task Pod should have when created from a template. */
export interface PodTemplateSpec {
  // +kubebuilder:validation:XPreserveUnknownFields
  // +optional
  /** Standard object's metadata (labels and annotations), added to the Pod when created. */
  metadata?: ObjectMeta;

  // +kubebuilder:validation:Type=object
  // +kubebuilder:validation:Schemaless
  // +kubebuilder:validation:XPreserveUnknownFields
  // +optional
  /**
   * Specification of the desired behavior of the Pod (validated by the webhook with the core Pod rules).
   * Supports context variable substitution in image, command, args and env.value of containers and initContainers.
   */
  spec?: PodSpec;
}

/** ParallelismSpec specifies how to run multiple tasks in parallel in a Job; exactly one of withCount, withKeys and withMatrix. */
export interface ParallelismSpec {
  // +optional
  /** Runs this many tasks in parallel; the index is `${task.index_num}`. */
  withCount?: int64;

  // +listType=atomic
  // +optional
  /** Runs one task per key; the key is `${task.index_key}`. */
  withKeys?: string[];

  // +mapType=atomic
  // +optional
  /** Runs one task per combination of the matrix values; each is `${task.index_matrix.<key>}`. */
  withMatrix?: Record<string, string[]>;

  // +optional
  /** When the parallel Job completes: AllSuccessful (default) or AnySuccessful. */
  completionStrategy?: ParallelCompletionStrategy;
}

/** ParallelCompletionStrategy defines when a parallel Job is complete. */
export type ParallelCompletionStrategy = 'AllSuccessful' | 'AnySuccessful';

/** JobStatus defines the observed state of a Job. */
export interface JobStatus {
  /** Phase stores the high-level description of a Job's state. */
  phase: JobPhase;

  /** State stores the high-level state of the Job's current condition: Queued, Waiting, Running or Finished. */
  state: JobState;

  /** Condition stores details about the Job's current condition. */
  condition: JobCondition;

  // +optional
  /** The time the Job was started by the controller; unset means the Job is queued. Never changes once set. */
  startTime?: Time;

  /** How many tasks were created in total for this Job. */
  createdTasks: int64;

  /** How many tasks are currently running for this Job. */
  runningTasks: int64;

  // +listType=atomic
  // +optional
  /** The tasks created by the controller, sorted by creation time then name. */
  tasks?: TaskRef[];

  // +optional
  /** The status of parallel execution; only set when the Job's template has parallelism. */
  parallelStatus?: ParallelStatus;
}

/** JobPhase is the high-level phase of a Job. */
export type JobPhase =
  | 'Queued'
  | 'Starting'
  | 'Pending'
  | 'Running'
  | 'Terminating'
  | 'RetryBackoff'
  | 'Retrying'
  | 'Killing'
  | 'Succeeded'
  | 'Failed'
  | 'Killed'
  | 'AdmissionError'
  | 'FinishedUnknown';

/** The phases after which a Job never changes phase again. */
export const TERMINAL_JOB_PHASES: readonly JobPhase[] = ['Succeeded', 'Failed', 'Killed', 'AdmissionError', 'FinishedUnknown'];

/** isTerminalPhase says whether a Job in `phase` is finished for good. */
export function isTerminalPhase(phase: JobPhase | undefined): boolean {
  return phase !== undefined && TERMINAL_JOB_PHASES.includes(phase);
}

/** JobState is a simplified representation of a Job's phase. */
export type JobState = 'Queued' | 'Waiting' | 'Running' | 'Finished';

/** JobCondition holds the Job's current condition; exactly one member is set. */
export interface JobCondition {
  // +optional
  /** Set while the Job is not started and is queued. */
  queueing?: JobConditionQueueing;

  // +optional
  /** Set while the Job waits for at least one task to be created and start running. */
  waiting?: JobConditionWaiting;

  // +optional
  /** Set when all tasks have started running. */
  running?: JobConditionRunning;

  // +optional
  /** Set when all tasks have terminated. */
  finished?: JobConditionFinished;
}

/** JobConditionQueueing stores the status of a Job currently in the queue. */
export interface JobConditionQueueing {
  // +optional
  /** Unique, one-word, CamelCase reason for the condition. */
  reason?: string;
  // +optional
  /** Descriptive message explaining the condition. */
  message?: string;
}

/** JobConditionWaiting stores the status of a currently waiting Job. */
export interface JobConditionWaiting {
  // +optional
  /** Unique, one-word, CamelCase reason for the condition. */
  reason?: string;
  // +optional
  /** Descriptive message explaining the condition. */
  message?: string;
}

/** JobConditionRunning stores the status of a currently running Job. */
export interface JobConditionRunning {
  /** The creation time of the latest task created by the controller. */
  latestTaskCreationTimestamp: Time;

  /** The time at which the latest task started running. */
  latestRunningTimestamp: Time;

  // +optional
  /** Number of tasks waiting to be terminated. */
  terminatingTasks?: int64;
}

/** JobConditionFinished stores the final result of a finished Job. */
export interface JobConditionFinished {
  // +optional
  /** The creation time of the latest task; unset if no task was ever created. */
  latestCreationTimestamp?: Time;

  // +optional
  /** The time the latest task started running; unset if no task ever ran. */
  latestRunningTimestamp?: Time;

  /** The time at which the Job was first marked as finished. */
  finishTime: Time;

  /** The result of the Job. */
  result: JobResult;

  // +optional
  /** Unique, one-word, CamelCase reason for the result. */
  reason?: string;

  // +optional
  /** Descriptive message explaining the result. */
  message?: string;
}

/** JobResult is the result of a finished Job. */
export type JobResult = 'Success' | 'Failed' | 'AdmissionError' | 'Killed' | 'FinalStateUnknown';

/** TaskRef stores information about one of the Job's tasks, kept after the task itself is gone. */
export interface TaskRef {
  /** Name of the task (in the Job's namespace). */
  name: string;

  /** Creation time of the task. */
  creationTimestamp: Time;

  // +optional
  /** When the task was first seen running. */
  runningTimestamp?: Time;

  // +optional
  /** When the task finished; always set once it has finished. */
  finishTimestamp?: Time;

  /** The retry index of the task, from 0 up to maxAttempts - 1. */
  retryIndex: int64;

  // +optional
  /** The parallel index of the task. */
  parallelIndex?: ParallelIndex;

  /** Status of the task, reconciled from the task object. */
  status: TaskStatus;

  // +optional
  /** A tombstone status used once the task object has been deleted. */
  deletedStatus?: TaskStatus;

  // +optional
  /** Node the task was bound to; empty if never scheduled. */
  nodeName?: string;

  // +listType=atomic
  /** States of each container of the task. */
  containerStates: TaskContainerState[];
}

/** TaskStatus stores the last known status of a task. */
export interface TaskStatus {
  /** State of the task. */
  state: TaskState;

  // +optional
  /** If the state is Terminated, the result of the task. */
  result?: TaskResult;

  // +optional
  /** Unique, one-word, CamelCase reason for the task's status. */
  reason?: string;

  // +optional
  /** Descriptive message for the task's status. */
  message?: string;
}

/** TaskState is the state of a task. */
export type TaskState = 'Starting' | 'Running' | 'Killing' | 'Terminated' | 'DeletedFinalStateUnknown';

/** TaskResult is the result of a terminated task. */
export type TaskResult = 'Succeeded' | 'Failed' | 'Killed';

/** TaskContainerState is the last known state of one container of a task. */
export interface TaskContainerState {
  /** Exit status from the last termination of the container. */
  exitCode: int32;

  // +optional
  /** Signal from the last termination of the container. */
  signal?: int32;

  // +optional
  /** Unique, one-word, CamelCase reason for the container's status. */
  reason?: string;

  // +optional
  /** Message regarding the container's status. */
  message?: string;

  // +optional
  /** Container ID; empty if the container is not yet created. */
  containerID?: string;
}

/** ParallelIndex identifies one parallel task of a Job; exactly one member is set. */
export interface ParallelIndex {
  // +optional
  /** With withCount: the index number, 0 to N-1. */
  indexNumber?: int64;

  // +optional
  /** With withKeys: the index key. */
  indexKey?: string;

  // +mapType=atomic
  // +optional
  /** With withMatrix: the matrix key-value pairs of the task. */
  matrixValues?: Record<string, string>;
}

/** ParallelStatus stores the status of the parallel indexes of a Job. */
export interface ParallelStatus {
  /** If true, the Job is complete and waits for its remaining tasks to terminate. */
  complete: boolean;

  // +optional
  /** If complete, whether the Job succeeded according to its completion strategy. */
  successful?: boolean;

  // +listType=atomic
  /** The status of each parallel index; exactly as many as the parallelism factor. */
  indexes: ParallelIndexStatus[];
}

/** ParallelIndexStatus stores the status of one parallel index. */
export interface ParallelIndexStatus {
  /** The parallel index. */
  index: ParallelIndex;

  /** Hash of the index (6 characters). */
  hash: string;

  /** Total number of tasks created for this index. */
  createdTasks: int64;

  /** Overall state of the index. */
  state: IndexState;

  // +optional
  /** Result of the index once terminated. */
  result?: TaskResult;
}

/** IndexState is the state of one parallel index. */
export type IndexState = 'NotCreated' | 'RetryBackoff' | 'Starting' | 'Running' | 'Terminated';

// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=furikojob;furikojobs
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Created Tasks",type=string,JSONPath=`.status.createdTasks`
// +kubebuilder:printcolumn:name="Running Tasks",type=string,JSONPath=`.status.runningTasks`
// +kubebuilder:printcolumn:name="Run Time",type=date,JSONPath=`.status.condition.running.latestRunningTimestamp`
// +kubebuilder:printcolumn:name="Finish Time",type=date,JSONPath=`.status.condition.finished.finishTime`
/** Job is the schema for a single job execution, which may consist of multiple tasks. */
export interface Job {
  apiVersion: 'execution.furiko.io/v1alpha1';
  kind: 'Job';
  // +optional
  metadata?: ObjectMeta;
  // +optional
  spec: JobSpec;
  // +optional
  status?: JobStatus;
}

// +kubebuilder:object:root=true
/** JobList contains a list of Job. */
export interface JobList {
  apiVersion: 'execution.furiko.io/v1alpha1';
  kind: 'JobList';
  metadata?: ListMeta;
  items: Job[];
}

/** The Job kind for the runtime's client, cache and builder (controller-runtime's scheme registration). */
export const JobKind = defineKind<Job>({ ...groupVersion, kind: 'Job', plural: 'jobs', namespaced: true });
