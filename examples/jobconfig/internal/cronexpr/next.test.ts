/** cronexpr standard-format next times: the upstream cronexpr_test.go vectors of reference-operators §6.1. */
import { nextOfAll, parseCron, parseTimeZone } from './index.js';

const utc = parseTimeZone('');
const at = (iso: string): Date => new Date(iso.endsWith('Z') || /[+-]\d\d:\d\d$/.test(iso) ? iso : `${iso}Z`);
const iso = (date: Date | undefined): string | undefined => date?.toISOString().replace('.000Z', 'Z');

describe('next() in UTC (§6.1 cronexpr vectors)', () => {
  it.each([
    ['* * * * * * *', '2013-01-01T00:00:00', '2013-01-01T00:00:01Z'],
    ['* * * * * * *', '2013-01-01T23:59:59', '2013-01-02T00:00:00Z'],
    ['* * * * * * *', '2016-02-28T23:59:59', '2016-02-29T00:00:00Z'],
    ['*/5 * * * * * *', '2013-01-01T00:00:00', '2013-01-01T00:00:05Z'],
    ['*/5 * * * * * *', '2013-01-01T00:00:59', '2013-01-01T00:01:00Z'],
    ['* * * * *', '2013-01-01T00:00:59', '2013-01-01T00:01:00Z'],
    ['* * * * *', '2012-12-31T23:59:00', '2013-01-01T00:00:00Z'],
    ['17-43/5 * * * *', '2013-01-01T00:00:00', '2013-01-01T00:17:00Z'],
    ['17-43/5 * * * *', '2013-01-01T00:30:00', '2013-01-01T00:32:00Z'],
    ['17-43/5 * * * *', '2013-01-01T00:50:00', '2013-01-01T01:17:00Z'],
    ['15-30/4,55 * * * *', '2013-01-01T00:00:00', '2013-01-01T00:15:00Z'],
    ['15-30/4,55 * * * *', '2013-01-01T00:16:00', '2013-01-01T00:19:00Z'],
    ['15-30/4,55 * * * *', '2013-01-01T00:30:00', '2013-01-01T00:55:00Z'],
    ['15-30/4,55 * * * *', '2013-01-01T00:55:00', '2013-01-01T01:15:00Z'],
    ['0 0 * * MON', '2013-01-01T00:00:00', '2013-01-07T00:00:00Z'],
    ['0 0 * * MON', '2013-12-30T00:30:00', '2014-01-06T00:00:00Z'],
    ['0 0 * * friday', '2013-01-01T00:00:00', '2013-01-04T00:00:00Z'],
    ['0 0 * * 6,7', '2013-01-01T00:00:00', '2013-01-05T00:00:00Z'],
    ['0 0 * * 5-7', '2013-01-01T00:00:00', '2013-01-04T00:00:00Z'],
    ['0 0 14W * *', '2013-03-31T00:00:00', '2013-04-15T00:00:00Z'],
    ['0 0 14W * *', '2013-08-31T00:00:00', '2013-09-13T00:00:00Z'],
    ['0 0 30W * *', '2013-03-02T00:00:00', '2013-03-29T00:00:00Z'],
    ['0 0 30W * *', '2013-09-02T00:00:00', '2013-09-30T00:00:00Z'],
    ['0 0 L * *', '2014-02-01T00:00:00', '2014-02-28T00:00:00Z'],
    ['0 0 L * *', '2016-02-15T00:00:00', '2016-02-29T00:00:00Z'],
    ['0 0 LW * *', '2013-11-02T00:00:00', '2013-11-29T00:00:00Z'],
    ['0 0 LW * *', '2014-08-15T00:00:00', '2014-08-29T00:00:00Z'],
    // 6 tokens: minute hour day-of-month month day-of-week year.
    ['0 0 * 04 * *', '2013-09-02T00:00:00', '2014-04-01T00:00:00Z'],
    ['0 0 * 04 * *', '2014-04-03T03:00:00', '2014-04-04T00:00:00Z'],
    ['* * * * * 2050', '2013-06-15T12:00:00', '2050-01-01T00:00:00Z'],
  ])('%s from %s → %s', (expression, from, expected) => {
    expect(iso(parseCron(expression).next(at(from), utc))).toBe(expected);
  });

  it('0 0 * * 6#5 fires on fifth Saturdays only', () => {
    const expression = parseCron('0 0 * * 6#5');
    const times: Array<string | undefined> = [];
    let from: Date | undefined = at('2013-09-02T00:00:00');
    for (let i = 0; i < 5 && from; i++) {
      from = expression.next(from, utc);
      times.push(iso(from));
    }
    expect(times).toEqual([
      '2013-11-30T00:00:00Z', '2014-03-29T00:00:00Z', '2014-05-31T00:00:00Z', '2014-08-30T00:00:00Z', '2014-11-29T00:00:00Z',
    ]);
  });

  it('* * * * * 1980 never fires again from 2013: undefined (zero time)', () => {
    expect(parseCron('* * * * * 1980').next(at('2013-06-15T12:00:00'), utc)).toBeUndefined();
  });

  it('NextN of */5 * * * * from 2013-09-02 08:44:32', () => {
    const expression = parseCron('*/5 * * * *');
    const times: Array<string | undefined> = [];
    let from: Date | undefined = at('2013-09-02T08:44:32');
    for (let i = 0; i < 5 && from; i++) {
      from = expression.next(from, utc);
      times.push(iso(from));
    }
    expect(times).toEqual([
      '2013-09-02T08:45:00Z', '2013-09-02T08:50:00Z', '2013-09-02T08:55:00Z', '2013-09-02T09:00:00Z', '2013-09-02T09:05:00Z',
    ]);
  });

  it('drops the sub-second part before adding one second', () => {
    expect(iso(parseCron('* * * * * * *').next(at('2013-01-01T00:00:00.999Z'), utc))).toBe('2013-01-01T00:00:01Z');
  });

  it('unsatisfiable days (0 0 30 2 *, 0 0 31 4 *) give undefined', () => {
    expect(parseCron('0 0 30 2 *').next(at('2012-07-09T23:35:00'), utc)).toBeUndefined();
    expect(parseCron('0 0 31 4 *').next(at('2012-07-09T23:35:00'), utc)).toBeUndefined();
  });
});

describe('aliases', () => {
  it.each([
    ['@yearly', '2013-06-15T12:00:00', '2014-01-01T00:00:00Z'],
    ['@annually', '2013-06-15T12:00:00', '2014-01-01T00:00:00Z'],
    ['@monthly', '2013-06-15T12:00:00', '2013-07-01T00:00:00Z'],
    ['@weekly', '2013-06-15T12:00:00', '2013-06-16T00:00:00Z'],
    ['@daily', '2013-06-15T12:00:00', '2013-06-16T00:00:00Z'],
    ['@hourly', '2013-06-15T12:04:00', '2013-06-15T13:00:00Z'],
  ])('%s from %s → %s', (expression, from, expected) => {
    expect(iso(parseCron(expression).next(at(from), utc))).toBe(expected);
  });
});

describe('day rule: dom restricted unless * or ?, likewise dow; both restricted → union', () => {
  it('*/1 in day-of-month counts as restricted, so with a weekday both fire (OR)', () => {
    // 2013-01-01 is a Tuesday; dom */10 gives 1, 11, 21, 31; dow Sunday gives the 6th.
    const expression = parseCron('0 0 */10 * sun');
    expect(iso(expression.next(at('2013-01-01T00:00:00'), utc))).toBe('2013-01-06T00:00:00Z');
    expect(iso(expression.next(at('2013-01-06T00:00:00'), utc))).toBe('2013-01-11T00:00:00Z');
  });

  it('a restricted weekday with dom ? decides alone', () => {
    expect(iso(parseCron('0 0 ? * sun').next(at('2013-01-01T00:00:00'), utc))).toBe('2013-01-06T00:00:00Z');
  });
});

describe('Furiko multi-expression schedules (§6.1 schedule sequences)', () => {
  function sequence(expressions: string[], from: string, count: number): Array<string | undefined> {
    const parsed = expressions.map((expression) => parseCron(expression));
    const times: Array<string | undefined> = [];
    let t: Date | undefined = at(from);
    for (let i = 0; i < count && t; i++) {
      t = nextOfAll(parsed, t, utc);
      times.push(iso(t));
    }
    return times;
  }

  it('0/5 10-18 * * * and 0 0-9,19-23 * * * from 18:47:35', () => {
    expect(sequence(['0/5 10-18 * * *', '0 0-9,19-23 * * *'], '2021-02-09T18:47:35', 5)).toEqual([
      '2021-02-09T18:50:00Z', '2021-02-09T18:55:00Z', '2021-02-09T19:00:00Z', '2021-02-09T20:00:00Z', '2021-02-09T21:00:00Z',
    ]);
  });

  it('same expressions from 07:59:59', () => {
    expect(sequence(['0/5 10-18 * * *', '0 0-9,19-23 * * *'], '2021-02-09T07:59:59', 5)).toEqual([
      '2021-02-09T08:00:00Z', '2021-02-09T09:00:00Z', '2021-02-09T10:00:00Z', '2021-02-09T10:05:00Z', '2021-02-09T10:10:00Z',
    ]);
  });

  it('overlapping and duplicate expressions collapse to one time each', () => {
    const expressions = ['0/5 10-18 * * *', '0 * * * *', '0/5 10-18 * * *'];
    expect(sequence(expressions, '2021-02-09T18:47:35', 5)).toEqual([
      '2021-02-09T18:50:00Z', '2021-02-09T18:55:00Z', '2021-02-09T19:00:00Z', '2021-02-09T20:00:00Z', '2021-02-09T21:00:00Z',
    ]);
    expect(sequence(expressions, '2021-02-09T07:59:59', 5)).toEqual([
      '2021-02-09T08:00:00Z', '2021-02-09T09:00:00Z', '2021-02-09T10:00:00Z', '2021-02-09T10:05:00Z', '2021-02-09T10:10:00Z',
    ]);
  });

  it('0 12 9 2 * 2021 fires once, then never through 2099', () => {
    expect(sequence(['0 12 9 2 * 2021'], '2021-02-09T04:06:13.234Z', 2)).toEqual(['2021-02-09T12:00:00Z', undefined]);
  });

  it('nextOfAll of no expressions is undefined', () => {
    expect(nextOfAll([], at('2021-02-09T04:06:13Z'), utc)).toBeUndefined();
  });
});
