/**
 * `cronFormat: quartz` (Furiko's CronExecutionConfig): furiko-io/cronexpr's Quartz format, where the
 * day-of-week field counts 1–7 for SUN–SAT (standard: 0–6, 7 also Sunday) and takes no `L`/`#` extras.
 * The vectors are cronexpr's own (cronexpr_format_test.go: TestFormattedExpressionsParsing,
 * TestFormattedExpressions, TestInvalidFormatExpressionsParsing), times in UTC.
 */
import { parseCron, parseTimeZone, type CronOptions } from './index.js';

const quartz: CronOptions = { format: 'quartz' };
const standard: CronOptions = { format: 'standard' };
const utc = parseTimeZone('UTC');
const next = (expression: string, options: CronOptions, from: string): string | undefined =>
  parseCron(expression, options).next(new Date(`${from.replace(' ', 'T')}Z`), utc)?.toISOString().replace('T', ' ').slice(0, 19);

describe('cronFormat quartz: day of week 1–7 is SUN–SAT', () => {
  it.each([
    ['0 0 11 ? * 2 *', '2020-12-12 00:00:00', '2020-12-14 11:00:00'], // Monday
    ['0 0 11 ? * 3-6 *', '2020-12-12 00:00:00', '2020-12-15 11:00:00'], // Tuesday to Friday
    ['0 0 11 ? * * *', '2020-12-12 00:00:00', '2020-12-12 11:00:00'],
    ['0 0 11 ? * 1 *', '2020-12-12 00:00:00', '2020-12-13 11:00:00'], // Sunday
    ['0 0 11 ? * SUN *', '2020-12-12 00:00:00', '2020-12-13 11:00:00'],
    ['0 0 11 ? * sunday *', '2020-12-12 00:00:00', '2020-12-13 11:00:00'],
    ['0 0 11 ? * TUE *', '2020-12-14 00:00:00', '2020-12-15 11:00:00'],
    ['0 0 11 ? * tuesday *', '2020-12-14 00:00:00', '2020-12-15 11:00:00'],
  ])('%s after %s → %s', (expression, from, expected) => {
    expect(next(expression, quartz, from)).toBe(expected);
  });

  it('the same expression in the standard format reads 2 as Tuesday', () => {
    expect(next('0 0 11 ? * 2 *', standard, '2020-12-12 00:00:00')).toBe('2020-12-15 11:00:00');
    expect(next('0 0 11 ? * 2 *', {}, '2020-12-12 00:00:00')).toBe('2020-12-15 11:00:00');
  });

  it.each(['0 0 11 ? * 2 *', '0 0 11 ? * 2-3 *', '0 0 11 ? * * *', '0 /5 * ? * * *', '0 */5 ** ? * * *', '0 */5 * ?? * * *', '0 0 2 * 1-7 *', '0 0 11 ? *'])(
    'parses %s',
    (expression) => {
      expect(() => parseCron(expression, quartz)).not.toThrow();
    },
  );

  it.each([
    ['0 0 11 ? * 0 *', "syntax error in day-of-week field: '0'"],
    ['0 0 11 ? * 1- *', "syntax error in day-of-week field: '1-'"],
    ['0 0 11 ? * 1-8 *', "syntax error in day-of-week field: '1-8'"],
    ['0 0 11 ? * -3 *', "syntax error in day-of-week field: '-3'"],
    ['0 0 11 ? * 8 *', "syntax error in day-of-week field: '8'"],
    ['0 0 11 ? * 0-7 *', "syntax error in day-of-week field: '0-7'"],
    ['0 0 11 ? * -2-7 *', "syntax error in day-of-week field: '-2-7'"],
    ['0 0 11 ? * 1--6 *', "syntax error in day-of-week field: '1--6'"],
    ['0 0 11 ? * 6L *', "syntax error in day-of-week field: '6L'"],
    ['0 0 11 ? * 2#1 *', "syntax error in day-of-week field: '2#1'"],
    ['? * 0-7 *', 'missing field(s)'],
    ['60 0 11 ? * 1-7 *', "syntax error in second field: '60'"],
    ['0 0 24 ? * 1-7 *', "syntax error in hour field: '24'"],
    ['0 0 2 32 * 1-7 *', "syntax error in day-of-month field: '32'"],
  ])('rejects %s (%s)', (expression, message) => {
    expect(() => parseCron(expression, quartz)).toThrow(message);
  });

  it('standard still takes 0, 7 and the L/# extras', () => {
    expect(() => parseCron('0 0 11 ? * 0 *', standard)).not.toThrow();
    expect(() => parseCron('0 0 11 ? * 7 *', standard)).not.toThrow();
    expect(() => parseCron('0 0 11 ? * 6L *', standard)).not.toThrow();
  });
});
