/**
 * How yaml.v2 (with libyaml's emitter rules) writes one string: plain, 'single-quoted',
 * "double-quoted" or as a |- literal block. A string that would read back as something else (a
 * number, bool, null, timestamp) is double-quoted; one that plain YAML cannot carry (leading `- `,
 * `: ` inside, a leading `*`...) is single-quoted; multi-line text is a literal block.
 */

export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal';

/** What the emitter's scalar analysis allows for a string. */
interface ScalarAnalysis {
  multiline: boolean;
  blockPlainAllowed: boolean;
  singleQuotedAllowed: boolean;
  blockAllowed: boolean;
}

export function isBreak(ch: string): boolean {
  return isBreakCode(ch.charCodeAt(0));
}

/** libyaml's printable set (unicode output enabled). */
export function isPrintable(ch: string): boolean {
  return isPrintableCode(ch.codePointAt(0)!);
}

function analyze(value: string): ScalarAnalysis {
  if (value.length === 0) return { multiline: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  let blockIndicators = value.startsWith('---') || value.startsWith('...');
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;
  let precededByWhitespace = true;
  const length = value.length;
  for (let i = 0; i < length; i++) {
    let code = value.charCodeAt(i);
    let width = 1;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < length) {
      code = value.codePointAt(i)!;
      width = 2;
    }
    const next = i + width < length ? value.charCodeAt(i + width) : -1;
    const followedByWhitespace = next === -1 || next === 32 || next === 9 || next === 0 || isBreakCode(next);
    const first = i === 0;
    const last = i + width >= length;
    if (first) {
      if (INDICATOR_AT_START.has(code)) blockIndicators = true;
      if ((code === 63 || code === 58 || code === 45) && followedByWhitespace) blockIndicators = true;
    } else {
      if (code === 58 && followedByWhitespace) blockIndicators = true;
      if (code === 35 && precededByWhitespace) blockIndicators = true;
    }
    if (!isPrintableCode(code)) special = true;
    const isBreakChar = isBreakCode(code);
    if (isBreakChar) lineBreaks = true;
    if (code === 32) {
      if (first) leadingSpace = true;
      if (last) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreakChar) {
      if (first) leadingBreak = true;
      if (last) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousBreak = true;
      previousSpace = false;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = code === 32 || code === 9 || code === 0 || isBreakChar;
    i += width - 1;
  }
  let blockPlainAllowed = true;
  let singleQuotedAllowed = true;
  let blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlainAllowed = false;
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) blockPlainAllowed = singleQuotedAllowed = false;
  if (spaceBreak || special) blockPlainAllowed = singleQuotedAllowed = blockAllowed = false;
  if (lineBreaks) blockPlainAllowed = false;
  if (blockIndicators) blockPlainAllowed = false;
  return { multiline: lineBreaks, blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

/** Characters that may not start a plain scalar: # , [ ] { } & * ! | > ' " % @ and backquote. */
const INDICATOR_AT_START = new Set(Array.from('#,[]{}&*!|>\'"%@`', (c) => c.charCodeAt(0)));

function isBreakCode(c: number): boolean {
  return c === 10 || c === 13 || c === 0x85 || c === 0x2028 || c === 0x2029;
}

function isPrintableCode(c: number): boolean {
  return (
    c === 0x0a ||
    (c >= 0x20 && c <= 0x7e) ||
    c === 0x85 ||
    (c >= 0xa0 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}

/**
 * Printable ASCII text that no plain-scalar rule rejects: no indicator first (`-`/`?`/`:` only when not
 * followed by a space), no leading or trailing space, no `---`/`...` start. `: `, ` #` and a final `:`
 * are checked separately (PLAIN_BREAKERS).
 */
const PLAIN_SAFE = /^(?![-?:](?: |$))(?!---|\.\.\.)[$()+\-./0-9:;<=?A-Z\\^_a-z~](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const PLAIN_BREAKERS = /: |:$| #/;
const LITERAL_SAFE = /^[\n\x20-\x7e]*$/;

/** Picks the style yaml.v2 uses for `value` in block context (`simpleKey` for mapping keys). */
export function chooseScalarStyle(value: string, simpleKey: boolean): ScalarStyle {
  if (!value.includes('\n')) {
    if (!readsBackAsString(value) || isBase60Float(value)) return 'double';
    if (PLAIN_SAFE.test(value) && !PLAIN_BREAKERS.test(value)) return 'plain'; // the common case, without a full analysis
  } else if (!simpleKey && LITERAL_SAFE.test(value) && !value.includes(' \n') && !value.endsWith(' ')) {
    return 'literal'; // printable ASCII text with no space before a line break: a literal block may carry it
  }
  return scalarStyleByAnalysis(value, simpleKey);
}

/** The style by libyaml's full character analysis (what the fast paths above shortcut). */
export function scalarStyleByAnalysis(value: string, simpleKey: boolean): ScalarStyle {
  const analysis = analyze(value);
  let style: ScalarStyle;
  if (value.includes('\n')) style = 'literal';
  else if (!readsBackAsString(value) || isBase60Float(value)) style = 'double';
  else style = 'plain';
  if (style === 'plain' && (!analysis.blockPlainAllowed || (value === '' && simpleKey))) style = 'single';
  if (style === 'single' && !analysis.singleQuotedAllowed) style = 'double';
  if (style === 'literal' && (!analysis.blockAllowed || simpleKey)) style = 'double';
  return style;
}

const RESOLVED_WORDS = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON',
  'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF',
  '~', 'null', 'Null', 'NULL',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF',
  // `<<` (merge) is in yaml.v2's table too, but its resolver only consults the table for strings whose
  // first character has a hint, and `<` has none: yaml.v2 writes `<<` plain.
]);

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const UINT64_MAX = (1n << 64n) - 1n;

/** True when yaml.v2 reads the plain text `value` back as a string (YAML 1.1 implicit typing). */
export function readsBackAsString(value: string): boolean {
  if (value === '' || RESOLVED_WORDS.has(value)) return false;
  const first = value[0];
  if (!'.+-0123456789'.includes(first)) return true;
  if (first === '.') return !/^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(value);
  if (isTimestamp(value)) return false;
  const plain = value.replace(/_/g, '');
  if (isGoInteger(plain)) return false;
  if (YAML_STYLE_FLOAT.test(plain) && Number.isFinite(Number(plain))) return false;
  return true;
}

function isBase60Float(value: string): boolean {
  return BASE60_FLOAT.test(value);
}

/** Go's strconv.ParseInt/ParseUint with base 0 (sign, 0x/0o/0b/0 prefixes), within 64 bits. */
function isGoInteger(text: string): boolean {
  const match = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(text);
  if (!match) return false;
  let digits = match[2];
  if (/^0[0-7]+$/.test(digits)) digits = '0o' + digits.slice(1);
  if (/^0[oO]/.test(digits)) digits = '0o' + digits.slice(2);
  const magnitude = BigInt(digits.replace(/^0X/, '0x').replace(/^0B/, '0b'));
  return match[1] === '-' ? magnitude <= 1n << 63n : magnitude <= UINT64_MAX;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** yaml.v2's timestamp forms: 2001-12-14, 2001-12-14T21:59:43.10Z, 2001-12-14 21:59:43.10. */
function isTimestamp(value: string): boolean {
  const match =
    /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2}))|(?: (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?))?$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > DAYS_IN_MONTH[month - 1]) return false;
  if (month === 2 && day === 29 && !(year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0))) return false;
  const hour = Number(match[4] ?? match[7] ?? 0);
  const minute = Number(match[5] ?? match[8] ?? 0);
  const second = Number(match[6] ?? match[9] ?? 0);
  return hour < 24 && minute < 60 && second < 60;
}

/** A number as yaml.v2 writes what controller-gen's JSON round-trip gives it. */
export function formatNumber(n: number): string {
  if (Number.isNaN(n)) return '.nan';
  if (n === Infinity) return '.inf';
  if (n === -Infinity) return '-.inf';
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return BigInt(n).toString();
  // Go strconv.FormatFloat(f, 'g', -1, 64): shortest digits, %e when exponent < -4 or >= 6.
  const [mantissa, exponentText] = n.toExponential().split('e');
  const exponent = Number(exponentText);
  if (exponent < -4 || exponent >= 6) {
    const sign = exponent < 0 ? '-' : '+';
    return `${mantissa}e${sign}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return String(n);
}
