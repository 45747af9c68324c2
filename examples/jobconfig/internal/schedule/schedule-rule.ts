/**
 * A JobConfig's cron schedule made ready for the scheduler (§4.4): its expressions parsed with the
 * JobConfig's hash ID, its time zone resolved, and its constraints and lastUpdated as instants. Building
 * one throws CronParseError (or the time-zone error) for schedules that can never be put in the heap.
 */
import { nextOfAll, parseCron, parseTimeZone, type CronExpression, type TimeZone } from '../cronexpr/index.js';
import type { FurikoConfig } from '../furiko/config.js';

/** The fields of `spec.schedule` the scheduler reads (§4.1.1). */
export interface ScheduleFields {
  cron?: { expression?: string; expressions?: string[]; timezone?: string };
  disabled?: boolean;
  constraints?: { notBefore?: string; notAfter?: string };
  lastUpdated?: string;
}

export interface ScheduleRule {
  /** First schedule instant strictly after `afterMs` over all expressions (no constraints applied). */
  next(afterMs: number): number | undefined;
  notBeforeMs?: number;
  notAfterMs?: number;
  lastUpdatedMs?: number;
}

/**
 * The rule of an enabled cron schedule, or undefined when the JobConfig has nothing to schedule (no
 * schedule, no cron, or disabled). The hash ID of `H` is `"<namespace>/<name>"`.
 */
export function scheduleRuleOf(
  ref: { namespace: string; name: string },
  schedule: ScheduleFields | undefined,
  config: Pick<FurikoConfig, 'defaultTimezone' | 'cronHashNames' | 'cronHashFields' | 'cronHashSecondsByDefault'> & Partial<Pick<FurikoConfig, 'cronFormat'>>,
): ScheduleRule | undefined {
  const cron = schedule?.cron;
  if (!cron || schedule.disabled) return undefined;
  const sources = cron.expressions?.length ? cron.expressions : cron.expression ? [cron.expression] : [];
  if (sources.length === 0) return undefined;
  const options = {
    hashId: `${ref.namespace}/${ref.name}`,
    hashNames: config.cronHashNames,
    hashFields: config.cronHashFields,
    hashSecondsByDefault: config.cronHashSecondsByDefault,
    format: config.cronFormat ?? 'standard',
  };
  const expressions: CronExpression[] = sources.map((source) => parseCron(source, options));
  const zone: TimeZone = parseTimeZone(cron.timezone || config.defaultTimezone);
  const rule: ScheduleRule = {
    next(afterMs) {
      return nextOfAll(expressions, new Date(afterMs), zone)?.getTime();
    },
  };
  const notBefore = instantOf(schedule.constraints?.notBefore);
  const notAfter = instantOf(schedule.constraints?.notAfter);
  const lastUpdated = instantOf(schedule.lastUpdated);
  if (notBefore !== undefined) rule.notBeforeMs = notBefore;
  if (notAfter !== undefined) rule.notAfterMs = notAfter;
  if (lastUpdated !== undefined) rule.lastUpdatedMs = lastUpdated;
  return rule;
}

function instantOf(time: string | undefined): number | undefined {
  if (!time) return undefined;
  const ms = Date.parse(time);
  return Number.isNaN(ms) ? undefined : ms;
}
