/** `@every <duration>` schedules as robfig/cron (kube-controller-manager's parser): Go's durations and error texts. */
import { cronScheduleError } from '../registry/builtin/batch-kinds.js';
import { parseSchedule, ScheduleError } from './cron-schedule.js';

const at = Date.parse('2024-01-15T10:00:00Z');

test('@every takes Go durations, rounded down to whole seconds with a one-second minimum', () => {
  expect(parseSchedule('@every 90s', undefined).next(at) - at).toBe(90_000);
  expect(parseSchedule('@every 1h30m', undefined).next(at) - at).toBe(5_400_000);
  expect(parseSchedule('@every 1.5m', undefined).next(at) - at).toBe(90_000);
  expect(parseSchedule('@every 2500ms', undefined).next(at) - at).toBe(2_000);
  expect(parseSchedule('@every 500ms', undefined).next(at) - at).toBe(1_000);
});

test.each([
  ['@every 5x', 'time: unknown unit "x" in duration "5x"'],
  ['@every 5', 'time: missing unit in duration "5"'],
  ['@every soon', 'time: invalid duration "soon"'],
])('%s is unparseable with time.ParseDuration\'s error', (schedule, goError) => {
  expect(() => parseSchedule(schedule, undefined)).toThrow(ScheduleError);
  expect(() => parseSchedule(schedule, undefined)).toThrow(`unparseable schedule: "${schedule}" : failed to parse duration ${schedule}: ${goError}`);
});

test("the API server's CronJob validation refuses a bad @every with robfig's message (time.ParseDuration's error)", () => {
  expect(cronScheduleError('@every 90s')).toBeUndefined();
  expect(cronScheduleError('@every 5x')).toBe('failed to parse duration @every 5x: time: unknown unit "x" in duration "5x"');
  expect(cronScheduleError('@every 5')).toBe('failed to parse duration @every 5: time: missing unit in duration "5"');
});
