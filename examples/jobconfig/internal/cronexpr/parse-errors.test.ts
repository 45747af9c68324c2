/** cronexpr's parse errors and token rules (§4.3), including [KF-F9] and Q-F4. */
import { CronParseError, parseCron, parseTimeZone, type CronOptions } from './index.js';

const utc = parseTimeZone('UTC');
const iso = (date: Date | undefined): string | undefined => date?.toISOString().replace('.000Z', 'Z');

function parseError(expression: string, options?: CronOptions): string {
  try {
    parseCron(expression, options);
  } catch (error) {
    expect(error).toBeInstanceOf(CronParseError);
    return (error as Error).message;
  }
  throw new Error(`${expression} parsed without error`);
}

describe('upstream error vectors', () => {
  it.each([
    ['20-10 * * * *', 'beginning of range (20) beyond end of range (10): 20-10'],
    ['1-60 * * * *', "syntax error in minute field: '1-60'"],
    ['* 10-24 * * *', "syntax error in hour field: '10-24'"],
    ['* * 0-10 * *', "syntax error in day-of-month field: '0-10'"],
    ['* * * 0-11 *', "syntax error in month field: '0-11'"],
    ['* * * * 1-8', "syntax error in day-of-week field: '1-8'"],
    ['* * * * 5-2', 'beginning of range (5) beyond end of range (2): 5-2'],
  ])('%s → %s', (expression, message) => {
    expect(parseError(expression)).toBe(message);
  });
});

describe('token counts', () => {
  it.each(['', '* * * *', '@every 5m', '@reboot'])('%j → missing field(s)', (expression) => {
    expect(parseError(expression)).toBe('missing field(s)');
  });

  it('tokens beyond the seventh are ignored', () => {
    expect(iso(parseCron('0 30 10 * * * 2030 garbage here').next(new Date('2029-06-01T00:00:00Z'), utc))).toBe(
      '2030-01-01T10:30:00Z',
    );
  });

  it('6 tokens put the year last (no seconds)', () => {
    expect(iso(parseCron('30 10 * * * 2030').next(new Date('2029-06-01T00:00:00Z'), utc))).toBe('2030-01-01T10:30:00Z');
  });

  it('field errors name the field the token lands in', () => {
    expect(parseError('60 * * * * * *')).toBe("syntax error in second field: '60'");
    expect(parseError('* * * * * 1969')).toBe("syntax error in year field: '1969'");
    expect(parseError('* * * * * 2100')).toBe("syntax error in year field: '2100'");
  });
});

describe('entry forms and spellings', () => {
  const from = new Date('2013-01-01T00:00:00Z'); // a Tuesday
  it.each([
    ['0 0 * * tuesday', '2013-01-08T00:00:00Z'],
    ['0 0 * * TUE', '2013-01-08T00:00:00Z'],
    ['0 0 * JAN,Feb *', '2013-01-02T00:00:00Z'],
    ['0 0 1 february *', '2013-02-01T00:00:00Z'],
    ['0 0 1 3-may *', '2013-03-01T00:00:00Z'],
    ['04 05 * * *', '2013-01-01T05:04:00Z'],
    ['/20 * * * *', '2013-01-01T00:20:00Z'],
    ['10/20 * * * *', '2013-01-01T00:10:00Z'],
    ['** ?? * * *', '2013-01-01T00:01:00Z'],
    ['0 0 ? * 7', '2013-01-06T00:00:00Z'],
    ['0 0 ? * 5L', '2013-01-25T00:00:00Z'],
    ['0 0 ? * 2#1', '2013-02-05T00:00:00Z'], // strictly after 00:00 of January's first Tuesday
    ['0 12 ? * 2#1', '2013-01-01T12:00:00Z'],
    ['0 0 * * 1,,3', '2013-01-02T00:00:00Z'],
  ])('%s from 2013-01-01 → %s', (expression, expected) => {
    expect(iso(parseCron(expression).next(from, utc))).toBe(expected);
  });

  it('a day-of-week span ending at 7 ends at Saturday', () => {
    // 5-7 = Fri, Sat: from Sat 2013-01-05 the next is Fri 2013-01-11, not Sun 2013-01-06.
    expect(iso(parseCron('0 0 * * 5-7').next(new Date('2013-01-05T00:00:00Z'), utc))).toBe('2013-01-11T00:00:00Z');
  });

  it.each([
    ['*/0 * * * *', 'invalid interval */0'],
    ['*/60 * * * *', 'invalid interval */60'],
    ['/0 * * * *', 'invalid interval /0'],
    ['5/0 * * * *', 'invalid interval 5/0'],
    ['1-5/99 * * * *', 'invalid interval 1-5/99'],
    ['* * * * */7', 'invalid interval */7'],
    ['* * * * MON/0', 'invalid interval mon/0'],
  ])('%s → %s', (expression, message) => {
    expect(parseError(expression)).toBe(message);
  });

  it.each([
    ['* * * * 1#6', "syntax error in day-of-week field: '1#6'"],
    ['* * 32W * *', "syntax error in day-of-month field: '32W'"],
    ['* * * * Mon-Funday', "syntax error in day-of-week field: 'Mon-Funday'"],
    ['abc * * * *', "syntax error in minute field: 'abc'"],
    ['* * , * *', 'day-of-month field: missing directive'],
  ])('%s → %s', (expression, message) => {
    expect(parseError(expression)).toBe(message);
  });
});

describe('H errors', () => {
  const furiko: CronOptions = { hashId: '', hashFields: true };

  it('H without a hash ID', () => {
    expect(parseError('H * * * *')).toBe('hash requested without using WithHash: h');
    expect(parseError('0 H/5 * * *')).toBe('hash requested without using WithHash: h/5');
  });

  it('H with hashNames: false is rejected even with a hash ID', () => {
    expect(parseError('H * * * *', { hashId: 'default/x', hashNames: false })).toBe('hash requested without using WithHash: h');
  });

  it('Q-F4: H/2 in month starts at 0 for hash ID "" → below minimum', () => {
    expect(parseError('0 0 1 H/2 *', furiko)).toBe('beginning of range (0) below minimum (1): h/2');
  });

  it('Q-F4: H/n in year always starts below 1970', () => {
    expect(parseError('0 0 1 1 * H/5', furiko)).toMatch(/^beginning of range \(\d\) below minimum \(1970\): h\/5$/);
  });

  it.each([
    ['H(20-10) * * * *', 'beginning of range (20) beyond end of range (10): h(20-10)'],
    ['H(11-10) * * * *', 'beginning of range (11) beyond end of range (10): h(11-10)'],
  ])('[KF-F9] %s is rejected (upstream divides by a non-positive modulus)', (expression, message) => {
    expect(parseError(expression, furiko)).toBe(message);
  });

  it('H(a-b)/n with a start beyond b is rejected', () => {
    // `""` hashes minute H/5 offsets to 3 (§6.2), so H(10-12)/5 starts at 13 > 12.
    expect(parseError('H(10-12)/5 * * * *', furiko)).toBe('beginning of range (13) beyond end of range (12): h(10-12)/5');
  });

  it('H(a-b) values are checked only against the field pattern', () => {
    expect(parseError('H(0-60) * * * *', furiko)).toBe("syntax error in minute field: 'H(0-60)'");
    expect(() => parseCron('H(0-59) * * * *', furiko)).not.toThrow();
  });

  it('H/n steps follow the interval rule', () => {
    expect(parseError('H/0 * * * *', furiko)).toBe('invalid interval h/0');
    expect(parseError('H/60 * * * *', furiko)).toBe('invalid interval h/60');
  });

  it('lower-case h is H', () => {
    expect(iso(parseCron('h * * * *', { hashId: 'default/report', hashFields: true }).next(new Date('2024-01-15T10:59:59Z'), utc))).toBe(
      '2024-01-15T11:15:00Z',
    );
  });
});
