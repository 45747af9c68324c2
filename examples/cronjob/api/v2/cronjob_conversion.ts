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

/**
 * CronJob v2 is a conversion spoke: it converts to and from the hub, CronJob v1. The
 * conversion webhook calls these for every CronJob the API server reads or writes in v2;
 * cronjob_conversion.test.ts checks that round trips through the hub lose nothing.
 *
 * As in the kubebuilder book's multiversion tutorial, v1's schedule string is split on spaces into v2's
 * five cron fields (`*` becomes an unset field) and joined back. The tutorial fails a v1 schedule that
 * is not five fields (`@hourly`, `@every 90s`, which v1 accepts); here no CronJob is ever unreadable in
 * v2: what one version cannot hold travels in an annotation of the other and comes back from it, as
 * Kubernetes' API conventions ask of conversions, so every round trip gives the object back.
 */
import type { Convertible } from 'kubeforge/runtime';
import type { CronJob as CronJobV1 } from '../v1/cronjob_types.js';
import { CronJobKind, type CronJob, type CronSchedule } from './cronjob_types.js';

/** On a v2 CronJob: the v1 schedule that is not five cron fields (its `schedule` is then `{}`). */
export const V1_SCHEDULE_ANNOTATION = 'batch.tutorial.kubebuilder.io/v1-schedule';
/** On a v1 CronJob: v2's schedule (JSON) when joining its fields loses something (a field with a space, an explicit `*`). */
export const V2_SCHEDULE_ANNOTATION = 'batch.tutorial.kubebuilder.io/v2-schedule';

const FIELDS = ['minute', 'hour', 'dayOfMonth', 'month', 'dayOfWeek'] as const;

/** v2's schedule as a v1 cron string: the fields in order, `*` for an unset one (the tutorial's ConvertTo). */
export function joinSchedule(schedule: CronSchedule): string {
  return FIELDS.map((field) => schedule[field] ?? '*').join(' ');
}

/** A v1 cron string as v2's schedule, or undefined when it is not five space-separated fields (the tutorial's ConvertFrom). */
export function splitSchedule(schedule: string): CronSchedule | undefined {
  const parts = schedule.split(' ');
  if (parts.length !== FIELDS.length) return undefined;
  const split: CronSchedule = {};
  FIELDS.forEach((field, i) => {
    if (parts[i] !== '*') split[field] = parts[i];
  });
  return split;
}

function sameSchedule(a: CronSchedule, b: CronSchedule): boolean {
  return FIELDS.every((field) => a[field] === b[field]);
}

function isEmpty(schedule: CronSchedule): boolean {
  return FIELDS.every((field) => schedule[field] === undefined);
}

/** Takes `key` out of the object's annotations (and drops the map when that empties it); returns its value. */
function takeAnnotation(object: { metadata?: { annotations?: Record<string, string> } }, key: string): string | undefined {
  const annotations = object.metadata?.annotations;
  if (annotations?.[key] === undefined) return undefined;
  const value = annotations[key];
  delete annotations[key];
  if (Object.keys(annotations).length === 0) delete object.metadata!.annotations;
  return value;
}

function putAnnotation(object: { metadata?: { annotations?: Record<string, string> } }, key: string, value: string): void {
  object.metadata ??= {};
  object.metadata.annotations = { ...object.metadata.annotations, [key]: value };
}

/** The v2 schedule kept in V2_SCHEDULE_ANNOTATION; one that is not a JSON object of strings is ignored. */
function parseKeptSchedule(text: string | undefined): CronSchedule | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const schedule: CronSchedule = {};
    for (const field of FIELDS) {
      const part = (value as Record<string, unknown>)[field];
      if (typeof part === 'string') schedule[field] = part;
    }
    return schedule;
  } catch {
    return undefined;
  }
}

export const CronJobV2Convertible: Convertible<CronJob, CronJobV1> = {
  spoke: CronJobKind,

  /** Converts this v2 CronJob (`src`) to the hub version v1 (`dst`, with apiVersion, kind and metadata set). */
  convertTo(src, dst) {
    if (src.status) dst.status = src.status;
    const { schedule, ...rest } = src.spec;
    // A v1 schedule v2 could not split comes back from its annotation, unless v2's fields were set since.
    const keptV1Schedule = takeAnnotation(dst, V1_SCHEDULE_ANNOTATION);
    if (keptV1Schedule !== undefined && isEmpty(schedule)) {
      dst.spec = { ...rest, schedule: keptV1Schedule };
      return;
    }
    const joined = joinSchedule(schedule);
    const back = splitSchedule(joined);
    if (back === undefined || !sameSchedule(back, schedule)) putAnnotation(dst, V2_SCHEDULE_ANNOTATION, JSON.stringify(schedule));
    dst.spec = { ...rest, schedule: joined };
  },

  /** Converts the hub version v1 (`src`) to this v2 CronJob (`dst`). */
  convertFrom(src, dst) {
    if (src.status) dst.status = src.status;
    const { schedule, ...rest } = src.spec;
    // v2's own schedule, kept on the hub, wins while the v1 schedule is still the one it was joined into.
    const kept = parseKeptSchedule(takeAnnotation(dst, V2_SCHEDULE_ANNOTATION));
    const split = kept !== undefined && joinSchedule(kept) === schedule ? kept : splitSchedule(schedule);
    if (split === undefined) putAnnotation(dst, V1_SCHEDULE_ANNOTATION, schedule);
    dst.spec = { ...rest, schedule: split ?? {} };
  },
};
