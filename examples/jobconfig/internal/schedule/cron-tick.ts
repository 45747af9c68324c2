/**
 * One tick of the CronController (§4.4 step 2): pop every heap entry that is due, turn each into a work
 * item (JobConfig key, schedule time) and put the JobConfig back at its following schedule — at most
 * `maxMissedSchedules` work items per JobConfig per tick (Q-F3: 0 disables all scheduling); beyond that the
 * remaining missed times are skipped and the JobConfig resumes after now.
 */
import type { ScheduleHeap } from './schedule-heap.js';
import type { ScheduleRule } from './schedule-rule.js';
import { nextWithinConstraints } from './schedule-time.js';

/** A schedule instant of one JobConfig that is due and needs a Job. */
export interface DueSchedule {
  key: string;
  scheduleTimeMs: number;
}

export interface TickOptions {
  maxMissedSchedules: number;
  /** The schedule of a JobConfig key, or undefined when the JobConfig is gone (its entry is dropped). */
  ruleOf(key: string): ScheduleRule | undefined;
}

export function popDueSchedules(heap: ScheduleHeap, nowMs: number, options: TickOptions): DueSchedule[] {
  const due: DueSchedule[] = [];
  const counts = new Map<string, number>();
  for (let top = heap.peek(); top && top.timeMs <= nowMs; top = heap.peek()) {
    heap.pop();
    const rule = options.ruleOf(top.key);
    if (!rule) continue;
    const count = counts.get(top.key) ?? 0;
    let next: number | undefined;
    if (count >= options.maxMissedSchedules) {
      next = nextWithinConstraints(rule, nowMs);
    } else {
      counts.set(top.key, count + 1);
      due.push({ key: top.key, scheduleTimeMs: top.timeMs });
      next = nextWithinConstraints(rule, top.timeMs);
    }
    if (next !== undefined) heap.set(top.key, next);
  }
  return due;
}
