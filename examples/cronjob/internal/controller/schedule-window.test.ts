/** Missed-run computation of §1.4 step 8: earliest point, deadline clamp, the 100-missed-runs guard. */
import { MAX_MISSED_RUNS, scheduleWindow } from './schedule-window.js';

const ms = (hhmmss: string): number => Date.parse(`2024-01-15T${hhmmss}Z`);

describe('scheduleWindow', () => {
  it('returns the latest missed run and the next one', () => {
    expect(scheduleWindow({ schedule: '*/1 * * * *', earliestMs: ms('10:00:30'), nowMs: ms('10:03:10') })).toEqual({ missedMs: ms('10:03:00'), nextMs: ms('10:04:00') });
  });

  it('has no missed run before the first activation', () => {
    expect(scheduleWindow({ schedule: '*/1 * * * *', earliestMs: ms('10:00:30'), nowMs: ms('10:00:59') })).toEqual({ nextMs: ms('10:01:00') });
  });

  it('clamps the search to startingDeadlineSeconds', () => {
    expect(scheduleWindow({ schedule: '0 * * * *', earliestMs: ms('09:00:30'), nowMs: ms('10:00:50'), startingDeadlineSeconds: 30 })).toEqual({ nextMs: ms('11:00:00') });
    expect(scheduleWindow({ schedule: '0 * * * *', earliestMs: ms('09:00:30'), nowMs: ms('10:00:50'), startingDeadlineSeconds: 60 })).toEqual({ missedMs: ms('10:00:00'), nextMs: ms('11:00:00') });
  });

  it('allows 100 missed runs and refuses 101', () => {
    const earliestMs = ms('10:00:00');
    expect(scheduleWindow({ schedule: '* * * * *', earliestMs, nowMs: earliestMs + MAX_MISSED_RUNS * 60_000 }).missedMs).toBe(earliestMs + 100 * 60_000);
    expect(() => scheduleWindow({ schedule: '* * * * *', earliestMs, nowMs: earliestMs + 101 * 60_000 })).toThrow(
      'Too many missed start times (> 100). Set or decrease .spec.startingDeadlineSeconds or check clock skew.',
    );
  });

  it('reports an impossible date as too many missed runs (zero times count as missed)', () => {
    expect(() => scheduleWindow({ schedule: '0 0 30 2 *', earliestMs: ms('10:00:30'), nowMs: ms('10:00:30') })).toThrow('Too many missed start times');
  });

  it('wraps parse errors as unparseable schedule', () => {
    expect(() => scheduleWindow({ schedule: 'bad', earliestMs: 0, nowMs: 0 })).toThrow('unparseable schedule "bad": Expected exactly 5 fields, found 1: bad');
  });
});
