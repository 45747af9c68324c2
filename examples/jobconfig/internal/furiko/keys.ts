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

/** Furiko's label, annotation and finalizer keys (reference-operators spec §4.1), all under `execution.furiko.io/`. */
const prefix = 'execution.furiko.io/';

/** Label on a Job: UID of the owning JobConfig (immutable). */
export const LABEL_JOB_CONFIG_UID = `${prefix}job-config-uid`;
/** Annotation on a scheduled Job: decimal Unix seconds of its schedule instant. */
export const ANNOTATION_SCHEDULE_TIME = `${prefix}schedule-time`;
/** Annotation on a Job with option values: hex hash of the JobConfig's OptionSpec at admission. */
export const ANNOTATION_OPTION_SPEC_HASH = `${prefix}option-spec-hash`;
/** Annotation on a Job: its presence makes the Job terminal with result AdmissionError. */
export const ANNOTATION_ADMISSION_ERROR = `${prefix}admission-error`;
/** Finalizer on a Job, removed by the JobController once all its tasks are gone. */
export const FINALIZER_DELETE_DEPENDENTS = `${prefix}delete-dependents-finalizer`;
/** Label on a task Pod: UID of its Job. */
export const LABEL_JOB_UID = `${prefix}job-uid`;
/** Label on a task Pod: its retry index (decimal). */
export const LABEL_TASK_RETRY_INDEX = `${prefix}task-retry-index`;
/** Label on a task Pod: the 6-character hash of its parallel index. */
export const LABEL_TASK_PARALLEL_INDEX_HASH = `${prefix}task-parallel-index-hash`;
/** Annotation on a task Pod: the JSON of its parallel index. */
export const ANNOTATION_TASK_PARALLEL_INDEX = `${prefix}task-parallel-index`;
