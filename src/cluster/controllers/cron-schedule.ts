/**
 * CronJob schedules as the 1.32 controller reads them (robfig/cron ParseStandard): exactly five
 * fields or a descriptor (`@hourly`, `@midnight`, `@every 90s`, …), an optional `CRON_TZ=`/`TZ=`
 * prefix, evaluated in `spec.timeZone` (UTC when unset) with cron-parser.
 */
import { CronExpressionParser } from 'cron-parser';
import { parseGoDuration } from '../../apimachinery/go-duration.js';

export interface Schedule {
  /** First activation strictly after `after` (epoch ms). */
  next(after: number): number;
  /** Latest activation at or before `atOrBefore`, if any. */
  previous(atOrBefore: number): number | undefined;
}

export class ScheduleError extends Error {
  constructor(readonly kind: 'UnparseableSchedule' | 'UnknownTimeZone', message: string) {
    super(message);
  }
}

const descriptors: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Checks an IANA zone name the way Go's time.LoadLocation would accept it. */
export function checkTimeZone(zone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw new ScheduleError('UnknownTimeZone', `invalid timeZone: "${zone}": unknown time zone ${zone}`);
  }
}

/** Splits a `CRON_TZ=<zone> ` / `TZ=<zone> ` prefix off a schedule. */
export function splitZonePrefix(schedule: string): { zone?: string; expression: string } {
  const m = /^(?:CRON_TZ|TZ)=(\S+)\s+(.*)$/.exec(schedule.trim());
  return m ? { zone: m[1]!, expression: m[2]! } : { expression: schedule.trim() };
}

const parsed = new Map<string, Schedule | ScheduleError>();

/** Parses `schedule` in `timeZone` (cached: controllers re-read the same schedules on every sync). */
export function parseSchedule(schedule: string, timeZone: string | undefined): Schedule {
  const key = `${timeZone ?? ''}\n${schedule}`;
  let entry = parsed.get(key);
  if (!entry) {
    try {
      entry = parseUncached(schedule, timeZone);
    } catch (err) {
      if (!(err instanceof ScheduleError)) throw err;
      entry = err;
    }
    if (parsed.size > 1000) parsed.clear();
    parsed.set(key, entry);
  }
  if (entry instanceof ScheduleError) throw entry;
  return entry;
}

function parseUncached(schedule: string, timeZone: string | undefined): Schedule {
  const { zone: prefixZone, expression } = splitZonePrefix(schedule);
  const zone = timeZone ?? prefixZone ?? 'UTC';
  checkTimeZone(zone);
  const unparseable = (why: string): ScheduleError => new ScheduleError('UnparseableSchedule', `unparseable schedule: "${schedule}" : ${why}`);
  if (expression.startsWith('@every ')) {
    let ms: number;
    try {
      ms = parseGoDuration(expression.slice(7).trim());
    } catch (err) {
      throw unparseable(`failed to parse duration ${expression}: ${(err as Error).message}`);
    }
    // robfig rounds @every to whole seconds, with a one-second minimum
    const step = Math.max(1000, Math.floor(ms / 1000) * 1000);
    return {
      next: (after) => Math.floor(after / 1000) * 1000 + step,
      previous: () => undefined,
    };
  }
  let fields = expression;
  if (expression.startsWith('@')) {
    const mapped = descriptors[expression];
    if (!mapped) throw unparseable(`unrecognized descriptor: ${expression}`);
    fields = mapped;
  }
  const count = fields.split(/\s+/).filter(Boolean).length;
  if (count !== 5) throw unparseable(`expected exactly 5 fields, found ${count}: [${fields.split(/\s+/).join(' ')}]`);
  try {
    CronExpressionParser.parse(fields, { tz: zone });
  } catch (err) {
    throw unparseable((err as Error).message);
  }
  return {
    next: (after) => CronExpressionParser.parse(fields, { tz: zone, currentDate: new Date(after) }).next().getTime(),
    previous: (atOrBefore) => {
      try {
        return CronExpressionParser.parse(fields, { tz: zone, currentDate: new Date(atOrBefore + 1) }).prev().getTime();
      } catch {
        return undefined;
      }
    },
  };
}

/** RFC 3339 (seconds) of `ms` in `zone`: `Z` for UTC, else the zone's offset, as Go's time.Format. */
export function rfc3339InZone(ms: number, zone: string | undefined): string {
  if (!zone || zone === 'UTC' || zone === 'Etc/UTC') return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(new Date(ms))
      .map((p) => [p.type, p.value]),
  );
  const local = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const offsetMin = Math.round((local - Math.floor(ms / 1000) * 1000) / 60_000);
  if (offsetMin === 0) return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}Z`;
  const sign = offsetMin < 0 ? '-' : '+';
  const abs = Math.abs(offsetMin);
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Go's RFC1123Z in UTC: `Mon, 15 Jan 2024 10:01:00 +0000`. */
export function rfc1123z(ms: number): string {
  const d = new Date(ms);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${two(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} +0000`;
}
