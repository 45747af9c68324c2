/**
 * The cron part of the JobConfig acceptance scenarios (§5.4 JC-1, JC-13, JC-14, JC-16) with Furiko's
 * default parse options: hash names and fields on, hash-empty-seconds off, hash ID "<namespace>/<name>".
 */
import { CronParseError, parseCron, parseTimeZone, type CronOptions } from './index.js';

const furiko = (hashId: string): CronOptions => ({ hashId, hashNames: true, hashFields: true, hashSecondsByDefault: false });
const created = new Date('2024-01-15T10:00:00Z');

function unixTimes(expression: string, hashId: string, zoneName: string, count: number): number[] {
  const parsed = parseCron(expression, furiko(hashId));
  const zone = parseTimeZone(zoneName);
  const result: number[] = [];
  let t: Date | undefined = created;
  for (let i = 0; i < count && t; i++) {
    t = parsed.next(t, zone);
    if (t) result.push(t.getTime() / 1000);
  }
  return result;
}

it('JC-1: jobconfig-sample, H/15 * * * * in Asia/Singapore → xx:05, xx:20, xx:35, xx:50; first 1705313100', () => {
  const times = unixTimes('H/15 * * * *', 'default/jobconfig-sample', 'Asia/Singapore', 5);
  expect(times[0]).toBe(1705313100);
  expect(times.map((t) => new Date(t * 1000).toISOString().slice(11, 16))).toEqual(['10:05', '10:20', '10:35', '10:50', '11:05']);
});

it('JC-13: sg, 0 10 * * * in Asia/Singapore → 2024-01-16T02:00:00Z (1705370400)', () => {
  expect(unixTimes('0 10 * * *', 'default/sg', 'Asia/Singapore', 1)).toEqual([1705370400]);
});

it('JC-13: UTC+1 is a time zone, Mars/Olympus is not', () => {
  expect(parseTimeZone('UTC+1').name).toBe('UTC+01:00');
  expect(() => parseTimeZone('Mars/Olympus')).toThrow();
});

it('JC-14: nightly, H H * * * → 17:03:00Z (1705338180), then daily at 17:03', () => {
  expect(unixTimes('H H * * *', 'default/nightly', 'UTC', 2)).toEqual([1705338180, 1705338180 + 86400]);
});

it('JC-14: hash-cron-expression, H H/5 * * * * * → 10:00:25 (1705312825), 10:05:25, …', () => {
  expect(unixTimes('H H/5 * * * * *', 'default/hash-cron-expression', 'UTC', 3)).toEqual([1705312825, 1705313125, 1705313425]);
});

it('JC-16: 61 * * * * does not parse with validation hash ID ""', () => {
  expect(() => parseCron('61 * * * *', furiko(''))).toThrow(new CronParseError("syntax error in minute field: '61'"));
});
