/** `H` tokens: the upstream cronexpr_hash_test.go vectors (§4.3) and Furiko's hash IDs (§6.2). */
import { CronParseError, parseCron, parseTimeZone, type CronOptions } from './index.js';

const utc = parseTimeZone('UTC');
const iso = (date: Date | undefined): string | undefined => date?.toISOString().replace('.000Z', 'Z');

function times(expression: string, options: CronOptions, from: string, count: number): Array<string | undefined> {
  const parsed = parseCron(expression, options);
  const result: Array<string | undefined> = [];
  let t: Date | undefined = new Date(from);
  for (let i = 0; i < count && t; i++) {
    t = parsed.next(t, utc);
    result.push(iso(t));
  }
  return result;
}

describe('§4.3 vectors without hash fields (plain id), from 2021-09-01T00:00:00Z', () => {
  const from = '2021-09-01T00:00:00Z';
  it.each<[string, string, string, string[]]>([
    ['0 H * ? * * *', 'myid1', from, ['2021-09-01T00:59:00Z']],
    ['0 H * ? * * *', 'myid2', from, ['2021-09-01T00:07:00Z']],
    ['0 0 H ? * * *', 'myid1', from, ['2021-09-01T11:00:00Z']],
    ['0 0 H ? * * *', 'myid2', from, ['2021-09-01T19:00:00Z']],
    ['0 0 0 H * * *', 'myid1', from, ['2021-09-28T00:00:00Z']],
    ['0 0 0 H * * *', 'myid2', from, ['2021-09-04T00:00:00Z']],
    ['0 0 0 ? H * *', 'myid1', '2021-01-01T00:00:00Z', ['2021-12-01T00:00:00Z']],
    ['0 0 0 ? H * *', 'myid2', '2021-01-01T00:00:00Z', ['2021-08-01T00:00:00Z']],
    ['0 0 0 ? * H *', 'myid1', from, ['2021-09-04T00:00:00Z']],
    ['0 0 0 ? * H *', 'myid2', from, ['2021-09-08T00:00:00Z']],
    ['0 0 0 ? * * H', 'myid1', '2015-01-01T00:00:00Z', ['2019-01-01T00:00:00Z']],
    ['0 0 0 ? * * H', 'myid2', '2015-01-01T00:00:00Z', ['2017-01-01T00:00:00Z']],
    ['0 H H ? * * *', 'myid1', from, ['2021-09-01T11:59:00Z', '2021-09-02T11:59:00Z']],
    ['H H ? * * *', 'myid1', from, ['2021-09-01T11:59:00Z', '2021-09-02T11:59:00Z']],
    ['0 H H ? * * *', 'myid2', from, ['2021-09-01T19:07:00Z']],
    ['H H ? * * *', 'myid2', from, ['2021-09-01T19:07:00Z']],
    ['H H H ? * * *', 'myid1', from, ['2021-09-01T11:59:59Z']],
    ['H H H ? * * *', 'myid2', from, ['2021-09-01T19:07:07Z']],
    ['H H(0-7) * * *', 'myid1', from, ['2021-09-01T03:59:00Z']],
    ['H H(0-7) * * *', 'myid2', from, ['2021-09-01T03:07:00Z']],
    ['H H(0-7) * * *', 'myid3', from, ['2021-09-01T05:49:00Z']],
    ['0 H/5 * ? * * *', 'myid1', from, ['2021-09-01T00:04:00Z', '2021-09-01T00:09:00Z', '2021-09-01T00:14:00Z']],
    ['0 H/5 * ? * * *', 'myid1', '2021-09-01T00:59:00Z', ['2021-09-01T01:04:00Z']],
    ['0 H/5 * ? * * *', 'myid2', from, ['2021-09-01T00:02:00Z', '2021-09-01T00:07:00Z']],
    ['0 H/7 * ? * * *', 'myid1', from, ['2021-09-01T00:06:00Z', '2021-09-01T00:13:00Z', '2021-09-01T00:20:00Z']],
    ['0 H/7 * ? * * *', 'myid1', '2021-09-01T00:55:00Z', ['2021-09-01T01:06:00Z']],
    ['0 H/7 * ? * * *', 'myid2', from, ['2021-09-01T00:03:00Z', '2021-09-01T00:10:00Z']],
    ['0 H/7 * ? * * *', 'myid2', '2021-09-01T00:52:00Z', ['2021-09-01T00:59:00Z', '2021-09-01T01:03:00Z']],
    ['H H/5 * ? * * *', 'myid1', from, ['2021-09-01T00:04:59Z', '2021-09-01T00:09:59Z']],
    ['H H/5 * ? * * *', 'myid2', from, ['2021-09-01T00:02:07Z', '2021-09-01T00:07:07Z']],
    ['0 H(5-20) * ? * * *', 'myid1', from, ['2021-09-01T00:08:00Z', '2021-09-01T01:08:00Z']],
    ['0 H(5-20) * ? * * *', 'myid2', from, ['2021-09-01T00:08:00Z']],
    ['0 H(5-20) * ? * * *', 'myid3', from, ['2021-09-01T00:18:00Z']], // negative remainder case
    ['0 H(5-20)/5 * ? * * *', 'myid1', from, ['2021-09-01T00:09:00Z', '2021-09-01T00:14:00Z', '2021-09-01T00:19:00Z', '2021-09-01T01:09:00Z']],
    ['0 H(5-20)/5 * ? * * *', 'myid2', from, ['2021-09-01T00:07:00Z', '2021-09-01T00:12:00Z', '2021-09-01T00:17:00Z', '2021-09-01T01:07:00Z']],
  ])('%s with %s from %s → %j', (expression, hashId, start, expected) => {
    expect(times(expression, { hashId }, start, expected.length)).toEqual(expected);
  });
});

describe('§4.3 vectors with hashed empty seconds and hash fields', () => {
  const options = (hashId: string): CronOptions => ({ hashId, hashFields: true, hashSecondsByDefault: true });
  it.each<[string, string, string[]]>([
    ['H H ? * * *', 'myid1', ['2021-09-01T07:36:44Z']],
    ['H H ? * * *', 'myid2', ['2021-09-01T04:43:56Z']],
    ['H/5 * ? * * *', 'myid1', ['2021-09-01T00:01:44Z', '2021-09-01T00:06:44Z']],
    ['H/5 * ? * * *', 'myid2', ['2021-09-01T00:03:56Z', '2021-09-01T00:08:56Z']],
  ])('%s with %s → %j', (expression, hashId, expected) => {
    expect(times(expression, options(hashId), '2021-09-01T00:00:00Z', expected.length)).toEqual(expected);
  });

  it('hashSecondsByDefault leaves 7-token expressions alone', () => {
    expect(times('0 H H ? * * *', options('myid1'), '2021-09-01T00:00:00Z', 1)[0]).toMatch(/:00Z$/);
  });
});

/**
 * §6.2: H per field for Furiko keys "<namespace>/<name>" with hash fields on. Each value is observed through
 * next() from an instant one second before the period it falls in; `null` marks a parse error (✗), `undefined`
 * a value the table leaves blank.
 */
type Row = [
  hashId: string, second?: number, minute?: number, hour?: number, dom?: number, month?: number, dow?: number,
  every15Minutes?: number, every5Minutes?: number, every6Hours?: number, every3Days?: number | null,
  every2Months?: number | null, minute5To19?: number,
];
const TABLE: Row[] = [
  ['default/jobconfig-sample', 14, 20, 1, 2, 1, 6, 5, 0, 1, 2, null, 10],
  ['default/hash-cron-expression', 25, 30, 8, 26, 5, 3, 0, 0, 2, 2, null, 5],
  ['default/nightly', 3, 3, 17, 11, 12, 0, 3, 3, 5, 1, 1, 8],
  ['default/report', 27, 15, 20, 13, 8, 6, 0, 0, 2, 1, 1, 5],
  ['default/job-d', undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, 1, 1],
  ['default/job-f', undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined, null, 1],
  ['prod/billing', 51, 13, 0, 27, 9, 0, 13, 3, 0, 2, null, 18],
  ['', 23, 58, 15, 10, 5, 5, 13, 3, 3, 2, null, 18],
];

const pad = (n: number): string => String(n).padStart(2, '0');

/** [expression, from, expected next for value v] per column of the table. */
const COLUMNS: Array<[string, string, (v: number) => string]> = [
  ['H * * * * * *', '2024-01-15T10:00:59Z', (v) => `2024-01-15T10:01:${pad(v)}Z`],
  ['H * * * *', '2024-01-15T10:59:59Z', (v) => `2024-01-15T11:${pad(v)}:00Z`],
  ['0 H * * *', '2024-01-14T23:59:59Z', (v) => `2024-01-15T${pad(v)}:00:00Z`],
  ['0 0 H * *', '2023-12-31T23:59:59Z', (v) => `2024-01-${pad(v)}T00:00:00Z`],
  ['0 0 1 H *', '2023-12-31T23:59:59Z', (v) => `2024-${pad(v)}-01T00:00:00Z`],
  ['0 0 * * H', '2024-01-13T23:59:59Z', (v) => `2024-01-${pad(14 + v)}T00:00:00Z`], // Jan 14 2024 is a Sunday
  ['H/15 * * * *', '2024-01-15T10:59:59Z', (v) => `2024-01-15T11:${pad(v)}:00Z`],
  ['H/5 * * * *', '2024-01-15T10:59:59Z', (v) => `2024-01-15T11:${pad(v)}:00Z`],
  ['0 H/6 * * *', '2024-01-14T23:59:59Z', (v) => `2024-01-15T${pad(v)}:00:00Z`],
  ['0 0 H/3 * *', '2023-12-31T23:59:59Z', (v) => `2024-01-${pad(v)}T00:00:00Z`],
  ['0 0 1 H/2 *', '2023-12-31T23:59:59Z', (v) => `2024-${pad(v)}-01T00:00:00Z`],
  ['H(5-19) * * * *', '2024-01-15T10:59:59Z', (v) => `2024-01-15T11:${pad(v)}:00Z`],
];

const cases: Array<[string, string, number | null]> = [];
for (const [hashId, ...values] of TABLE) {
  values.forEach((value, column) => {
    if (value !== undefined) cases.push([hashId, COLUMNS[column]![0], value]);
  });
}

describe('§6.2 H values for Furiko hash IDs (hash fields on)', () => {
  it.each(cases)('%j: %s → %s', (hashId, expression, value) => {
    const options: CronOptions = { hashId, hashFields: true };
    const [, from, expected] = COLUMNS.find(([candidate]) => candidate === expression)!;
    if (value === null) {
      expect(() => parseCron(expression, options)).toThrow(
        new CronParseError(`beginning of range (0) below minimum (1): ${expression.split(' ').find((t) => t.startsWith('H'))!.toLowerCase()}`),
      );
    } else {
      expect(iso(parseCron(expression, options).next(new Date(from), utc))).toBe(expected(value));
    }
  });

  it('the H/n values repeat every n (default/nightly: H/15 minutes → 03, 18, 33, 48)', () => {
    expect(times('H/15 * * * *', { hashId: 'default/nightly', hashFields: true }, '2024-01-15T10:00:00Z', 4)).toEqual([
      '2024-01-15T10:03:00Z', '2024-01-15T10:18:00Z', '2024-01-15T10:33:00Z', '2024-01-15T10:48:00Z',
    ]);
  });

  it('the same ID without hash fields gives one value in every field', () => {
    const withoutFields = times('H H * * *', { hashId: 'default/report' }, '2024-01-15T00:00:00Z', 1)[0]!;
    const [hour, minute] = withoutFields.slice(11, 16).split(':').map(Number);
    const withFields = times('H H * * *', { hashId: 'default/report', hashFields: true }, '2024-01-15T00:00:00Z', 1);
    expect(withFields).toEqual(['2024-01-15T20:15:00Z']); // hour 20, minute 15 from the table
    expect([hour, minute]).not.toEqual([20, 15]);
  });
});
