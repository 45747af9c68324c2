/**
 * Parses RFC 3339 timestamps the way Go's `time.Parse(time.RFC3339, …)` does, keeping the wall clock and
 * UTC offset written in the input (Date options are rendered in the input's own offset), with Go's
 * error texts (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`).
 */

/** A wall-clock instant in a fixed UTC offset. */
export interface ZonedTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Fraction of a second in nanoseconds (0–999 999 999). */
  nanosecond: number;
  /** Offset east of UTC in minutes (`+08:00` → 480, `Z` → 0). */
  offsetMinutes: number;
}

const LAYOUT = '2006-01-02T15:04:05Z07:00';

/** Milliseconds since the Unix epoch of a zoned time. */
export function epochMillis(t: ZonedTime): number {
  const wall = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second, Math.floor(t.nanosecond / 1e6));
  return wall - t.offsetMinutes * 60_000;
}

/** The layout elements of RFC 3339, each with the characters it accepts. */
type Element = { layout: string; read: (s: string) => { value: number; rest: string } | null };

const digits = (n: number) => (s: string) => (new RegExp(`^\\d{${n}}`).test(s) ? { value: Number(s.slice(0, n)), rest: s.slice(n) } : null);
const literal = (text: string) => (s: string) => (s.startsWith(text) ? { value: 0, rest: s.slice(text.length) } : null);

const ELEMENTS: Element[] = [
  { layout: '2006', read: digits(4) },
  { layout: '-', read: literal('-') },
  { layout: '01', read: digits(2) },
  { layout: '-', read: literal('-') },
  { layout: '02', read: digits(2) },
  { layout: 'T', read: literal('T') },
  { layout: '15', read: digits(2) },
  { layout: ':', read: literal(':') },
  { layout: '04', read: digits(2) },
  { layout: ':', read: literal(':') },
  { layout: '05', read: digits(2) },
];

export class TimeParseError extends Error {}

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** Parses `value` as RFC 3339; throws TimeParseError with Go's message when it is not. */
export function parseRFC3339(value: string): ZonedTime {
  const fail = (rest: string, element: string): never => {
    throw new TimeParseError(`parsing time ${JSON.stringify(value)} as ${JSON.stringify(LAYOUT)}: cannot parse ${JSON.stringify(rest)} as ${JSON.stringify(element)}`);
  };
  const outOfRange = (what: string): never => {
    throw new TimeParseError(`parsing time ${JSON.stringify(value)}: ${what} out of range`);
  };
  let rest = value;
  const numbers: number[] = [];
  for (const element of ELEMENTS) {
    const read = element.read(rest) ?? fail(rest, element.layout);
    if (/\d/.test(element.layout)) numbers.push(read.value);
    rest = read.rest;
  }
  const [year, month, day, hour, minute, second] = numbers as [number, number, number, number, number, number];
  let nanosecond = 0;
  const fraction = /^[.,](\d+)/.exec(rest);
  if (fraction) {
    nanosecond = Number(fraction[1]!.slice(0, 9).padEnd(9, '0'));
    rest = rest.slice(fraction[0].length);
  }
  let offsetMinutes = 0;
  if (rest.startsWith('Z')) rest = rest.slice(1);
  else {
    const offset = /^([+-])(\d{2}):(\d{2})/.exec(rest) ?? fail(rest, 'Z07:00');
    offsetMinutes = (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3]));
    if (Number(offset[2]) > 24 || Number(offset[3]) > 59) outOfRange('time zone offset');
    rest = rest.slice(offset[0].length);
  }
  if (rest) throw new TimeParseError(`parsing time ${JSON.stringify(value)}: extra text: ${JSON.stringify(rest)}`);
  if (month < 1 || month > 12) outOfRange('month');
  if (day < 1 || day > daysIn(year, month)) outOfRange('day');
  if (hour > 23) outOfRange('hour');
  if (minute > 59) outOfRange('minute');
  if (second > 59) outOfRange('second');
  return { year, month, day, hour, minute, second, nanosecond, offsetMinutes };
}
