/**
 * Parses a cron expression the way furiko-io/cronexpr does in its standard and Quartz formats (aliases,
 * 5/6/7 tokens with 6 = minute…year, `H` hashing; Quartz differs only in the day of week) and exposes the
 * next-time search over the parsed schedule.
 *
 * cron-parser is not used underneath: it has no year field, reads 6 tokens as seconds…day-of-week, knows no
 * `H`, and words its errors differently — all of which Furiko's webhook and scheduler expose.
 */
import { parseDaysOfMonth, parseDaysOfWeek } from './day-fields.js';
import { CronParseError } from './errors.js';
import { parseSimpleField } from './field-parser.js';
import { HOUR, MINUTE, MONTH, SECOND, YEAR } from './fields.js';
import { HashSource } from './hash-value.js';
import { nextInstant } from './next-time.js';
import { CRON_FORMATS, type CronOptions } from './options.js';
import type { Schedule } from './schedule.js';
import { zoneRulesOf, type TimeZone } from './time-zone.js';

export interface CronExpression {
  /** First instant strictly after `after` (truncated to the second, +1 s), in `zone`; undefined beyond 2099. */
  next(after: Date, zone: TimeZone): Date | undefined;
}

const ALIASES: Record<string, string> = {
  '@yearly': '0 0 0 1 1 * *',
  '@annually': '0 0 0 1 1 * *',
  '@monthly': '0 0 0 1 * * *',
  '@weekly': '0 0 0 * * 0 *',
  '@daily': '0 0 0 * * * *',
  '@hourly': '0 0 * * * * *',
};

/** Go's `\S+` (ASCII whitespace only separates tokens). */
const TOKEN = /[^\t\n\f\r ]+/g;

class ParsedExpression implements CronExpression {
  constructor(private readonly schedule: Schedule) {}

  next(after: Date, zone: TimeZone): Date | undefined {
    const next = nextInstant(this.schedule, zoneRulesOf(zone), Math.floor(after.getTime() / 1000));
    return next === undefined ? undefined : new Date(next * 1000);
  }
}

/** Parses a cron expression; throws CronParseError with cronexpr's message. */
export function parseCron(expression: string, options: CronOptions = {}): CronExpression {
  if (options.format !== undefined && !CRON_FORMATS.includes(options.format)) throw new CronParseError('unknown CronFormat');
  const text = expression.replace(/@(?:yearly|annually|monthly|weekly|daily|hourly)/g, (alias) => ALIASES[alias]!);
  const tokens = (text.match(TOKEN) ?? []).slice(0, 7);
  if (tokens.length < 5) throw new CronParseError('missing field(s)');
  const hashEnabled = options.hashNames ?? true;
  const hash = hashEnabled && options.hashId !== undefined
    ? new HashSource(options.hashId, options.hashFields ?? false)
    : undefined;
  const withSeconds = tokens.length === 7;
  let seconds: number[] = [0];
  if (withSeconds) seconds = parseSimpleField(tokens.shift()!, SECOND, hash);
  else if (hash !== undefined && options.hashSecondsByDefault) seconds = parseSimpleField('H', SECOND, hash);
  const [minute, hour, dayOfMonth, month, dayOfWeek, year] = tokens as [string, string, string, string, string, string?];
  const schedule: Schedule = {
    seconds,
    minutes: parseSimpleField(minute, MINUTE, hash),
    hours: parseSimpleField(hour, HOUR, hash),
    daysOfMonth: parseDaysOfMonth(dayOfMonth, hash),
    months: parseSimpleField(month, MONTH, hash),
    daysOfWeek: parseDaysOfWeek(dayOfWeek, hash, options.format),
    years: year === undefined ? parseSimpleField('*', YEAR, hash) : parseSimpleField(year, YEAR, hash),
  };
  return new ParsedExpression(schedule);
}

/** Earliest next time over several expressions (coinciding times collapse to one). */
export function nextOfAll(expressions: CronExpression[], after: Date, zone: TimeZone): Date | undefined {
  let earliest: Date | undefined;
  for (const expression of expressions) {
    const next = expression.next(after, zone);
    if (next !== undefined && (earliest === undefined || next.getTime() < earliest.getTime())) earliest = next;
  }
  return earliest;
}
