/** The tick's pop loop (§4.4 step 2) and the registration/refresh rules, on an every-minute test schedule. */
import { popDueSchedules } from './cron-tick.js';
import { ScheduleHeap } from './schedule-heap.js';
import type { ScheduleRule } from './schedule-rule.js';
import { refreshTime, registrationTime } from './schedule-time.js';

const MINUTE = 60_000;
const t = (hhmmss: string): number => Date.parse(`2022-04-01T${hhmmss}Z`);
const hhmm = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

/** `* * * * *`: every whole minute, strictly after. */
function everyMinute(extra: Partial<ScheduleRule> = {}): ScheduleRule {
  return { next: (after) => (Math.floor(after / MINUTE) + 1) * MINUTE, ...extra };
}

describe('popDueSchedules', () => {
  function tick(heap: ScheduleHeap, rules: Map<string, ScheduleRule>, now: string, maxMissedSchedules = 5): string[] {
    return popDueSchedules(heap, t(now), { maxMissedSchedules, ruleOf: (key) => rules.get(key) }).map((d) => `${d.key}@${hhmm(d.scheduleTimeMs)}`);
  }

  it('follows the upstream cron worker sequence for * * * * * (nothing early, catch-up after a jump)', () => {
    const rules = new Map([['default/a', everyMinute()]]);
    const heap = new ScheduleHeap();
    heap.set('default/a', registrationTime(rules.get('default/a')!, t('10:52:04'), undefined, 300)!);
    expect(tick(heap, rules, '10:52:59')).toEqual([]);
    expect(tick(heap, rules, '10:53:00')).toEqual(['default/a@10:53:00']);
    expect(tick(heap, rules, '10:53:01')).toEqual([]);
    expect(tick(heap, rules, '10:54:00')).toEqual(['default/a@10:54:00']);
    expect(tick(heap, rules, '10:57:00')).toEqual(['default/a@10:55:00', 'default/a@10:56:00', 'default/a@10:57:00']);
    expect(heap.get('default/a')).toBe(t('10:58:00'));
  });

  it('enqueues at most maxMissedSchedules per JobConfig per tick and resumes after now', () => {
    const rules = new Map([['default/a', everyMinute()], ['default/b', everyMinute()]]);
    const heap = new ScheduleHeap();
    heap.set('default/a', t('10:53:00'));
    heap.set('default/b', t('10:58:00'));
    expect(tick(heap, rules, '10:53:00', 3)).toEqual(['default/a@10:53:00']);
    expect(tick(heap, rules, '10:59:00', 3)).toEqual(['default/a@10:54:00', 'default/a@10:55:00', 'default/a@10:56:00', 'default/b@10:58:00', 'default/b@10:59:00']);
    expect(heap.get('default/a')).toBe(t('11:00:00'));
    expect(tick(heap, rules, '11:00:00', 3)).toEqual(['default/a@11:00:00', 'default/b@11:00:00']);
  });

  it('schedules nothing at all when maxMissedSchedules is 0 (Q-F3)', () => {
    const rules = new Map([['default/a', everyMinute()]]);
    const heap = new ScheduleHeap();
    heap.set('default/a', t('10:53:00'));
    expect(tick(heap, rules, '10:55:00', 0)).toEqual([]);
    expect(heap.get('default/a')).toBe(t('10:56:00'));
  });

  it('drops JobConfigs that are gone and stops at notAfter', () => {
    const rules = new Map([['default/cut', everyMinute({ notAfterMs: t('10:54:00') })]]);
    const heap = new ScheduleHeap();
    heap.set('default/gone', t('10:53:00'));
    heap.set('default/cut', t('10:53:00'));
    expect(tick(heap, rules, '10:53:00')).toEqual(['default/cut@10:53:00']);
    expect(heap.get('default/gone')).toBeUndefined();
    expect(tick(heap, rules, '10:54:00')).toEqual(['default/cut@10:54:00']);
    expect(heap.size).toBe(0);
  });
});

describe('registrationTime and refreshTime', () => {
  const now = Date.parse('2021-02-09T04:06:13.234Z');
  const at = (hhmm: string, day = '09'): number => Date.parse(`2021-02-${day}T${hhmm}:00Z`);

  it('starts after now without a lastScheduled', () => {
    expect(registrationTime(everyMinute(), now, undefined, 300)).toBe(at('04:07'));
  });

  it('back-schedules from lastScheduled, at most maxDowntimeThresholdSeconds back', () => {
    expect(registrationTime(everyMinute(), now, at('04:02'), 300)).toBe(at('04:03'));
    expect(registrationTime(everyMinute(), now, at('02:46'), 300)).toBe(at('04:02'));
  });

  it('never back-schedules across an edit (lastUpdated)', () => {
    expect(registrationTime(everyMinute({ lastUpdatedMs: now }), now, at('02:46'), 300)).toBe(at('04:07'));
  });

  it('lets notBefore itself fire and ignores a notBefore in the past', () => {
    expect(registrationTime(everyMinute({ notBeforeMs: at('04:02', '10') }), now, undefined, 300)).toBe(at('04:02', '10'));
    expect(registrationTime(everyMinute({ notBeforeMs: at('04:02', '10') }), now, at('04:02'), 300)).toBe(at('04:02', '10'));
    expect(registrationTime(everyMinute({ notBeforeMs: at('04:01'), lastUpdatedMs: now }), now, at('04:02'), 300)).toBe(at('04:07'));
  });

  it('never schedules after notAfter', () => {
    expect(registrationTime(everyMinute({ notAfterMs: at('04:06') }), now, undefined, 300)).toBeUndefined();
    expect(registrationTime(everyMinute({ notAfterMs: at('04:07') }), now, undefined, 300)).toBe(at('04:07'));
  });

  it('refreshes from now, or from lastUpdated / notBefore when later ([KF-F2])', () => {
    expect(refreshTime(everyMinute(), now)).toBe(at('04:07'));
    expect(refreshTime(everyMinute({ lastUpdatedMs: at('04:20') }), now)).toBe(at('04:21'));
    expect(refreshTime(everyMinute({ notBeforeMs: at('05:00') }), now)).toBe(at('05:00'));
    expect(refreshTime(everyMinute({ notAfterMs: at('04:00') }), now)).toBeUndefined();
  });
});
