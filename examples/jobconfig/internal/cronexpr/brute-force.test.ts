/**
 * next() checked against a brute-force oracle that shares none of its code: random expressions (built
 * together with the sets of values they mean), answers found by scanning real minutes or days and reading
 * wall clocks from an Intl formatter of the test's own. Covers the search, DST days (America/Los_Angeles,
 * Europe/London: a skipped wall time never fires, a repeated one fires per occurrence) and the day rule.
 */
import { parseCron, parseTimeZone } from './index.js';

/** Deterministic pseudo-random numbers (mulberry32), so failures reproduce. */
function randomSource(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state + 0x6d2b79f5) | 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return (((x ^ (x >>> 14)) >>> 0) % n);
  };
}

interface Generated {
  text: string;
  values: Set<number>;
}

/** One random field over min..max as cron text plus the values it denotes. */
function randomField(random: (n: number) => number, min: number, max: number): Generated {
  const range = (a: number, b: number, step: number): number[] => {
    const out: number[] = [];
    for (let v = a; v <= b; v += step) out.push(v);
    return out;
  };
  const pick = (): [string, number[]] => {
    const a = min + random(max - min + 1);
    const b = a + random(max - a + 1);
    const step = 1 + random(Math.max(1, Math.floor((max - min) / 2)));
    switch (random(5)) {
      case 0: return [String(a), [a]];
      case 1: return [`${a}-${b}`, range(a, b, 1)];
      case 2: return [`*/${step}`, range(min, max, step)];
      case 3: return [`${a}-${b}/${step}`, range(a, b, step)];
      default: return [`${a}/${step}`, range(a, max, step)];
    }
  };
  if (random(4) === 0) return { text: '*', values: new Set(range(min, max, 1)) };
  const items = Array.from({ length: 1 + random(2) }, pick);
  return { text: items.map(([text]) => text).join(','), values: new Set(items.flatMap(([, values]) => values)) };
}

function wallClockReader(zone: string): (ms: number) => number[] {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', weekday: 'short',
  });
  const weekdays = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  return (ms) => {
    const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
    return [Number(parts.year), Number(parts.month), Number(parts.day), Number(parts.hour), Number(parts.minute), weekdays.indexOf(parts.weekday!)];
  };
}

describe('minutes and hours around DST transitions, against a real-minute scan', () => {
  // Hours before the 2019 (Los Angeles) and 2021 (London) transitions, and one ordinary day.
  const starts = [
    '2019-03-10T05:00:00Z', '2019-03-10T08:30:00Z', '2019-11-03T04:00:00Z', '2019-11-03T07:45:00Z',
    '2021-03-28T00:00:00Z', '2021-10-30T23:30:00Z', '2024-01-15T10:00:00Z',
  ];
  const random = randomSource(20240115);
  const cases: Array<[string, string, string, Set<number>, Set<number>]> = [];
  for (let i = 0; i < 60; i++) {
    const minute = randomField(random, 0, 59);
    const hour = randomField(random, 0, 23);
    // Both zones change their clocks between 01:00 and 03:00 local time: make most cases fire there.
    if (i % 4 !== 3) {
      const transitionHour = 1 + random(2);
      hour.text = `${hour.text},${transitionHour}`;
      hour.values.add(transitionHour);
    }
    const zone = i % 2 === 0 ? 'America/Los_Angeles' : 'Europe/London';
    cases.push([`${minute.text} ${hour.text} * * *`, zone, starts[i % starts.length]!, minute.values, hour.values]);
  }

  it.each(cases)('%s in %s from %s', (expression, zoneName, start, minutes, hours) => {
    const wall = wallClockReader(zoneName);
    const parsed = parseCron(expression);
    const zone = parseTimeZone(zoneName);
    let from = new Date(start).getTime();
    for (let n = 0; n < 3; n++) {
      let expected: number | undefined;
      for (let t = Math.floor(from / 60000) * 60000 + 60000; t <= from + 3 * 86400000; t += 60000) {
        const [, , , h, m] = wall(t);
        if (hours.has(h!) && minutes.has(m!)) {
          expected = t;
          break;
        }
      }
      const actual = parsed.next(new Date(from), zone)?.getTime();
      expect(actual === undefined ? undefined : new Date(actual).toISOString()).toBe(
        expected === undefined ? undefined : new Date(expected).toISOString(),
      );
      if (actual === undefined) break;
      from = actual;
    }
  });
});

describe('days, months and the day rule in UTC, against a day scan', () => {
  const random = randomSource(1705312825);
  const cases: Array<[string, Generated, Generated, Generated]> = [];
  for (let i = 0; i < 80; i++) {
    const dom = random(3) === 0 ? { text: '?', values: new Set<number>() } : randomField(random, 1, 31);
    const month = randomField(random, 1, 12);
    const dow = random(3) === 0 ? { text: '*', values: new Set<number>() } : randomField(random, 0, 6);
    cases.push([`0 0 ${dom.text} ${month.text} ${dow.text}`, dom, month, dow]);
  }

  it.each(cases)('%s', (expression, dom, month, dow) => {
    const domRestricted = dom.text !== '*' && dom.text !== '?';
    const dowRestricted = dow.text !== '*' && dow.text !== '?';
    const dayMatches = (date: Date): boolean => {
      const byDom = dom.values.has(date.getUTCDate());
      const byDow = dow.values.has(date.getUTCDay());
      if (domRestricted && dowRestricted) return byDom || byDow;
      if (domRestricted) return byDom;
      if (dowRestricted) return byDow;
      return true;
    };
    const parsed = parseCron(expression);
    const utc = parseTimeZone('UTC');
    let from = new Date('2023-06-15T12:34:56Z');
    for (let n = 0; n < 3; n++) {
      let expected: Date | undefined;
      const day = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate() + 1));
      for (let i = 0; i < 366 * 9; i++, day.setUTCDate(day.getUTCDate() + 1)) {
        if (month.values.has(day.getUTCMonth() + 1) && dayMatches(day)) {
          expected = new Date(day);
          break;
        }
      }
      const actual = parsed.next(from, utc);
      expect(actual?.toISOString()).toBe(expected?.toISOString());
      if (actual === undefined) break;
      from = actual;
    }
  });
});
