/**
 * Go's time.ParseDuration and Duration.String, checked with Go's own vectors: parseDurationTests,
 * parseDurationErrorTests and durationTests of src/time/time_test.go (Go 1.22). The error vectors with
 * invalid UTF-8 bytes ("\x85\x85", "\xffff") have no JavaScript string; U+FFFD stands for them.
 */
import { formatGoDuration, formatGoDurationNanos, GoDurationError, parseGoDuration, parseGoDurationNanos } from './go-duration.js';

const ns = 1n;
const us = 1000n * ns;
const ms = 1000n * us;
const s = 1000n * ms;
const m = 60n * s;
const h = 60n * m;
const MAX = (1n << 63n) - 1n;
const MIN = -(1n << 63n);

// Go's parseDurationTests
const parseDurationTests: Array<[string, bigint]> = [
  // simple
  ['0', 0n],
  ['5s', 5n * s],
  ['30s', 30n * s],
  ['1478s', 1478n * s],
  // sign
  ['-5s', -5n * s],
  ['+5s', 5n * s],
  ['-0', 0n],
  ['+0', 0n],
  // decimal
  ['5.0s', 5n * s],
  ['5.6s', 5n * s + 600n * ms],
  ['5.s', 5n * s],
  ['.5s', 500n * ms],
  ['1.0s', 1n * s],
  ['1.00s', 1n * s],
  ['1.004s', 1n * s + 4n * ms],
  ['1.0040s', 1n * s + 4n * ms],
  ['100.00100s', 100n * s + 1n * ms],
  // different units
  ['10ns', 10n * ns],
  ['11us', 11n * us],
  ['12µs', 12n * us], // U+00B5
  ['12μs', 12n * us], // U+03BC
  ['13ms', 13n * ms],
  ['14s', 14n * s],
  ['15m', 15n * m],
  ['16h', 16n * h],
  // composite durations
  ['3h30m', 3n * h + 30n * m],
  ['10.5s4m', 4n * m + 10n * s + 500n * ms],
  ['-2m3.4s', -(2n * m + 3n * s + 400n * ms)],
  ['1h2m3s4ms5us6ns', 1n * h + 2n * m + 3n * s + 4n * ms + 5n * us + 6n * ns],
  ['39h9m14.425s', 39n * h + 9n * m + 14n * s + 425n * ms],
  // large value
  ['52763797000ns', 52763797000n * ns],
  // more than 9 digits after decimal point, see https://golang.org/issue/6617
  ['0.3333333333333333333h', 20n * m],
  // 9007199254740993 = 1<<53+1 cannot be stored precisely in a float64
  ['9007199254740993ns', ((1n << 53n) + 1n) * ns],
  // largest duration that can be represented by int64 in nanoseconds
  ['9223372036854775807ns', MAX],
  ['9223372036854775.807us', MAX],
  ['9223372036s854ms775us807ns', MAX],
  ['-9223372036854775808ns', MIN],
  ['-9223372036854775.808us', MIN],
  ['-9223372036s854ms775us808ns', MIN],
  // largest negative value
  ['-9223372036854775808ns', MIN],
  // largest negative round trip value, see https://golang.org/issue/48629
  ['-2562047h47m16.854775808s', MIN],
  // huge string; issue 15011.
  ['0.100000000000000000000h', 6n * m],
  // This value tests the first overflow check in leadingFraction.
  ['0.830103483285477580700h', 49n * m + 48n * s + 372539827n * ns],
];

test.each(parseDurationTests)('ParseDuration(%j)', (text, want) => {
  expect(parseGoDurationNanos(text)).toBe(want);
});

// Go's parseDurationErrorTests: the error names the input, quoted as the time package quotes
const parseDurationErrorTests: Array<[string, string]> = [
  // invalid
  ['', '""'],
  ['3', '"3"'],
  ['-', '"-"'],
  ['s', '"s"'],
  ['.', '"."'],
  ['-.', '"-."'],
  ['.s', '".s"'],
  ['+.s', '"+.s"'],
  ['1d', '"1d"'],
  ['\uFFFD', '"\\xef\\xbf\\xbd"'], // utf8.RuneError
  ['\uFFFD hello \uFFFD world', '"\\xef\\xbf\\xbd hello \\xef\\xbf\\xbd world"'], // utf8.RuneError
  // overflow
  ['9223372036854775810ns', '"9223372036854775810ns"'],
  ['9223372036854775808ns', '"9223372036854775808ns"'],
  ['-9223372036854775809ns', '"-9223372036854775809ns"'],
  ['9223372036854776us', '"9223372036854776us"'],
  ['3000000h', '"3000000h"'],
  ['9223372036854775.808us', '"9223372036854775.808us"'],
  ['9223372036854ms775us808ns', '"9223372036854ms775us808ns"'],
];

test.each(parseDurationErrorTests)('ParseDuration(%j) fails, naming %s', (text, quoted) => {
  expect(() => parseGoDurationNanos(text)).toThrow(GoDurationError);
  expect(() => parseGoDurationNanos(text)).toThrow(quoted);
});

test("the three error texts are Go's", () => {
  const message = (text: string): string => {
    try {
      parseGoDurationNanos(text);
    } catch (err) {
      return (err as Error).message;
    }
    return 'parsed';
  };
  expect(message('x')).toBe('time: invalid duration "x"');
  expect(message('')).toBe('time: invalid duration ""');
  expect(message('3')).toBe('time: missing unit in duration "3"');
  expect(message('1h30')).toBe('time: missing unit in duration "1h30"');
  expect(message('1d')).toBe('time: unknown unit "d" in duration "1d"');
  expect(message('5 s')).toBe('time: unknown unit " s" in duration "5 s"');
  expect(message('2ü')).toBe('time: unknown unit "\\xc3\\xbc" in duration "2\\xc3\\xbc"');
  expect(message('9223372036854775808ns')).toBe('time: invalid duration "9223372036854775808ns"');
});

test('parseGoDuration is the same in milliseconds', () => {
  expect(parseGoDuration('1m30s')).toBe(90_000);
  expect(parseGoDuration('1.5h')).toBe(5_400_000);
  expect(parseGoDuration('250us')).toBe(0.25);
  expect(parseGoDuration('-2m3.4s')).toBe(-123_400);
  expect(() => parseGoDuration('soon')).toThrow('time: invalid duration "soon"');
});

// Go's durationTests (Duration.String)
const durationTests: Array<[string, bigint]> = [
  ['0s', 0n],
  ['1ns', 1n * ns],
  ['1.1µs', 1100n * ns],
  ['2.2ms', 2200n * us],
  ['3.3s', 3300n * ms],
  ['4m5s', 4n * m + 5n * s],
  ['4m5.001s', 4n * m + 5001n * ms],
  ['5h6m7.001s', 5n * h + 6n * m + 7001n * ms],
  ['8m0.000000001s', 8n * m + 1n * ns],
  ['2562047h47m16.854775807s', MAX],
  ['-2562047h47m16.854775808s', MIN],
];

test.each(durationTests)('Duration(%s).String()', (text, nanos) => {
  expect(formatGoDurationNanos(nanos)).toBe(text);
  expect(parseGoDurationNanos(text)).toBe(nanos);
});

test('formatGoDuration takes milliseconds', () => {
  expect([0, 250, 1500, 60_000, 90_000, 3_600_000, 3_661_000, -5000, 0.5].map(formatGoDuration)).toEqual(['0s', '250ms', '1.5s', '1m0s', '1m30s', '1h0m0s', '1h1m1s', '-5s', '500µs']);
});
