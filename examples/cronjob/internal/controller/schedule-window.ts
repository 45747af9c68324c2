/**
 * Which scheduled run is due now: the latest run time missed since the last one (or since creation),
 * limited by `startingDeadlineSeconds` and by the guard against more than 100 missed runs, and when the
 * next run falls.
 */
import { parseStandard } from '../cron/standard-schedule.js';

/** More missed runs than this and the CronJob reports an error instead of starting anything. */
export const MAX_MISSED_RUNS = 100;

export interface ScheduleWindowInput {
  schedule: string;
  /** Where the search for missed runs starts: the last scheduled time, else the creation time (ms). */
  earliestMs: number;
  nowMs: number;
  startingDeadlineSeconds?: number;
}

export interface ScheduleWindow {
  /** The latest run time in (earliest, now], if any. */
  missedMs?: number;
  /** The first run time after now (may be Go's zero time for impossible schedules). */
  nextMs: number;
}

/** Throws `unparseable schedule …` or the too-many-missed error, both as the reference words them. */
export function scheduleWindow(input: ScheduleWindowInput): ScheduleWindow {
  let schedule;
  try {
    schedule = parseStandard(input.schedule);
  } catch (err) {
    throw new Error(`unparseable schedule ${JSON.stringify(input.schedule)}: ${(err as Error).message}`, { cause: err });
  }
  const now = new Date(input.nowMs);
  let earliest = input.earliestMs;
  if (input.startingDeadlineSeconds !== undefined) earliest = Math.max(earliest, input.nowMs - input.startingDeadlineSeconds * 1000);
  if (earliest > input.nowMs) return { nextMs: schedule.next(now).getTime() };

  let missedMs: number | undefined;
  let starts = 0;
  for (let t = schedule.next(new Date(earliest)); t.getTime() <= input.nowMs; t = schedule.next(t)) {
    missedMs = t.getTime();
    starts++;
    if (starts > MAX_MISSED_RUNS) throw new Error(`Too many missed start times (> ${MAX_MISSED_RUNS}). Set or decrease .spec.startingDeadlineSeconds or check clock skew.`);
  }
  return { ...(missedMs !== undefined ? { missedMs } : {}), nextMs: schedule.next(now).getTime() };
}
