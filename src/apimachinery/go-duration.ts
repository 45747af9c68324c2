/**
 * Go's time.Duration as text: `time.ParseDuration` (its grammar `[-+]?([0-9]*(\.[0-9]*)?[a-z]+)+`, units ns,
 * us, µs, μs, ms, s, m, h, int64 nanoseconds with Go's overflow checks, and its error texts: `time: invalid
 * duration "x"`, `time: unknown unit "y" in duration "x"`, `time: missing unit in duration "x"`) and
 * `Duration.String` (`1h2m3.5s`, `150ms`, `0s`). The one copy for the local cluster (request timeouts, cron
 * `@every`, the kubelet's messages), the runtime and made projects (`kubeforge/runtime`'s parseGoDuration).
 */

/** A text `time.ParseDuration` refuses; the message is Go's. */
export class GoDurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoDurationError';
  }
}

const NANOS_PER_UNIT: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  'µs': 1_000n, // U+00B5 micro sign
  'μs': 1_000n, // U+03BC Greek small letter mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const TWO_63 = 1n << 63n;

/** Go's time.ParseDuration: the duration in nanoseconds (an int64 as a bigint); throws GoDurationError with Go's text. */
export function parseGoDurationNanos(text: string): bigint {
  const invalid = (): GoDurationError => new GoDurationError(`time: invalid duration ${goQuote(text)}`);
  let s = text;
  let negative = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw invalid();
  let total = 0n;
  while (s !== '') {
    if (!(s[0] === '.' || isDigit(s, 0))) throw invalid();
    // [0-9]*
    let i = 0;
    let whole = 0n;
    for (; i < s.length && isDigit(s, i); i++) {
      if (whole > TWO_63 / 10n) throw invalid();
      whole = whole * 10n + BigInt(s.charCodeAt(i) - 48);
      if (whole > TWO_63) throw invalid();
    }
    const before = i > 0;
    s = s.slice(i);
    // (\.[0-9]*)?
    let fraction = 0n;
    let scale = 1;
    let after = false;
    if (s[0] === '.') {
      s = s.slice(1);
      let overflow = false;
      for (i = 0; i < s.length && isDigit(s, i); i++) {
        if (overflow) continue;
        if (fraction > (TWO_63 - 1n) / 10n) {
          overflow = true;
          continue;
        }
        const next = fraction * 10n + BigInt(s.charCodeAt(i) - 48);
        if (next > TWO_63) {
          overflow = true;
          continue;
        }
        fraction = next;
        scale *= 10;
      }
      after = i > 0;
      s = s.slice(i);
    }
    if (!before && !after) throw invalid(); // no digits: ".s", "-.s"
    // the unit: everything up to the next '.' or digit
    for (i = 0; i < s.length && s[i] !== '.' && !isDigit(s, i); i++);
    if (i === 0) throw new GoDurationError(`time: missing unit in duration ${goQuote(text)}`);
    const unitText = s.slice(0, i);
    s = s.slice(i);
    const unit = NANOS_PER_UNIT[unitText];
    if (unit === undefined) throw new GoDurationError(`time: unknown unit ${goQuote(unitText)} in duration ${goQuote(text)}`);
    if (whole > TWO_63 / unit) throw invalid();
    let value = whole * unit;
    if (fraction > 0n) {
      // As Go: in float64, nanosecond-accurate for fractions of hours.
      value += BigInt(Math.trunc(Number(fraction) * (Number(unit) / scale)));
      if (value > TWO_63) throw invalid();
    }
    total += value;
    if (total > TWO_63) throw invalid();
  }
  if (negative) return -total;
  if (total > TWO_63 - 1n) throw invalid();
  return total;
}

/** Go's time.ParseDuration in milliseconds (fractional below 1ms); throws GoDurationError with Go's text. */
export function parseGoDuration(text: string): number {
  return Number(parseGoDurationNanos(text)) / 1e6;
}

/** Go's Duration.String of a nanosecond count: `1h2m3.5s`, `1.5ms`, `999ns`, `-2.000000001s`, `0s`. */
export function formatGoDurationNanos(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  const sign = nanos < 0n ? '-' : '';
  const n = nanos < 0n ? -nanos : nanos;
  const fraction = (value: bigint, digits: number): string => {
    const text = value.toString().padStart(digits, '0').replace(/0+$/, '');
    return text ? `.${text}` : '';
  };
  if (n < 1000n) return `${sign}${n}ns`;
  if (n < 1_000_000n) return `${sign}${n / 1000n}${fraction(n % 1000n, 3)}µs`;
  if (n < 1_000_000_000n) return `${sign}${n / 1_000_000n}${fraction(n % 1_000_000n, 6)}ms`;
  const seconds = n / 1_000_000_000n;
  const secondsText = `${seconds % 60n}${fraction(n % 1_000_000_000n, 9)}s`;
  if (seconds < 60n) return `${sign}${secondsText}`;
  const minutes = seconds / 60n;
  if (minutes < 60n) return `${sign}${minutes}m${secondsText}`;
  return `${sign}${minutes / 60n}h${minutes % 60n}m${secondsText}`;
}

/** Go's Duration.String of a duration in milliseconds (rounded to the nanosecond): `2m0s`, `250ms`, `1h0m0s`. */
export function formatGoDuration(ms: number): string {
  return formatGoDurationNanos(BigInt(Math.round(ms * 1e6)));
}

function isDigit(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/**
 * The time package's quote: ASCII as is (with `"` and `\` escaped), every other character as the `\x` escapes
 * of its UTF-8 bytes (`"\xef\xbf\xbd"` for U+FFFD).
 */
function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c >= 0x80 || c < 0x20) {
      for (const byte of utf8Bytes(c)) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    } else out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

/** The UTF-8 encoding of one code point (no TextEncoder: this module is type-checked without DOM or Node types). */
function utf8Bytes(codePoint: number): number[] {
  const c = codePoint >= 0xd800 && codePoint <= 0xdfff ? 0xfffd : codePoint; // a lone surrogate, as TextEncoder
  if (c < 0x80) return [c];
  if (c < 0x800) return [0xc0 | (c >> 6), 0x80 | (c & 0x3f)];
  if (c < 0x10000) return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)];
  return [0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)];
}
