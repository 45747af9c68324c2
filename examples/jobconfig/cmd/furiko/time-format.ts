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
 * Times and durations as Furiko's CLI prints them: `Mon, 02 Jan 2006 15:04:05 -07:00` in the local time
 * zone, shorthand ages for tables (`5m`, `in 2h`) and words for descriptions (`3 minutes ago`), with the
 * rounding of xeonx/timeago (the largest period that fits, the count rounded, carried to the next period).
 */
import { parseGoDuration as parseGoDurationMs } from 'kubeforge/api';

interface Period {
  ms: number;
  one: string;
  many: (n: number) => string;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30 * DAY;
const YEAR = 365 * DAY;

/** Furiko's shorthand periods; its hour period says `1d` for one hour, kept as Furiko prints it. */
const SHORTHAND: Period[] = [
  { ms: SECOND, one: '1s', many: (n) => `${n}s` },
  { ms: MINUTE, one: '1m', many: (n) => `${n}m` },
  { ms: HOUR, one: '1d', many: (n) => `${n}h` },
  { ms: DAY, one: '1d', many: (n) => `${n}d` },
];

const STANDARD: Period[] = [
  { ms: SECOND, one: 'about a second', many: (n) => `${n} seconds` },
  { ms: MINUTE, one: 'about a minute', many: (n) => `${n} minutes` },
  { ms: HOUR, one: 'about an hour', many: (n) => `${n} hours` },
  { ms: DAY, one: 'one day', many: (n) => `${n} days` },
  { ms: MONTH, one: 'one month', many: (n) => `${n} months` },
  { ms: YEAR, one: 'one year', many: (n) => `${n} years` },
];

/** `d` (milliseconds, not negative) in the largest period it reaches, rounded; a round-up to the next period moves there. */
function inPeriods(d: number, periods: Period[], zero: string): string {
  if (d < periods[0].ms) return zero;
  for (let i = periods.length - 1; i >= 0; i--) {
    const period = periods[i];
    if (d < period.ms) continue;
    const count = Math.round(d / period.ms);
    const next = periods[i + 1];
    if (next && count * period.ms >= next.ms) return next.one;
    return count === 1 ? period.one : period.many(count);
  }
  return zero;
}

/** Shorthand age of `time` at `now` for tables: `5m`, `2h`, `in 30s`; empty for no time. */
export function timeAgo(time: string | undefined, now: number): string {
  if (!time) return '';
  const d = now - Date.parse(time);
  const text = inPeriods(Math.abs(d), SHORTHAND, '0s');
  return d < 0 ? `in ${text}` : text;
}

/** A duration in words: `3 minutes`, `about a second`. */
export function durationInWords(ms: number): string {
  return inPeriods(Math.abs(ms), STANDARD, 'about a second');
}

/** Go's `Mon, 02 Jan 2006 15:04:05 -07:00` of an RFC 3339 time, in `timeZone` (by default this process's). */
export function formatTime(time: string, timeZone?: string): string {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'longOffset',
  });
  const part = Object.fromEntries(format.formatToParts(new Date(time)).map((p) => [p.type, p.value]));
  // `GMT+08:00`, or plain `GMT` for UTC.
  const offset = part.timeZoneName === 'GMT' ? '+00:00' : part.timeZoneName.slice('GMT'.length);
  return `${part.weekday}, ${part.day} ${part.month} ${part.year} ${part.hour}:${part.minute}:${part.second} ${offset}`;
}

/** `Mon, 02 Jan 2006 15:04:05 +00:00 (3 minutes ago)`, or `(in 2 hours)` for a time to come; empty for no time. */
export function formatTimeWithAgo(time: string | undefined, now: number, timeZone?: string): string {
  if (!time) return '';
  const d = now - Date.parse(time);
  const words = durationInWords(d);
  return `${formatTime(time, timeZone)} (${d < 0 ? `in ${words}` : `${words} ago`})`;
}

/** Milliseconds of a Go duration string (`15m`, `1h30m`, `90s`, `1.5h`: kubeforge/runtime's parseGoDuration), or undefined when it is not one. */
export function parseGoDuration(text: string): number | undefined {
  try {
    return parseGoDurationMs(text);
  } catch {
    return undefined;
  }
}
