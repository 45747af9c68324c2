/**
 * Go's time.ParseDuration for `@every <duration>` schedules: the same grammar (`1h30m`, `1.5s`, `-2m`),
 * units ns/us/µs/ms/s/m/h, and Go's error texts, so a CronJob's error message reads as robfig's does.
 */

const NANOS_PER_UNIT: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5 micro sign
  'μs': 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const MAX_INT64 = (1n << 63n) - 1n;

/** Parses a Go duration string into nanoseconds; throws an Error with Go's message on bad input. */
export function parseGoDuration(text: string): bigint {
  const quoted = JSON.stringify(text);
  const invalid = (): Error => new Error(`time: invalid duration ${quoted}`);
  let rest = text;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest.startsWith('-');
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') throw invalid();
  let total = 0n;
  while (rest !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(rest)!;
    const [consumed, whole = '', fraction] = number;
    if (whole === '' && (fraction === undefined || fraction === '')) throw invalid();
    rest = rest.slice(consumed.length);
    const unitText = /^[^.\d]*/.exec(rest)![0];
    if (unitText === '') throw new Error(`time: missing unit in duration ${quoted}`);
    const unit = NANOS_PER_UNIT[unitText];
    if (unit === undefined) throw new Error(`time: unknown unit ${JSON.stringify(unitText)} in duration ${quoted}`);
    rest = rest.slice(unitText.length);
    let value = BigInt(whole === '' ? '0' : whole) * unit;
    if (fraction) value += (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length);
    total += value;
    if (total > MAX_INT64 + (negative ? 1n : 0n)) throw invalid();
  }
  return negative ? -total : total;
}
