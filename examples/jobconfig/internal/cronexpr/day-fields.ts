/**
 * The two day fields of a cron expression and the days of a given month they select: cronexpr's
 * day-of-month (`L`, `LW`, `NW`) and day-of-week (`NL`, `N#k`) extras and its day rule (a field is
 * "restricted" unless written `*`/`?`; one restricted field alone decides, both restricted → union).
 */
import { DAY_OF_MONTH, DAY_OF_WEEK, QUARTZ_DAY_OF_WEEK } from './fields.js';
import { parseFieldEntries, syntaxError } from './field-parser.js';
import type { HashSource } from './hash-value.js';
import type { CronFormat } from './options.js';

export interface DaysOfMonthField {
  restricted: boolean;
  days: Set<number>;
  /** Days `NW`: the weekday nearest to day N, not crossing the month. */
  nearestWeekdays: Set<number>;
  lastDay: boolean;
  lastWeekday: boolean;
}

export interface DaysOfWeekField {
  restricted: boolean;
  weekdays: Set<number>;
  /** `N#k` stored as (k − 1)·7 + N. */
  nthWeekdays: Set<number>;
  /** `NL`: the last weekday N of the month. */
  lastWeekdays: Set<number>;
}

function addSpan(target: Set<number>, first: number, last: number): void {
  for (let value = first; value <= last; value++) target.add(value);
}

export function parseDaysOfMonth(text: string, hash: HashSource | undefined): DaysOfMonthField {
  const field: DaysOfMonthField = {
    restricted: true, days: new Set(), nearestWeekdays: new Set(), lastDay: false, lastWeekday: false,
  };
  const nearestWeekday = new RegExp(`^(${DAY_OF_MONTH.valuePattern})w$`);
  for (const entry of parseFieldEntries(text, DAY_OF_MONTH, hash)) {
    if (entry.kind === 'all') {
      addSpan(field.days, DAY_OF_MONTH.min, DAY_OF_MONTH.max);
      field.restricted = false;
    } else if (entry.kind === 'values') {
      for (const value of entry.values) field.days.add(value);
    } else {
      const item = entry.text.toLowerCase();
      const weekday = nearestWeekday.exec(item);
      if (item === 'l') field.lastDay = true;
      else if (item === 'lw') field.lastWeekday = true;
      else if (weekday) field.nearestWeekdays.add(DAY_OF_MONTH.valueOf(weekday[1]!));
      else throw syntaxError(DAY_OF_MONTH, entry.text);
    }
  }
  return field;
}

/** The day-of-week field; in the Quartz format (1–7 = SUN–SAT) the `NL` and `N#k` extras are syntax errors. */
export function parseDaysOfWeek(text: string, hash: HashSource | undefined, format: CronFormat = 'standard'): DaysOfWeekField {
  const field: DaysOfWeekField = { restricted: true, weekdays: new Set(), nthWeekdays: new Set(), lastWeekdays: new Set() };
  if (format === 'quartz') {
    for (const entry of parseFieldEntries(text, QUARTZ_DAY_OF_WEEK, hash)) {
      if (entry.kind === 'other') throw syntaxError(QUARTZ_DAY_OF_WEEK, entry.text);
      if (entry.kind === 'all') field.restricted = false;
      const values = entry.kind === 'all' ? [0, 1, 2, 3, 4, 5, 6] : entry.values;
      for (const value of values) field.weekdays.add(value);
    }
    return field;
  }
  const lastOfMonth = new RegExp(`^(${DAY_OF_WEEK.valuePattern})l$`);
  const nthOfMonth = new RegExp(`^(${DAY_OF_WEEK.valuePattern})#([1-5])$`);
  for (const entry of parseFieldEntries(text, DAY_OF_WEEK, hash)) {
    if (entry.kind === 'all') {
      addSpan(field.weekdays, DAY_OF_WEEK.min, DAY_OF_WEEK.max);
      field.restricted = false;
    } else if (entry.kind === 'values') {
      for (const value of entry.values) field.weekdays.add(value);
    } else {
      const item = entry.text.toLowerCase();
      const last = lastOfMonth.exec(item);
      const nth = last ? null : nthOfMonth.exec(item);
      if (last) field.lastWeekdays.add(DAY_OF_WEEK.valueOf(last[1]!));
      else if (nth) field.nthWeekdays.add((Number(nth[2]) - 1) * 7 + DAY_OF_WEEK.valueOf(nth[1]!));
      else throw syntaxError(DAY_OF_WEEK, entry.text);
    }
  }
  return field;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Weekday (0 = Sunday) of a calendar date. */
function weekdayOf(year: number, month: number, day: number): number {
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/** The weekday nearest to `day` without leaving the month (Saturday → Friday, Sunday → Monday). */
function nearestWeekdayTo(year: number, month: number, day: number, lastDay: number): number {
  const weekday = weekdayOf(year, month, day);
  if (weekday === 6) return day > 1 ? day - 1 : day + 2;
  if (weekday === 0) return day < lastDay ? day + 1 : day - 2;
  return day;
}

/** The sorted days of `month` (1–12) of `year` that the two day fields select. */
export function daysSelected(dom: DaysOfMonthField, dow: DaysOfWeekField, year: number, month: number): number[] {
  const lastDay = daysInMonth(year, month);
  if (!dom.restricted && !dow.restricted) return Array.from({ length: lastDay }, (_, i) => i + 1);
  const days = new Set<number>();
  if (dom.restricted) {
    if (dom.lastDay) days.add(lastDay);
    if (dom.lastWeekday) days.add(nearestWeekdayTo(year, month, lastDay, lastDay));
    for (const day of dom.days) if (day <= lastDay) days.add(day);
    for (const day of dom.nearestWeekdays) if (day <= lastDay) days.add(nearestWeekdayTo(year, month, day, lastDay));
  }
  if (dow.restricted) {
    const firstWeekday = weekdayOf(year, month, 1);
    for (const weekday of dow.weekdays) {
      for (let day = 1 + ((weekday - firstWeekday + 7) % 7); day <= lastDay; day += 7) days.add(day);
    }
    for (const key of dow.nthWeekdays) {
      const day = 1 + 7 * Math.floor(key / 7) + ((key % 7) - firstWeekday + 7) % 7;
      if (day <= lastDay) days.add(day);
    }
    const lastWeekStart = lastDay - 6;
    const lastWeekStartWeekday = weekdayOf(year, month, lastWeekStart);
    for (const weekday of dow.lastWeekdays) days.add(lastWeekStart + ((weekday - lastWeekStartWeekday + 7) % 7));
  }
  return [...days].sort((a, b) => a - b);
}
