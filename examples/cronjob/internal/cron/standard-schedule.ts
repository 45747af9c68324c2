/**
 * Cron schedules with robfig/cron v1.2.0 `ParseStandard` semantics, as the kubebuilder CronJob tutorial
 * uses them: five fields or an `@descriptor`, robfig's error messages verbatim, `*`/`*\/n` days marking a
 * field as "star" (AND rule), and `next()` searching at most five years ahead, returning ZERO_TIME when
 * nothing matches. Everything is evaluated in UTC (reference-operators.md Q-CJ-8).
 *
 * cron-parser does not fit underneath here: it accepts 7 for Sunday, applies the OR day rule to `*\/n`
 * and words its errors differently, all of which the tutorial's webhook and conditions expose. It serves
 * instead as an independent oracle in standard-schedule.test.ts for the expressions both agree on.
 */
import { parseGoDurationNanos } from 'kubeforge/runtime';

/** Go's zero time.Time (0001-01-01T00:00:00Z): what robfig's Next returns when nothing matches. */
export const ZERO_TIME = new Date('0001-01-01T00:00:00Z');

export function isZeroTime(t: Date): boolean {
  return t.getTime() === ZERO_TIME.getTime();
}

export interface Schedule {
  /** The first activation strictly after `t` (sub-second part of `t` dropped), or ZERO_TIME. */
  next(t: Date): Date;
}

interface Bounds {
  min: number;
  max: number;
  names?: Record<string, number>;
}

const MONTH_NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const MINUTES: Bounds = { min: 0, max: 59 };
const HOURS: Bounds = { min: 0, max: 23 };
const DAYS_OF_MONTH: Bounds = { min: 1, max: 31 };
const MONTHS: Bounds = { min: 1, max: 12, names: Object.fromEntries(MONTH_NAMES.map((n, i) => [n, i + 1])) };
const DAYS_OF_WEEK: Bounds = { min: 0, max: 6, names: Object.fromEntries(DAY_NAMES.map((n, i) => [n, i])) };

/** The set of allowed values of one field, and whether it was written as `*` or `?`. */
interface FieldSet {
  values: Set<number>;
  star: boolean;
}

interface SpecFields {
  minute: FieldSet;
  hour: FieldSet;
  dayOfMonth: FieldSet;
  month: FieldSet;
  dayOfWeek: FieldSet;
}

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;

/** Parses a standard (5-field or descriptor) cron spec; throws an Error carrying robfig's message. */
export function parseStandard(spec: string): Schedule {
  if (spec.length === 0) throw new Error('Empty spec string');
  if (spec.startsWith('@')) return parseDescriptor(spec);
  const fields = spec.split(/[ \t\n\v\f\r\u0085\u00a0]+/).filter((f) => f !== '');
  if (fields.length !== 5) throw new Error(`Expected exactly 5 fields, found ${fields.length}: ${spec}`);
  const [minute, hour, dayOfMonth, month, dayOfWeek] = fields as [string, string, string, string, string];
  return new SpecSchedule({
    minute: parseField(minute, MINUTES),
    hour: parseField(hour, HOURS),
    dayOfMonth: parseField(dayOfMonth, DAYS_OF_MONTH),
    month: parseField(month, MONTHS),
    dayOfWeek: parseField(dayOfWeek, DAYS_OF_WEEK),
  });
}

function parseField(field: string, bounds: Bounds): FieldSet {
  const result: FieldSet = { values: new Set(), star: false };
  for (const expr of field.split(',').filter((r) => r !== '')) {
    const range = parseRange(expr, bounds);
    range.values.forEach((v) => result.values.add(v));
    result.star ||= range.star;
  }
  return result;
}

function parseRange(expr: string, bounds: Bounds): FieldSet {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  const singleValue = lowAndHigh.length === 1;
  let start: number;
  let end: number;
  let star = false;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = bounds.min;
    end = bounds.max;
    star = true;
  } else {
    start = parseIntOrName(lowAndHigh[0]!, bounds.names);
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) end = parseIntOrName(lowAndHigh[1]!, bounds.names);
    else throw new Error(`Too many hyphens: ${expr}`);
  }
  let step: number;
  if (rangeAndStep.length === 1) step = 1;
  else if (rangeAndStep.length === 2) {
    step = parseNonNegativeInt(rangeAndStep[1]!);
    if (singleValue) end = bounds.max; // "N/step" means "N-max/step"
  } else throw new Error(`Too many slashes: ${expr}`);

  if (start < bounds.min) throw new Error(`Beginning of range (${start}) below minimum (${bounds.min}): ${expr}`);
  if (end > bounds.max) throw new Error(`End of range (${end}) above maximum (${bounds.max}): ${expr}`);
  if (start > end) throw new Error(`Beginning of range (${start}) beyond end of range (${end}): ${expr}`);
  if (step === 0) throw new Error(`Step of range should be a positive number: ${expr}`);
  const values = new Set<number>();
  for (let v = start; v <= end; v += step) values.add(v);
  return { values, star };
}

function parseIntOrName(expr: string, names?: Record<string, number>): number {
  const named = names?.[expr.toLowerCase()];
  return named ?? parseNonNegativeInt(expr);
}

/** Go's strconv.Atoi (base 10, optional sign) plus robfig's negative check, with their messages. */
function parseNonNegativeInt(expr: string): number {
  if (!/^[+-]?\d+$/.test(expr)) throw new Error(`Failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: invalid syntax`);
  const value = BigInt(expr);
  if (value > (1n << 63n) - 1n || value < -(1n << 63n)) throw new Error(`Failed to parse int from ${expr}: strconv.Atoi: parsing ${JSON.stringify(expr)}: value out of range`);
  if (value < 0n) throw new Error(`Negative number (${value}) not allowed: ${expr}`);
  return value > 1_000_000n ? 1_000_000 : Number(value); // anything this large fails the bounds check anyway
}

function all(bounds: Bounds): FieldSet {
  const values = new Set<number>();
  for (let v = bounds.min; v <= bounds.max; v++) values.add(v);
  return { values, star: true };
}

function only(value: number): FieldSet {
  return { values: new Set([value]), star: false };
}

function parseDescriptor(spec: string): Schedule {
  switch (spec) {
    case '@yearly':
    case '@annually':
      return new SpecSchedule({ minute: only(0), hour: only(0), dayOfMonth: only(1), month: only(1), dayOfWeek: all(DAYS_OF_WEEK) });
    case '@monthly':
      return new SpecSchedule({ minute: only(0), hour: only(0), dayOfMonth: only(1), month: all(MONTHS), dayOfWeek: all(DAYS_OF_WEEK) });
    case '@weekly':
      return new SpecSchedule({ minute: only(0), hour: only(0), dayOfMonth: all(DAYS_OF_MONTH), month: all(MONTHS), dayOfWeek: only(0) });
    case '@daily':
    case '@midnight':
      return new SpecSchedule({ minute: only(0), hour: only(0), dayOfMonth: all(DAYS_OF_MONTH), month: all(MONTHS), dayOfWeek: all(DAYS_OF_WEEK) });
    case '@hourly':
      return new SpecSchedule({ minute: only(0), hour: all(HOURS), dayOfMonth: all(DAYS_OF_MONTH), month: all(MONTHS), dayOfWeek: all(DAYS_OF_WEEK) });
  }
  const every = '@every ';
  if (spec.startsWith(every)) {
    let nanos: bigint;
    try {
      nanos = parseGoDurationNanos(spec.slice(every.length));
    } catch (err) {
      throw new Error(`Failed to parse duration ${spec}: ${(err as Error).message}`, { cause: err });
    }
    return new ConstantDelaySchedule(nanos);
  }
  throw new Error(`Unrecognized descriptor: ${spec}`);
}

/** `@every <d>`: fires every d (rounded down to whole seconds, at least 1 s) after the previous time. */
class ConstantDelaySchedule implements Schedule {
  readonly delayMs: number;
  constructor(nanos: bigint) {
    const seconds = nanos / 1_000_000_000n;
    this.delayMs = seconds < 1n ? SECOND_MS : Number(seconds) * SECOND_MS;
  }
  next(t: Date): Date {
    return new Date(truncate(t.getTime(), SECOND_MS) + this.delayMs);
  }
}

/** A five-field schedule; `next` walks month → day → hour → minute as robfig's SpecSchedule.Next does. */
class SpecSchedule implements Schedule {
  constructor(private readonly fields: SpecFields) {}

  next(from: Date): Date {
    let t = truncate(from.getTime(), SECOND_MS) + SECOND_MS;
    let added = false;
    const yearLimit = new Date(t).getUTCFullYear() + 5;
    const reset = (ms: number): void => {
      if (!added) {
        added = true;
        t = ms;
      }
    };
    wrap: for (;;) {
      if (new Date(t).getUTCFullYear() > yearLimit) return ZERO_TIME;
      while (!this.fields.month.values.has(new Date(t).getUTCMonth() + 1)) {
        const d = new Date(t);
        reset(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
        const cur = new Date(t);
        t = Date.UTC(cur.getUTCFullYear(), cur.getUTCMonth() + 1, cur.getUTCDate(), cur.getUTCHours(), cur.getUTCMinutes());
        if (new Date(t).getUTCMonth() === 0) continue wrap;
      }
      while (!this.dayMatches(new Date(t))) {
        const d = new Date(t);
        reset(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
        t += 24 * HOUR_MS;
        if (new Date(t).getUTCDate() === 1) continue wrap;
      }
      while (!this.fields.hour.values.has(new Date(t).getUTCHours())) {
        reset(truncate(t, HOUR_MS));
        t += HOUR_MS;
        if (new Date(t).getUTCHours() === 0) continue wrap;
      }
      while (!this.fields.minute.values.has(new Date(t).getUTCMinutes())) {
        reset(truncate(t, MINUTE_MS));
        t += MINUTE_MS;
        if (new Date(t).getUTCMinutes() === 0) continue wrap;
      }
      while (new Date(t).getUTCSeconds() !== 0) {
        reset(truncate(t, SECOND_MS));
        t += SECOND_MS;
        if (new Date(t).getUTCSeconds() === 0) continue wrap;
      }
      return new Date(t);
    }
  }

  /** robfig's day rule: when either day field is a star, both must match; otherwise either may. */
  private dayMatches(d: Date): boolean {
    const { dayOfMonth, dayOfWeek } = this.fields;
    const domMatch = dayOfMonth.values.has(d.getUTCDate());
    const dowMatch = dayOfWeek.values.has(d.getUTCDay());
    if (dayOfMonth.star || dayOfWeek.star) return domMatch && dowMatch;
    return domMatch || dowMatch;
  }
}

function truncate(ms: number, unit: number): number {
  return Math.floor(ms / unit) * unit;
}
