/**
 * When a JobConfig's next schedule is (§4.4): the registration rule used when it enters the heap (at
 * controller start and, under [KF-F1], on creation), the refresh rule after a schedule edit ([KF-F2]:
 * the registration rule's lastUpdated and notBefore steps apply there too), and the bump after a pop.
 */
import type { ScheduleRule } from './schedule-rule.js';

/** `Next(from)` with the notAfter cut: nothing later than notAfter is ever scheduled (inclusive). */
export function nextWithinConstraints(rule: ScheduleRule, fromMs: number): number | undefined {
  const next = rule.next(fromMs);
  if (next === undefined) return undefined;
  if (rule.notAfterMs !== undefined && next > rule.notAfterMs) return undefined;
  return next;
}

/**
 * Registration: from now, or from status.lastScheduled (at most `maxDowntimeThresholdSeconds` back) so
 * that schedules missed while the controller was down are back-scheduled; never before an edit
 * (lastUpdated) or notBefore.
 */
export function registrationTime(rule: ScheduleRule, nowMs: number, lastScheduledMs: number | undefined, maxDowntimeThresholdSeconds: number): number | undefined {
  let fromMs = nowMs;
  if (lastScheduledMs !== undefined) {
    const thresholdMs = maxDowntimeThresholdSeconds * 1000;
    fromMs = nowMs - lastScheduledMs > thresholdMs ? nowMs - thresholdMs : lastScheduledMs;
  }
  return nextWithinConstraints(rule, respectEditAndNotBefore(rule, fromMs));
}

/** Refresh after a schedule edit ([KF-F2]): from now, but never before lastUpdated or notBefore. */
export function refreshTime(rule: ScheduleRule, nowMs: number): number | undefined {
  return nextWithinConstraints(rule, respectEditAndNotBefore(rule, nowMs));
}

/** Steps 3–4 of the registration rule; notBefore itself may fire, hence one instant (1 ms) before it. */
function respectEditAndNotBefore(rule: ScheduleRule, fromMs: number): number {
  let from = fromMs;
  if (rule.lastUpdatedMs !== undefined && rule.lastUpdatedMs > from) from = rule.lastUpdatedMs;
  if (rule.notBeforeMs !== undefined && rule.notBeforeMs > from) from = rule.notBeforeMs - 1;
  return from;
}
