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

/**
 * The controller configuration Furiko reads from its dynamic ConfigMap (dynamic-config.ts), with Furiko's
 * defaults (reference-operators spec §4): one object the webhooks and controllers share and read at each
 * use, so a reloaded ConfigMap takes effect without a restart (updateFurikoConfig writes it in place).
 */
import type { CronFormat } from '../cronexpr/index.js';

export interface FurikoConfig {
  /** JobConfig/Job webhook default for `template.taskPendingTimeoutSeconds` (0 disables the timeout). */
  defaultPendingTimeoutSeconds: number;
  /** Job webhook default for `ttlSecondsAfterFinished`. */
  defaultTTLSecondsAfterFinished: number;
  /** A JobConfig never has more queued Jobs than this (cron skips, webhook rejects). */
  maxEnqueuedJobs: number;
  /** Missed schedules of one JobConfig enqueued per cron tick; 0 disables all scheduling (Q-F3). */
  maxMissedSchedules: number;
  /** How far back (seconds) a restarted cron controller back-schedules from `status.lastScheduled`. */
  maxDowntimeThresholdSeconds: number;
  /** Time zone of a cron schedule without `timezone`. */
  defaultTimezone: string;
  /** A task stuck in deletion this long (seconds) is deleted with grace period 0, unless forbidden. */
  forceDeleteTaskTimeoutSeconds: number;
  /** Cron parsing: `standard` (day of week 0–6) or `quartz` (1–7 = SUN–SAT). */
  cronFormat: CronFormat;
  /** Cron parsing: `H` enabled, hashed per field, seconds hashed when absent. */
  cronHashNames: boolean;
  cronHashFields: boolean;
  cronHashSecondsByDefault: boolean;
}

export const defaultFurikoConfig: Readonly<FurikoConfig> = Object.freeze({
  defaultPendingTimeoutSeconds: 900,
  defaultTTLSecondsAfterFinished: 3600,
  maxEnqueuedJobs: 20,
  maxMissedSchedules: 5,
  maxDowntimeThresholdSeconds: 300,
  defaultTimezone: 'UTC',
  forceDeleteTaskTimeoutSeconds: 900,
  cronFormat: 'standard',
  cronHashNames: true,
  cronHashFields: true,
  cronHashSecondsByDefault: false,
});

/** A mutable copy of the defaults, for a dynamic config to update in place. */
export function liveFurikoConfig(initial: Readonly<FurikoConfig> = defaultFurikoConfig): FurikoConfig {
  return { ...initial };
}

/**
 * The operator's configuration: what the controllers and webhooks registered without an explicit config
 * read (the scaffold's setupControllers/setupWebhooks pass none), and what cmd/main.ts keeps in step with
 * the dynamic ConfigMap. Furiko's defaults until a ConfigMap is loaded.
 */
export const sharedFurikoConfig: FurikoConfig = liveFurikoConfig();

const listeners = new WeakMap<FurikoConfig, Set<(previous: Readonly<FurikoConfig>) => void>>();

/** Calls `listener` with the previous values whenever `config` is updated; returns the unsubscribe. */
export function onFurikoConfigChange(config: Readonly<FurikoConfig>, listener: (previous: Readonly<FurikoConfig>) => void): () => void {
  if (Object.isFrozen(config)) return () => {};
  const set = listeners.get(config) ?? new Set();
  listeners.set(config, set.add(listener));
  return () => set.delete(listener);
}

/** Writes `next` into the shared `config` (readers see it at their next use); returns the names that changed. */
export function updateFurikoConfig(config: FurikoConfig, next: Readonly<FurikoConfig>): Array<keyof FurikoConfig> {
  const previous = { ...config };
  const changed = (Object.keys(next) as Array<keyof FurikoConfig>).filter((key) => config[key] !== next[key]);
  if (changed.length === 0) return changed;
  Object.assign(config, next);
  for (const listener of listeners.get(config) ?? []) listener(previous);
  return changed;
}
