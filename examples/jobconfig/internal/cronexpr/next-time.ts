/**
 * cronexpr's Next: the first instant strictly after a time that a Schedule allows, searched field by
 * field in the zone's wall clock. Days on which the zone's offset changes take a slow hour-by-hour walk,
 * so a skipped wall time does not fire that day and a repeated one fires once per occurrence.
 */
import { daysSelected } from './day-fields.js';
import type { Schedule } from './schedule.js';
import type { ZoneRules } from './time-zone.js';
import { instantOf, offsetChangesAround, truncateToMinute, wallClockAt, type WallClock } from './zoned-clock.js';

/** Index of the first value >= `value` in sorted `values`, or -1 (Go's sort.SearchInts == len). */
function firstAtOrAbove(values: readonly number[], value: number): number {
  for (let i = 0; i < values.length; i++) if (values[i]! >= value) return i;
  return -1;
}

/** A search that has not settled after this many restarts gives up (never reached by valid schedules). */
const MAX_RESTARTS = 100_000;

type Step = { done: number | undefined } | { restartAt: number };

/** Year, month and day: moves `t` to the first allowed day at or after it, or asks for a restart. */
function settleDay(schedule: Schedule, zone: ZoneRules, start: number): Step | { t: number } {
  let t = start;
  let wall = wallClockAt(zone, t);
  const yearIndex = firstAtOrAbove(schedule.years, wall.year);
  if (yearIndex < 0) return { done: undefined };
  if (schedule.years[yearIndex] !== wall.year) {
    t = instantOf(zone, schedule.years[yearIndex]!, schedule.months[0]!, 1);
    wall = wallClockAt(zone, t);
  }
  const monthIndex = firstAtOrAbove(schedule.months, wall.month);
  if (monthIndex < 0) return { restartAt: instantOf(zone, wall.year + 1, schedule.months[0]!, 1) };
  if (schedule.months[monthIndex] !== wall.month) {
    t = instantOf(zone, wall.year, schedule.months[monthIndex]!, 1);
    wall = wallClockAt(zone, t);
  }
  const days = daysSelected(schedule.daysOfMonth, schedule.daysOfWeek, wall.year, wall.month);
  const dayIndex = firstAtOrAbove(days, wall.day);
  if (dayIndex < 0) return { restartAt: instantOf(zone, wall.year, wall.month + 1, 1) };
  if (days[dayIndex] !== wall.day) {
    t = instantOf(zone, wall.year, wall.month, days[dayIndex]!);
    // A zone may have no midnight (or two) on that day: snap to the nearest hour 0.
    const hour = wallClockAt(zone, t).hour;
    if (hour !== 0) t += (hour > 12 ? 24 - hour : -hour) * 3600;
  }
  return { t };
}

/** Hour, minute and second on an ordinary day. */
function settleTimeFast(schedule: Schedule, zone: ZoneRules, start: number): Step {
  let t = start;
  let wall: WallClock = wallClockAt(zone, t);
  const hourIndex = firstAtOrAbove(schedule.hours, wall.hour);
  if (hourIndex < 0) return { restartAt: instantOf(zone, wall.year, wall.month, wall.day + 1) };
  if (schedule.hours[hourIndex] !== wall.hour) {
    t = instantOf(zone, wall.year, wall.month, wall.day, schedule.hours[hourIndex]!, schedule.minutes[0]!, schedule.seconds[0]!);
    wall = wallClockAt(zone, t);
  }
  const minuteIndex = firstAtOrAbove(schedule.minutes, wall.minute);
  if (minuteIndex < 0) return { restartAt: instantOf(zone, wall.year, wall.month, wall.day, wall.hour + 1) };
  if (schedule.minutes[minuteIndex] !== wall.minute) {
    t = instantOf(zone, wall.year, wall.month, wall.day, wall.hour, schedule.minutes[minuteIndex]!, schedule.seconds[0]!);
    wall = wallClockAt(zone, t);
  }
  const secondIndex = firstAtOrAbove(schedule.seconds, wall.second);
  if (secondIndex < 0) return { restartAt: instantOf(zone, wall.year, wall.month, wall.day, wall.hour, wall.minute + 1) };
  if (schedule.seconds[secondIndex] !== wall.second) {
    t = instantOf(zone, wall.year, wall.month, wall.day, wall.hour, wall.minute, schedule.seconds[secondIndex]!);
  }
  return { done: t };
}

/** Hour, minute and second on a day whose offset changes: walk in real hours and minutes. */
function settleTimeAcrossTransition(schedule: Schedule, zone: ZoneRules, start: number): Step {
  let t = start;
  let wall = wallClockAt(zone, t);
  while (!schedule.hours.includes(wall.hour)) {
    const hourBefore = wall.hour;
    t += 3600;
    if (wallClockAt(zone, t).hour === hourBefore) t += 3600; // a repeated hour
    t = truncateToMinute(t);
    wall = wallClockAt(zone, t);
    if (wall.minute !== 0) {
      t -= 60 * wall.minute;
      wall = wallClockAt(zone, t);
    }
    if (wall.hour === 0) return { restartAt: instantOf(zone, wall.year, wall.month, wall.day) };
  }
  while (!schedule.minutes.includes(wall.minute)) {
    const hourBefore = wall.hour;
    t = truncateToMinute(t) + 60;
    wall = wallClockAt(zone, t);
    if (wall.hour !== hourBefore) return { restartAt: t };
  }
  const secondIndex = firstAtOrAbove(schedule.seconds, wall.second);
  t = truncateToMinute(t);
  if (secondIndex < 0) return { restartAt: t + 60 };
  return { done: t + schedule.seconds[secondIndex]! };
}

/** The first instant (Unix seconds) after `afterUnixSeconds` truncated to the second; undefined if none by 2099. */
export function nextInstant(schedule: Schedule, zone: ZoneRules, afterUnixSeconds: number): number | undefined {
  let t = Math.floor(afterUnixSeconds) + 1;
  for (let restarts = 0; restarts < MAX_RESTARTS; restarts++) {
    const day = settleDay(schedule, zone, t);
    if ('done' in day) return day.done;
    if ('restartAt' in day) {
      t = day.restartAt;
      continue;
    }
    const time = offsetChangesAround(zone, day.t)
      ? settleTimeAcrossTransition(schedule, zone, day.t)
      : settleTimeFast(schedule, zone, day.t);
    if ('done' in time) return time.done;
    t = time.restartAt;
  }
  return undefined;
}
