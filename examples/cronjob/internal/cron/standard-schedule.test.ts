/** robfig v1 standard cron semantics: the vectors and error messages of reference-operators.md §1.3 / §6.1. */
import { CronExpressionParser } from 'cron-parser';
import { parseGoDurationNanos as parseGoDuration } from 'kubeforge/runtime';
import { isZeroTime, parseStandard, ZERO_TIME } from './standard-schedule.js';

const utc = (s: string): Date => new Date(`${s}Z`);
const iso = (d: Date): string => d.toISOString().replace('.000Z', 'Z');

describe('parseStandard next() — robfig spec_test vectors (§6.1)', () => {
  const vectors: Array<[string, string, string]> = [
    ['2012-07-09T14:45:00', '0/15 * * * *', '2012-07-09T15:00:00Z'],
    ['2012-07-09T14:59:59', '0/15 * * * *', '2012-07-09T15:00:00Z'],
    ['2012-07-09T15:45:00', '20-35/15 * * * *', '2012-07-09T16:20:00Z'],
    ['2012-07-09T23:46:00', '*/15 * * * *', '2012-07-10T00:00:00Z'],
    ['2012-07-09T23:35:00', '0 0 9 Apr-Oct ?', '2012-08-09T00:00:00Z'],
    ['2012-07-09T23:35:00', '0 0 */5 Apr,Aug,Oct Mon', '2012-08-06T00:00:00Z'],
    ['2012-07-09T23:35:00', '0 0 */5 Oct Mon', '2012-10-01T00:00:00Z'],
    ['2012-07-09T23:35:00', '0 0 * Feb Mon', '2013-02-04T00:00:00Z'],
    ['2012-07-09T23:35:00', '0 0 * Feb Mon/2', '2013-02-01T00:00:00Z'],
    ['2012-12-31T23:59:45', '* * * * *', '2013-01-01T00:00:00Z'],
    ['2012-07-09T23:35:00', '0 0 29 Feb ?', '2016-02-29T00:00:00Z'],
  ];
  it.each(vectors)('from %s, %s → %s', (from, spec, expected) => {
    expect(iso(parseStandard(spec).next(utc(from)))).toBe(expected);
  });

  it.each(['0 0 30 Feb ?', '0 0 31 Apr ?'])('%s never fires: zero time', (spec) => {
    const next = parseStandard(spec).next(utc('2012-07-09T23:35:00'));
    expect(isZeroTime(next)).toBe(true);
    expect(isZeroTime(parseStandard(spec).next(ZERO_TIME))).toBe(true);
  });
});

/** True when the schedule fires exactly at minute `at` (robfig's activation test: Next(at − 1 s) == at). */
function firesAt(spec: string, at: string): boolean {
  const t = utc(at);
  return parseStandard(spec).next(new Date(t.getTime() - 1000)).getTime() === t.getTime();
}

describe('activation (§6.1)', () => {
  it('both day fields restricted → either matches', () => {
    expect(firesAt('* * 1,15 * Sun', '2012-07-15T00:00:00')).toBe(true);
    expect(firesAt('* * 1,15 * Sun', '2012-06-15T00:00:00')).toBe(true);
    expect(firesAt('* * 1,15 * Sun', '2012-08-01T00:00:00')).toBe(true);
  });
  it('a star day field → both must match', () => {
    expect(firesAt('* * * * Mon', '2012-07-15T00:00:00')).toBe(false);
    expect(firesAt('* * */10 * Sun', '2012-07-15T00:00:00')).toBe(false);
    expect(firesAt('* * */2 * Sun', '2012-07-15T00:00:00')).toBe(true);
  });
  it('descriptors', () => {
    expect(firesAt('@hourly', '2012-07-15T15:00:00')).toBe(true);
    expect(firesAt('@hourly', '2012-07-15T15:04:00')).toBe(false);
    expect(firesAt('@weekly', '2012-07-08T00:00:00')).toBe(true);
    expect(firesAt('@weekly', '2012-07-09T00:00:00')).toBe(false);
    expect(firesAt('@monthly', '2012-07-01T00:00:00')).toBe(true);
    expect(firesAt('@monthly', '2012-07-02T00:00:00')).toBe(false);
    expect(iso(parseStandard('@yearly').next(utc('2012-07-09T23:35:00')))).toBe('2013-01-01T00:00:00Z');
    expect(iso(parseStandard('@daily').next(utc('2012-07-09T23:35:00')))).toBe('2012-07-10T00:00:00Z');
  });
  it('names are case-insensitive', () => {
    expect(iso(parseStandard('0 0 * * SUN').next(utc('2024-01-15T10:00:00')))).toBe('2024-01-21T00:00:00Z');
    expect(iso(parseStandard('0 0 1 JaN *').next(utc('2024-01-15T10:00:00')))).toBe('2025-01-01T00:00:00Z');
  });
});

describe('@every (constant delay)', () => {
  it('adds the delay to the time with its sub-second part dropped', () => {
    expect(iso(parseStandard('@every 90s').next(new Date('2024-01-15T10:00:30.750Z')))).toBe('2024-01-15T10:02:00Z');
  });
  it('rounds the delay down to whole seconds, at least one second', () => {
    expect(iso(parseStandard('@every 1500ms').next(utc('2024-01-15T10:00:00')))).toBe('2024-01-15T10:00:01Z');
    expect(iso(parseStandard('@every 10ms').next(utc('2024-01-15T10:00:00')))).toBe('2024-01-15T10:00:01Z');
    expect(iso(parseStandard('@every 1h30m').next(utc('2024-01-15T10:00:00')))).toBe('2024-01-15T11:30:00Z');
  });
  it('parses Go durations', () => {
    expect(parseGoDuration('1.5h')).toBe(5_400_000_000_000n);
    expect(parseGoDuration('-2m3s')).toBe(-123_000_000_000n);
    expect(parseGoDuration('0')).toBe(0n);
    expect(() => parseGoDuration('5')).toThrow('time: missing unit in duration "5"');
    expect(() => parseGoDuration('')).toThrow('time: invalid duration ""');
    expect(() => parseGoDuration('.s')).toThrow('time: invalid duration ".s"');
  });
});

describe('parse errors, robfig messages verbatim (§1.3)', () => {
  const cases: Array<[string, string]> = [
    ['', 'Empty spec string'],
    ['* * * *', 'Expected exactly 5 fields, found 4: * * * *'],
    ['invalid-cron-schedule', 'Expected exactly 5 fields, found 1: invalid-cron-schedule'],
    ['* * * * * *', 'Expected exactly 5 fields, found 6: * * * * * *'],
    ['60 * * * *', 'End of range (60) above maximum (59): 60'],
    ['0 0 * * 7', 'End of range (7) above maximum (6): 7'],
    ['5-1 * * * *', 'Beginning of range (5) beyond end of range (1): 5-1'],
    ['*/0 * * * *', 'Step of range should be a positive number: */0'],
    ['a * * * *', 'Failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax'],
    ['1-2-3 * * * *', 'Too many hyphens: 1-2-3'],
    ['*/2/3 * * * *', 'Too many slashes: */2/3'],
    ['@foo', 'Unrecognized descriptor: @foo'],
    ['0 0 0 * *', 'Beginning of range (0) below minimum (1): 0'],
    ['0 0 * 13 *', 'End of range (13) above maximum (12): 13'],
    ['@every 5x', 'Failed to parse duration @every 5x: time: unknown unit "x" in duration "5x"'],
  ];
  it.each(cases)('%j → %s', (spec, message) => {
    // the whole message, verbatim (a wrapped error also carries its cause, which robfig's text does not show)
    expect(() => parseStandard(spec)).toThrow(new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
  });
  it.each(['@hourly', '@every 90s', '0 0 * * sun', '*/5 * * * *', '0 0 * * *', '0 0 30 2 *', '0-59/10 1,2 ? * mon-fri'])('accepts %j', (spec) => {
    expect(() => parseStandard(spec)).not.toThrow();
  });
});

describe('agrees with cron-parser where both semantics coincide', () => {
  // Expressions without a star-with-step day field and without day-of-week 7: both libraries mean the same.
  const expressions = ['*/7 * * * *', '5 4 * * *', '0 22 * * 1-5', '23 0-20/2 * * *', '0 0,12 1 */2 *', '15 14 1 * *', '0 0 1,15 * 3', '30 6 * jan-mar sat'];
  const starts = ['2024-01-15T10:00:30', '2024-02-28T23:59:59', '2023-12-31T23:10:00', '2024-06-30T00:00:00'];
  it.each(expressions)('%s', (spec) => {
    for (const start of starts) {
      let ours = utc(start);
      const oracle = CronExpressionParser.parse(spec, { currentDate: utc(start), tz: 'UTC' });
      for (let i = 0; i < 20; i++) {
        ours = parseStandard(spec).next(ours);
        expect(iso(ours)).toBe(iso(oracle.next().toDate()));
      }
    }
  });
});
