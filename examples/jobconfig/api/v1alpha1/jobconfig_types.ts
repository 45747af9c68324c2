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

import type { int64, ListMeta, ObjectMeta, Time } from 'kubeforge/api';
import { defineKind } from 'kubeforge/runtime';
import { groupVersion } from './groupversion_info.js';
import type { JobPhase, JobTemplate } from './job_types.js';

// EDIT THIS FILE!  THIS IS SCAFFOLDING FOR YOU TO OWN!
// NOTE: JSON field names are the property names; `?` marks an optional field (Go's omitempty).
// The types below are Furiko's JobConfig (furiko-io/furiko apis/execution/v1alpha1/jobconfig_types.go) in
// TypeScript. As in Furiko, enumerations are checked by the admission webhooks, not by the CRD schema, so
// the denial messages are Furiko's; string unions here only type the TypeScript side.

/** JobConfigSpec defines the desired state of the JobConfig. */
export interface JobConfigSpec {
  /** Template for creating the Job. */
  template: JobTemplateSpec;

  /** Concurrency defines the behaviour of multiple concurrent Jobs. */
  concurrency: ConcurrencySpec;

  // +optional
  /** Schedule is an optional field that defines automatic scheduling of the JobConfig. */
  schedule?: ScheduleSpec;

  // +optional
  /**
   * Option is an optional field that defines how the JobConfig is parameterized. Each option defined here
   * can subsequently be used in the Template via context variable substitution as `${option.<name>}`.
   */
  option?: OptionSpec;
}

/** JobTemplateSpec specifies how to create a Job with metadata. */
export interface JobTemplateSpec {
  // +kubebuilder:validation:XPreserveUnknownFields
  // +optional
  /** Standard object's metadata (labels and annotations) that will be added to each Job. */
  metadata?: ObjectMeta;

  /** Specification of the desired behavior of the Job. */
  spec: JobTemplate;
}

/** ConcurrencySpec defines how to handle multiple concurrent Jobs for the JobConfig. */
export interface ConcurrencySpec {
  // +optional
  /** Policy describes how to treat concurrent executions of the same JobConfig: Allow, Forbid or Enqueue. */
  policy: ConcurrencyPolicy;

  // +optional
  /** Maximum number of Jobs that can be running concurrently for the same JobConfig. Cannot be specified with Allow. Defaults to 1. */
  maxConcurrency?: int64;
}

/** ConcurrencyPolicy describes how concurrent Jobs of one JobConfig are treated. */
export type ConcurrencyPolicy = 'Allow' | 'Forbid' | 'Enqueue';

/** The three concurrency policies, in Furiko's order (the order of the "supported values" message). */
export const CONCURRENCY_POLICIES: readonly ConcurrencyPolicy[] = ['Allow', 'Forbid', 'Enqueue'];

/** ScheduleSpec defines how a JobConfig should be automatically scheduled. */
export interface ScheduleSpec {
  // +optional
  /** Specify a schedule using cron expressions. */
  cron?: CronSchedule;

  // +optional
  /** If true, then automatic scheduling will be disabled for the JobConfig. */
  disabled?: boolean;

  // +optional
  /** Specifies any constraints that should apply to this Schedule. */
  constraints?: ScheduleConstraints;

  // +optional
  /**
   * Specifies the time that the schedule was last updated (set by the mutating webhook). This prevents
   * accidental back-scheduling of schedules before the update.
   */
  lastUpdated?: Time;
}

/** CronSchedule defines a Schedule based on cron format. Exactly one of expression and expressions is set. */
export interface CronSchedule {
  // +optional
  /** Cron expression (5 to 7 tokens, `H` allowed) saying how the JobConfig is periodically scheduled, e.g. "0 0/5 * * *". */
  expression?: string;

  // +listType=atomic
  // +optional
  /** Several cron expressions; the next schedule is the earliest over all of them. */
  expressions?: string[];

  // +optional
  /**
   * Timezone to interpret the cron schedule in: a tz name ("Asia/Singapore"), a UTC offset (UTC-10:00) or a
   * GMT offset (GMT+05:30). Defaults to the controller's default timezone.
   */
  timezone?: string;
}

/** ScheduleConstraints defines constraints for automatic scheduling (Furiko spells the Go type ScheduleContraints). */
export interface ScheduleConstraints {
  // +optional
  /** The earliest time that is allowed to be scheduled (inclusive). */
  notBefore?: Time;

  // +optional
  /** The latest time that is allowed to be scheduled (inclusive). */
  notAfter?: Time;
}

/** OptionSpec defines how a JobConfig is parameterized using Job Options. */
export interface OptionSpec {
  // +listType=atomic
  // +optional
  /** Options is a list of job options. */
  options?: Option[];
}

/** Option defines a single job option; exactly the config block matching `type` may be set. */
export interface Option {
  /** The type of the job option: Bool, String, Select, Multi or Date. */
  type: OptionType;

  /** The name of the job option, substituted as `${option.NAME}`. Must match ^[a-zA-Z_0-9.-]+$. */
  name: string;

  // +optional
  /** Label is an optional human-readable label for this option, purely for display. */
  label?: string;

  // +optional
  /** Required defines whether this option is required (forbidden on Bool options). */
  required?: boolean;

  // +optional
  /** Bool adds additional configuration for Bool options. */
  bool?: BoolOptionConfig;

  // +optional
  /** String adds additional configuration for String options. */
  string?: StringOptionConfig;

  // +optional
  /** Select adds additional configuration for Select options. */
  select?: SelectOptionConfig;

  // +optional
  /** Multi adds additional configuration for Multi options. */
  multi?: MultiOptionConfig;

  // +optional
  /** Date adds additional configuration for Date options. */
  date?: DateOptionConfig;
}

/** OptionType is the type of a job option. */
export type OptionType = 'Bool' | 'String' | 'Select' | 'Multi' | 'Date';

/** The option types, in Furiko's order (the order of the "supported values" message). */
export const OPTION_TYPES: readonly OptionType[] = ['Bool', 'String', 'Select', 'Multi', 'Date'];

/** BoolOptionConfig defines the options for Bool options. */
export interface BoolOptionConfig {
  /** Default value, used to populate the option if not specified. */
  default: boolean;

  // +optional
  /** How to format the value as a string: TrueFalse (default), OneZero, YesNo or Custom. */
  format?: BoolOptionFormat;

  // +optional
  /** With format Custom, substituted when the value is true (may be empty). */
  trueVal?: string;

  // +optional
  /** With format Custom, substituted when the value is false (may be empty). */
  falseVal?: string;
}

/** BoolOptionFormat describes how a Bool option is formatted. */
export type BoolOptionFormat = 'TrueFalse' | 'OneZero' | 'YesNo' | 'Custom';

/** The Bool formats, in Furiko's order. */
export const BOOL_OPTION_FORMATS: readonly BoolOptionFormat[] = ['TrueFalse', 'OneZero', 'YesNo', 'Custom'];

/** StringOptionConfig defines the options for String options. */
export interface StringOptionConfig {
  // +optional
  /** Optional default value, used to populate the option if not specified. */
  default?: string;

  // +optional
  /** Whether to trim spaces before substitution. */
  trimSpaces?: boolean;
}

/** SelectOptionConfig defines the options for Select options. */
export interface SelectOptionConfig {
  // +optional
  /** Default value, used to populate the option if not specified; must be one of values. */
  default?: string;

  // +listType=atomic
  // +optional
  /** List of values to be chosen from. */
  values: string[];

  // +optional
  /** Whether to allow custom values instead of just the list of allowed values. */
  allowCustom?: boolean;
}

/** MultiOptionConfig defines the options for Multi options. */
export interface MultiOptionConfig {
  // +listType=atomic
  // +optional
  /** Default values, used to populate the option if not specified. */
  default?: string[];

  // +optional
  /** Delimiter to join values by. */
  delimiter: string;

  // +listType=atomic
  // +optional
  /** List of values to be chosen from. */
  values: string[];

  // +optional
  /** Whether to allow custom values instead of just the list of allowed values. */
  allowCustom?: boolean;
}

/** DateOptionConfig defines the options for Date options. */
export interface DateOptionConfig {
  // +optional
  /** Date format in moment.js tokens; empty means YYYY-MM-DDTHH:mm:ssZ (RFC 3339). */
  format?: string;
}

/** JobConfigStatus defines the observed state of the JobConfig. */
export interface JobConfigStatus {
  /** Human-readable and high-level representation of the status of the JobConfig. */
  state: JobConfigState;

  // +optional
  /** Total number of Jobs queued (not yet started) for the JobConfig. Always serialised. */
  queued: int64;

  // +listType=atomic
  // +optional
  /** The Jobs queued for the JobConfig, oldest first. */
  queuedJobs?: JobReference[];

  // +optional
  /** Total number of active (started, not finished) Jobs of the JobConfig. Always serialised. */
  active: int64;

  // +listType=atomic
  // +optional
  /** The active Jobs of the JobConfig, oldest first. */
  activeJobs?: JobReference[];

  // +optional
  /** The last known schedule time of this JobConfig; never decreases. */
  lastScheduled?: Time;

  // +optional
  /** The last time a Job of this JobConfig was started, scheduled or ad hoc. */
  lastExecuted?: Time;
}

/** JobConfigState is the high-level state of a JobConfig. */
export type JobConfigState = 'Ready' | 'ReadyEnabled' | 'ReadyDisabled' | 'JobQueued' | 'Executing';

/** JobReference points to a Job of the JobConfig. */
export interface JobReference {
  /** UID of the Job. */
  uid: string;

  /** Name of the Job. */
  name: string;

  /** Timestamp that the Job was created. */
  creationTimestamp: Time;

  /** Phase of the Job. */
  phase: JobPhase;

  // +optional
  /** Timestamp that the Job was started. */
  startTime?: Time;
}

// +kubebuilder:object:root=true
// +kubebuilder:resource:shortName=furikojobconfig;furikojobconfigs
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:printcolumn:name="State",type=string,JSONPath=`.status.state`
// +kubebuilder:printcolumn:name="Active",type=string,JSONPath=`.status.active`
// +kubebuilder:printcolumn:name="Queued",type=string,JSONPath=`.status.queued`
// +kubebuilder:printcolumn:name="Last Executed",type=date,JSONPath=`.status.lastExecuted`
// +kubebuilder:printcolumn:name="Last Scheduled",type=date,JSONPath=`.status.lastScheduled`
// +kubebuilder:printcolumn:name="Cron Schedule",type=string,JSONPath=`.spec.schedule.cron.expression`
// +kubebuilder:printcolumn:name="Timezone",type=string,JSONPath=`.spec.schedule.cron.timezone`
/** JobConfig is the schema for a single job configuration. Multiple Job objects belong to a single JobConfig. */
export interface JobConfig {
  apiVersion: 'execution.furiko.io/v1alpha1';
  kind: 'JobConfig';
  // +optional
  metadata?: ObjectMeta;
  // +optional
  spec: JobConfigSpec;
  // +optional
  status?: JobConfigStatus;
}

// +kubebuilder:object:root=true
/** JobConfigList contains a list of JobConfig objects. */
export interface JobConfigList {
  apiVersion: 'execution.furiko.io/v1alpha1';
  kind: 'JobConfigList';
  metadata?: ListMeta;
  items: JobConfig[];
}

/** The JobConfig kind for the runtime's client, cache and builder (controller-runtime's scheme registration). */
export const JobConfigKind = defineKind<JobConfig>({ ...groupVersion, kind: 'JobConfig', plural: 'jobconfigs', namespaced: true });
