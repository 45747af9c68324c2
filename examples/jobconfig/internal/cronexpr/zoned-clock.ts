/**
 * Wall-clock arithmetic in a time zone with Go's `time` semantics, which cronexpr's Next relies on:
 * `wallClockAt` is t.Year()…t.Second(), `instantOf` is time.Date (fields may overflow; a skipped local
 * time takes the offset after the transition, an ambiguous one the earlier instant). Instants are Unix seconds.
 */
import type { ZoneRules } from './time-zone.js';

export interface WallClock {
  readonly year: number;
  /** 1–12 */
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

export function wallClockAt(zone: ZoneRules, unixSeconds: number): WallClock {
  const local = new Date((unixSeconds + zone.offsetAt(unixSeconds)) * 1000);
  return {
    year: local.getUTCFullYear(),
    month: local.getUTCMonth() + 1,
    day: local.getUTCDate(),
    hour: local.getUTCHours(),
    minute: local.getUTCMinutes(),
    second: local.getUTCSeconds(),
  };
}

/** Go's time.Date(year, month, day, hour, minute, second, 0, zone) as Unix seconds. */
export function instantOf(
  zone: ZoneRules,
  year: number,
  month: number,
  day: number,
  hour = 0,
  minute = 0,
  second = 0,
): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const wallAsUtc = date.getTime() / 1000;
  // Go: take the offset in force at the wall time read as UTC, then the offset in force at the instant
  // that offset gives (equal unless a transition lies in between).
  const firstGuess = zone.offsetAt(wallAsUtc);
  return wallAsUtc - zone.offsetAt(wallAsUtc - firstGuess);
}

/** Go's t.Truncate(time.Minute). */
export function truncateToMinute(unixSeconds: number): number {
  return Math.floor(unixSeconds / 60) * 60;
}

/** cronexpr's timeZoneInDay: whether the offset one calendar day before t differs from one day after. */
export function offsetChangesAround(zone: ZoneRules, unixSeconds: number): boolean {
  if (zone.fixed) return false;
  const wall = wallClockAt(zone, unixSeconds);
  const dayBefore = instantOf(zone, wall.year, wall.month, wall.day - 1, wall.hour, wall.minute, wall.second);
  const dayAfter = instantOf(zone, wall.year, wall.month, wall.day + 1, wall.hour, wall.minute, wall.second);
  return zone.offsetAt(dayBefore) !== zone.offsetAt(dayAfter);
}
