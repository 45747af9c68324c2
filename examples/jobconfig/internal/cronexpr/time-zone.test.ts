/** Time zones (§4.4 vectors) and DST-aware next times (§6.1 America/Los_Angeles 2019, Asia/Ho_Chi_Minh). */
import { parseCron, parseTimeZone } from './index.js';

const iso = (date: Date | undefined): string | undefined => date?.toISOString().replace('.000Z', 'Z');

function times(expression: string, zoneName: string, from: string, count: number): Array<string | undefined> {
  const parsed = parseCron(expression);
  const zone = parseTimeZone(zoneName);
  const result: Array<string | undefined> = [];
  let t: Date | undefined = new Date(from);
  for (let i = 0; i < count && t; i++) {
    t = parsed.next(t, zone);
    result.push(iso(t));
  }
  return result;
}

describe('parseTimeZone (§4.4 upstream vectors for 0 3/6 * * * from 2021-03-09T15:04:05+08:00)', () => {
  const from = '2021-03-09T15:04:05+08:00';
  it.each([
    ['', '2021-03-09T09:00:00Z'],
    ['Local', '2021-03-09T09:00:00Z'],
    ['UTC', '2021-03-09T09:00:00Z'],
    ['GMT', '2021-03-09T09:00:00Z'],
    ['Asia/Jakarta', '2021-03-09T08:00:00Z'], // 15:00+07:00
    ['America/New_York', '2021-03-09T08:00:00Z'], // 03:00-05:00
    ['UTC+1', '2021-03-09T08:00:00Z'], // 09:00+01:00
    ['UTC+1:00', '2021-03-09T08:00:00Z'],
    ['UTC+01', '2021-03-09T08:00:00Z'],
    ['UTC+01:00', '2021-03-09T08:00:00Z'],
    ['UTC+0100', '2021-03-09T08:00:00Z'],
  ])('%j → %s', (zone, expected) => {
    expect(times('0 3/6 * * *', zone, from, 1)).toEqual([expected]);
  });

  it('America/New_York from 2021-04-09 (daylight time) → 09:00-04:00', () => {
    expect(times('0 3/6 * * *', 'America/New_York', '2021-04-09T15:04:05+08:00', 1)).toEqual(['2021-04-09T13:00:00Z']);
  });

  it.each([
    ['UTC+1', 'UTC+01:00'],
    ['UTC+1:00', 'UTC+01:00'],
    ['UTC+01', 'UTC+01:00'],
    ['UTC+01:00', 'UTC+01:00'],
    ['UTC+0100', 'UTC+01:00'],
    ['GMT-5:30', 'UTC-05:30'],
    ['Asia/Jakarta', 'Asia/Jakarta'],
    ['', 'UTC'],
    ['Local', 'UTC'],
  ])('%j is named %j', (name, expected) => {
    expect(parseTimeZone(name).name).toBe(expected);
  });

  it('a negative fixed offset shifts the other way', () => {
    expect(times('0 3/6 * * *', 'GMT-5:30', '2021-03-09T07:04:05Z', 1)).toEqual(['2021-03-09T08:30:00Z']); // 03:00-05:30
  });

  it.each(['Mars/Olympus', 'not a zone', 'UTC+', 'UTC+123', 'UTC+1:5', '+01:00', 'asia/jakarta', 'UTC+24'])(
    '%j is rejected',
    (name) => {
      expect(() => parseTimeZone(name)).toThrow(Error);
    },
  );
});

describe('DST transitions, America/Los_Angeles 2019 (upstream TestPeriodicConfig_DSTChange_Transitions)', () => {
  it('2 2 * * * 2019: the skipped 02:02 of Mar 10 does not fire', () => {
    // Mar 9 01:00 PST = 09:00Z; 02:02 PST = 10:02Z; Mar 11 02:02 PDT = 09:02Z.
    expect(times('2 2 * * * 2019', 'America/Los_Angeles', '2019-03-09T09:00:00Z', 2)).toEqual([
      '2019-03-09T10:02:00Z', '2019-03-11T09:02:00Z',
    ]);
  });

  it('30 1 * * * 2019: the repeated 01:30 of Nov 3 fires twice (PDT, then PST)', () => {
    // Nov 3 00:00 PDT = 07:00Z; 01:30 PDT = 08:30Z; 01:30 PST = 09:30Z; Nov 4 01:30 PST = 09:30Z.
    expect(times('30 1 * * * 2019', 'America/Los_Angeles', '2019-11-03T07:00:00Z', 3)).toEqual([
      '2019-11-03T08:30:00Z', '2019-11-03T09:30:00Z', '2019-11-04T09:30:00Z',
    ]);
  });

  it('0 2 * * * 2019: Nov 3 02:00 PST is three real hours after midnight', () => {
    expect(times('0 2 * * * 2019', 'America/Los_Angeles', '2019-11-03T07:00:00Z', 2)).toEqual([
      '2019-11-03T10:00:00Z', '2019-11-04T10:00:00Z',
    ]);
  });
});

describe('Asia/Ho_Chi_Minh (§6.1 Furiko schedule vectors, 0 0 1/2 1/1 * ? *)', () => {
  it('from 2021-02-09T04:07+08:00 → 06:00, 08:00, 10:00 (+08:00), i.e. odd local hours', () => {
    expect(times('0 0 1/2 1/1 * ? *', 'Asia/Ho_Chi_Minh', '2021-02-09T04:07:00+08:00', 3)).toEqual([
      '2021-02-08T22:00:00Z', '2021-02-09T00:00:00Z', '2021-02-09T02:00:00Z',
    ]);
  });

  it('from now − 300 s = 2021-06-24T17:14:40+08:00 → 17:00+07:00', () => {
    expect(times('0 0 1/2 1/1 * ? *', 'Asia/Ho_Chi_Minh', '2021-06-24T17:14:40+08:00', 1)).toEqual(['2021-06-24T10:00:00Z']);
  });
});

describe('time zones accepted by name only', () => {
  it('a plain {name} object is resolved by its name', () => {
    const expression = parseCron('0 3/6 * * *');
    expect(iso(expression.next(new Date('2021-03-09T07:04:05Z'), { name: 'Asia/Jakarta' }))).toBe('2021-03-09T08:00:00Z');
  });
});
