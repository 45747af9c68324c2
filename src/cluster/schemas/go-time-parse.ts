/**
 * Go's time.Parse for the two layouts metav1.Time (RFC 3339) and metav1.MicroTime (RFC 3339 with six
 * fractional digits) decode with, reduced to its verdict: undefined when the text parses, else Go's
 * error text (`parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"`).
 */

export const rfc3339Layout = '2006-01-02T15:04:05Z07:00';
export const rfc3339MicroLayout = '2006-01-02T15:04:05.000000Z07:00';

type Step = { literal: string } | { field: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'micro' | 'zone'; elem: string };

const steps = (micro: boolean): Step[] => [
  { field: 'year', elem: '2006' }, { literal: '-' }, { field: 'month', elem: '01' }, { literal: '-' }, { field: 'day', elem: '02' },
  { literal: 'T' }, { field: 'hour', elem: '15' }, { literal: ':' }, { field: 'minute', elem: '04' }, { literal: ':' }, { field: 'second', elem: '05' },
  ...(micro ? [{ field: 'micro', elem: '.000000' } as Step] : []), { field: 'zone', elem: 'Z07:00' },
];

const quote = (s: string): string => JSON.stringify(s);
const isDigit = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** Go's getnum: one or two leading digits (exactly two when `fixed`). */
function number(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [Number(s[0]), s.slice(1)];
  return [Number(s.slice(0, 2)), s.slice(2)];
}

function daysIn(month: number, year: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Go's error for parsing `value` with the RFC 3339 layout (or the MicroTime one), or undefined if it parses. */
export function goTimeParseError(value: string, micro = false): string | undefined {
  const layout = micro ? rfc3339MicroLayout : rfc3339Layout;
  const cannot = (rest: string, elem: string): string => `parsing time ${quote(value)} as ${quote(layout)}: cannot parse ${quote(rest)} as ${quote(elem)}`;
  const outOfRange = (what: string): string => `parsing time ${quote(value)}: ${what} out of range`;
  let rest = value;
  let year = 0;
  let month = 0;
  let day = 0;
  for (const step of steps(micro)) {
    if ('literal' in step) {
      if (!rest.startsWith(step.literal)) return cannot(rest, step.literal);
      rest = rest.slice(step.literal.length);
      continue;
    }
    const before = rest;
    switch (step.field) {
      case 'year': {
        if (rest.length < 4 || !/^\d{4}/.test(rest)) return cannot(before, step.elem);
        year = Number(rest.slice(0, 4));
        rest = rest.slice(4);
        break;
      }
      case 'micro': {
        if (rest.length < 7 || (rest[0] !== '.' && rest[0] !== ',') || !/^\d{6}$/.test(rest.slice(1, 7))) return cannot(before, step.elem);
        rest = rest.slice(7);
        break;
      }
      case 'zone': {
        if (rest.startsWith('Z')) {
          rest = rest.slice(1);
          break;
        }
        if (rest.length < 6 || rest[3] !== ':' || (rest[0] !== '+' && rest[0] !== '-')) return cannot(before, step.elem);
        const hours = number(rest.slice(1, 3), true);
        const minutes = number(rest.slice(4, 6), true);
        if (!hours || !minutes) return cannot(before, step.elem);
        if (hours[0] > 24) return outOfRange('time zone offset hour');
        if (minutes[0] > 60) return outOfRange('time zone offset minute');
        rest = rest.slice(6);
        break;
      }
      default: {
        const parsed = number(rest, step.field !== 'hour');
        if (!parsed) return cannot(before, step.elem);
        const [n, after] = parsed;
        rest = after;
        if (step.field === 'month') {
          if (n < 1 || n > 12) return outOfRange('month');
          month = n;
        } else if (step.field === 'day') {
          if (n > 31) return outOfRange('day');
          day = n;
        } else if (step.field === 'hour' && n >= 24) return outOfRange('hour');
        else if ((step.field === 'minute' || step.field === 'second') && n >= 60) return outOfRange(step.field);
        if (step.field === 'second' && !micro && rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isDigit(rest, 1)) {
          // a fractional second the layout does not name is accepted (any number of digits)
          let end = 2;
          while (isDigit(rest, end)) end++;
          rest = rest.slice(end);
        }
      }
    }
  }
  if (rest.length > 0) return `parsing time ${quote(value)}: extra text: ${quote(rest)}`;
  if (day < 1 || day > daysIn(month, year)) return outOfRange('day');
  return undefined;
}
