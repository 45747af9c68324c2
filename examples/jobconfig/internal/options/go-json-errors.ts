/**
 * Go's encoding/json as a `json.Decoder` reads one value from a stream: the scanner's syntax errors with Go's
 * text and byte offset (`invalid character '}' looking for beginning of object key string`, offset 9),
 * `unexpected EOF` for a value cut short, and the float64 overflow a number gives when decoded into an
 * interface{} (`json: cannot unmarshal number 1e400 into Go value of type float64`). JSON.parse's messages and
 * positions differ, and it reads past the first value, so the scanner's states are re-implemented here.
 */

/** A syntax error of Go's scanner: its message and `Offset` (bytes read, the bad one included). */
export class GoJsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'GoJsonSyntaxError';
  }
}

/** The bytes of the first JSON value, and its number literals (in order), once the scanner accepted it. */
export interface GoJsonValue {
  text: string;
  numbers: string[];
}

type Container = 'object-key' | 'object-value' | 'array-value';
type Step = (c: number) => void;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

/** Go's quoteChar: the byte as strconv.Quote shows the rune of that value, in single quotes. */
export function goQuoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return `'"'`;
  const escapes: Record<number, string> = { 7: '\\a', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t', 11: '\\v', 0x5c: '\\\\' };
  const hex = c.toString(16).padStart(2, '0');
  if (escapes[c]) return `'${escapes[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${hex}'`;
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u00${hex}'`;
  return `'${String.fromCharCode(c)}'`;
}

/**
 * Reads the first JSON value of `text` as json.Decoder.Decode does: throws GoJsonSyntaxError at the first
 * byte the scanner rejects, `unexpected EOF` when the input ends inside the value; bytes after the value are
 * not read.
 */
export function scanFirstGoJsonValue(text: string): GoJsonValue {
  const bytes = Buffer.from(text, 'utf8');
  const stack: Container[] = [];
  const numbers: string[] = [];
  let numberStart = -1;
  let offset = 0;
  let done = false;
  let step: Step;

  const fail = (c: number, context: string): never => {
    throw new GoJsonSyntaxError(`invalid character ${goQuoteChar(c)} ${context}`, offset);
  };
  const endNumber = () => {
    if (numberStart >= 0) numbers.push(bytes.subarray(numberStart, offset - 1).toString('latin1'));
    numberStart = -1;
  };
  const pop = () => {
    stack.pop();
    if (stack.length === 0) done = true;
    else step = endValue;
  };
  const beginValue: Step = (c) => {
    if (isSpace(c)) return;
    switch (c) {
      case 0x7b: // {
        step = beginStringOrEmpty;
        stack.push('object-key');
        return;
      case 0x5b: // [
        step = beginValueOrEmpty;
        stack.push('array-value');
        return;
      case 0x22: // "
        step = inString;
        return;
      case 0x2d: // -
        numberStart = offset - 1;
        step = (d) => (d === 0x30 ? (step = zero) : d >= 0x31 && d <= 0x39 ? (step = nonZero) : fail(d, 'in numeric literal'));
        return;
      case 0x30:
        numberStart = offset - 1;
        step = zero;
        return;
      case 0x74: // t
        step = literal('rue', 'true');
        return;
      case 0x66: // f
        step = literal('alse', 'false');
        return;
      case 0x6e: // n
        step = literal('ull', 'null');
        return;
    }
    if (c >= 0x31 && c <= 0x39) {
      numberStart = offset - 1;
      step = nonZero;
      return;
    }
    fail(c, 'looking for beginning of value');
  };
  const beginValueOrEmpty: Step = (c) => {
    if (isSpace(c)) return;
    if (c === 0x5d) return endValue(c);
    beginValue(c);
  };
  const beginStringOrEmpty: Step = (c) => {
    if (isSpace(c)) return;
    if (c === 0x7d) {
      stack[stack.length - 1] = 'object-value';
      return endValue(c);
    }
    beginString(c);
  };
  const beginString: Step = (c) => {
    if (isSpace(c)) return;
    if (c === 0x22) step = inString;
    else fail(c, 'looking for beginning of object key string');
  };
  const endValue: Step = (c) => {
    endNumber();
    if (stack.length === 0) {
      done = true;
      return;
    }
    if (isSpace(c)) {
      step = endValue;
      return;
    }
    const top = stack[stack.length - 1];
    if (top === 'object-key') {
      if (c !== 0x3a) fail(c, 'after object key');
      stack[stack.length - 1] = 'object-value';
      step = beginValue;
    } else if (top === 'object-value') {
      if (c === 0x2c) {
        stack[stack.length - 1] = 'object-key';
        step = beginString;
      } else if (c === 0x7d) pop();
      else fail(c, 'after object key:value pair');
    } else {
      if (c === 0x2c) step = beginValue;
      else if (c === 0x5d) pop();
      else fail(c, 'after array element');
    }
  };
  const inString: Step = (c) => {
    if (c === 0x22) step = endValue;
    else if (c === 0x5c) step = inStringEscape;
    else if (c < 0x20) fail(c, 'in string literal');
  };
  const inStringEscape: Step = (c) => {
    if ('bfnrt\\/"'.includes(String.fromCharCode(c))) step = inString;
    else if (c === 0x75) step = unicodeEscape(4);
    else fail(c, 'in string escape code');
  };
  const unicodeEscape =
    (left: number): Step =>
    (c) => {
      if (!isHex(c)) fail(c, 'in \\u hexadecimal character escape');
      step = left === 1 ? inString : unicodeEscape(left - 1);
    };
  const nonZero: Step = (c) => (isDigit(c) ? undefined : zero(c));
  const zero: Step = (c) => {
    if (c === 0x2e) step = (d) => (isDigit(d) ? (step = fraction) : fail(d, 'after decimal point in numeric literal'));
    else if (c === 0x65 || c === 0x45) step = exponent;
    else endValue(c);
  };
  const fraction: Step = (c) => {
    if (isDigit(c)) return;
    if (c === 0x65 || c === 0x45) step = exponent;
    else endValue(c);
  };
  const exponentSign: Step = (c) => (isDigit(c) ? (step = exponentDigits) : fail(c, 'in exponent of numeric literal'));
  const exponent: Step = (c) => (c === 0x2b || c === 0x2d ? (step = exponentSign) : exponentSign(c));
  const exponentDigits: Step = (c) => (isDigit(c) ? undefined : endValue(c));
  const literal =
    (rest: string, word: string): Step =>
    (c) => {
      if (c !== rest.charCodeAt(0)) fail(c, `in literal ${word} (expecting '${rest[0]}')`);
      step = rest.length === 1 ? endValue : literal(rest.slice(1), word);
    };

  step = beginValue;
  for (const c of bytes) {
    offset++;
    step(c);
    if (done) return { text: bytes.subarray(0, offset).toString('utf8'), numbers };
  }
  // At the end of the stream a complete scalar ends as if a space followed; anything else was cut short.
  offset++;
  step(0x20);
  if (done) return { text: bytes.subarray(0, offset - 1).toString('utf8'), numbers };
  throw new Error(bytes.some((c) => !isSpace(c)) ? 'unexpected EOF' : 'EOF');
}

/**
 * Decodes the first JSON value of `text` into Go's interface{} values (float64 numbers), as json.Decoder
 * does; throws Go's errors (syntax errors as GoJsonSyntaxError).
 */
export function decodeFirstGoJsonValue(text: string): unknown {
  const value = scanFirstGoJsonValue(text);
  const overflow = value.numbers.find((n) => !Number.isFinite(Number(n)));
  if (overflow !== undefined) throw new Error(`json: cannot unmarshal number ${overflow} into Go value of type float64`);
  return JSON.parse(value.text);
}
