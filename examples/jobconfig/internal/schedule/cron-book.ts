/**
 * The CronController's bookkeeping, free of IO and clocks: which JobConfigs are in the schedule heap and
 * with which rule, the registration/refresh/removal that JobConfig events cause, the tick that turns due
 * heap entries into work items, and the work items waiting for the cron reconciler, per JobConfig.
 */
import type { JobConfig } from '../../api/v1alpha1/jobconfig_types.js';
import { onFurikoConfigChange, type FurikoConfig } from '../furiko/config.js';
import { popDueSchedules } from './cron-tick.js';
import { ScheduleHeap } from './schedule-heap.js';
import { scheduleRuleOf, type ScheduleRule } from './schedule-rule.js';
import { refreshTime, registrationTime } from './schedule-time.js';

/** Why a JobConfig is not (or no longer) scheduled, for the caller's log. */
export type Unscheduled = { key: string; reason: 'invalid'; error: unknown } | { key: string; reason: 'finished' | 'none' };

/** The settings a schedule rule is parsed with. */
const CRON_SETTINGS = ['cronFormat', 'cronHashNames', 'cronHashFields', 'cronHashSecondsByDefault', 'defaultTimezone'] as const;

export class CronBook {
  private readonly heap = new ScheduleHeap();
  private readonly rules = new Map<string, ScheduleRule>();
  private readonly pending = new Map<string, number[]>();

  constructor(
    private readonly config: Readonly<FurikoConfig>,
    private readonly onUnscheduled: (info: Unscheduled) => void = () => {},
  ) {}

  /** A JobConfig seen for the first time (controller start, or created later — [KF-F1]). */
  register(jobConfig: JobConfig, nowMs: number): void {
    const lastScheduled = jobConfig.status?.lastScheduled ? Date.parse(jobConfig.status.lastScheduled) : undefined;
    this.place(jobConfig, (rule) => registrationTime(rule, nowMs, Number.isNaN(lastScheduled) ? undefined : lastScheduled, this.config.maxDowntimeThresholdSeconds));
  }

  /** Calls `listener` when the config's cron settings change (format, hashing, default time zone); returns the unsubscribe. */
  onCronConfigChange(listener: () => void): () => void {
    return onFurikoConfigChange(this.config, (previous) => {
      if (CRON_SETTINGS.some((key) => previous[key] !== this.config[key])) listener();
    });
  }

  /**
   * Parses a JobConfig's schedule again after the cron settings changed. As in Furiko, whose cron worker
   * parses each expression with the current config, a next schedule time already computed stays and the
   * times after it follow the new rule; a JobConfig not in the heap (its schedule did not parse before) is
   * registered at `nowMs`; one that no longer parses leaves it.
   */
  reparse(jobConfig: JobConfig, nowMs: number): void {
    const next = this.heap.get(`${jobConfig.metadata!.namespace}/${jobConfig.metadata!.name}`);
    if (next === undefined) this.register(jobConfig, nowMs);
    else this.place(jobConfig, () => next);
  }

  /** A JobConfig whose `spec.schedule` changed ([KF-F2] refresh). */
  refresh(jobConfig: JobConfig, nowMs: number): void {
    this.place(jobConfig, (rule) => refreshTime(rule, nowMs));
  }

  /** A deleted JobConfig: out of the heap, its waiting work items dropped. */
  remove(key: string): void {
    this.heap.delete(key);
    this.rules.delete(key);
    this.pending.delete(key);
  }

  /** Runs one tick at `nowMs`; returns the keys that got new work items (each once, in pop order). */
  tick(nowMs: number): string[] {
    const due = popDueSchedules(this.heap, nowMs, { maxMissedSchedules: this.config.maxMissedSchedules, ruleOf: (key) => this.rules.get(key) });
    const keys: string[] = [];
    for (const { key, scheduleTimeMs } of due) {
      const list = this.pending.get(key) ?? [];
      if (list.length === 0) keys.push(key);
      list.push(scheduleTimeMs);
      this.pending.set(key, list);
    }
    for (const key of [...this.rules.keys()]) if (this.heap.get(key) === undefined) this.drop(key, 'finished');
    return keys;
  }

  /** Takes (and forgets) the waiting schedule times of a JobConfig, oldest first. */
  takeDue(key: string): number[] {
    const list = this.pending.get(key) ?? [];
    this.pending.delete(key);
    return list;
  }

  /** Puts back schedule times that could not be processed (before any that arrived meanwhile). */
  returnDue(key: string, times: number[]): void {
    if (times.length === 0) return;
    this.pending.set(key, [...times, ...(this.pending.get(key) ?? [])]);
  }

  /** The next schedule time of a JobConfig, if it is in the heap. */
  nextScheduleMs(key: string): number | undefined {
    return this.heap.get(key);
  }

  /**
   * When the next tick that can do anything is due: the whole second of the earliest heap entry, or the
   * next whole second when that entry is already due.
   */
  nextTickMs(nowMs: number): number | undefined {
    const top = this.heap.peek();
    if (!top) return undefined;
    if (top.timeMs > nowMs) return Math.ceil(top.timeMs / 1000) * 1000;
    return Math.floor(nowMs / 1000) * 1000 + 1000;
  }

  clear(): void {
    this.heap.clear();
    this.rules.clear();
    this.pending.clear();
  }

  private place(jobConfig: JobConfig, firstTime: (rule: ScheduleRule) => number | undefined): void {
    const ref = { namespace: jobConfig.metadata!.namespace!, name: jobConfig.metadata!.name! };
    const key = `${ref.namespace}/${ref.name}`;
    let rule: ScheduleRule | undefined;
    try {
      rule = scheduleRuleOf(ref, jobConfig.spec.schedule, this.config);
    } catch (error) {
      this.drop(key, 'invalid', error);
      return;
    }
    const next = rule && firstTime(rule);
    if (!rule || next === undefined) {
      this.drop(key, rule ? 'finished' : 'none');
      return;
    }
    this.rules.set(key, rule);
    this.heap.set(key, next);
  }

  private drop(key: string, reason: 'invalid' | 'finished' | 'none', error?: unknown): void {
    this.heap.delete(key);
    this.rules.delete(key);
    this.onUnscheduled(reason === 'invalid' ? { key, reason, error } : { key, reason });
  }
}
