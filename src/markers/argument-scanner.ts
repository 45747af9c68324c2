/**
 * The tokenizer under the marker-argument grammar. It splits argument text the way controller-gen's
 * Go `text/scanner` set-up does (identifiers, Go number literals, "quoted" and `raw` strings, single
 * characters; whitespace skipped), because bare strings, numbers and error columns all depend on
 * where tokens start and end.
 */

export type TokenKind = 'eof' | 'ident' | 'int' | 'float' | 'string' | 'rawString' | 'char';

export interface Token {
  kind: TokenKind;
  text: string;
  /** Offset of the first character of the token in the scanned text. */
  start: number;
  end: number;
}

/** An error found while scanning or parsing, at a token of the argument text. */
export interface ArgumentError {
  message: string;
  /** 1-based column in the argument text, or undefined when the error is at the end of empty input. */
  column?: number;
}

const WHITESPACE = new Set([' ', '\t', '\n', '\r']);
const LETTER = /[\p{L}_]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{Nd}_]/u;

export class ArgumentScanner {
  /** When false, digits are single-character tokens (bare strings are read that way). */
  scanNumbers = true;
  private offset = 0;
  /** The most recently scanned token (its start is where errors point). */
  token: Token = { kind: 'eof', text: '', start: 0, end: 0 };
  readonly errors: ArgumentError[] = [];

  constructor(
    readonly text: string,
    readonly rawStrings: boolean,
    startOffset = 0,
  ) {
    this.offset = startOffset;
  }

  /** Current read offset (after the last scanned token). */
  get position(): number {
    return this.offset;
  }

  /** The next character without consuming it or skipping whitespace ('' at the end). */
  peek(): string {
    return this.text[this.offset] ?? '';
  }

  /** The next non-whitespace character (whitespace is consumed), '' at the end. */
  peekNoSpace(): string {
    while (WHITESPACE.has(this.text[this.offset] ?? '')) this.offset++;
    return this.peek();
  }

  /** Records an error at the last token. */
  error(message: string): void {
    const atEndOfEmpty = this.token.kind === 'eof' && this.text.length === 0;
    this.errors.push({ message, column: atEndOfEmpty ? undefined : this.token.start + 1 });
  }

  /** Scans the next token. */
  scan(): Token {
    this.peekNoSpace();
    const start = this.offset;
    const ch = this.peek();
    let kind: TokenKind;
    if (ch === '') kind = 'eof';
    else if (isLetter(ch)) {
      this.offset++;
      while (this.offset < this.text.length && isLetterOrDigit(this.text[this.offset])) this.offset++;
      kind = 'ident';
    } else if (this.scanNumbers && (isDigit(ch) || (ch === '.' && isDigit(this.text[start + 1] ?? '')))) {
      kind = this.scanNumber(start);
    } else if (ch === '"') {
      kind = this.scanQuoted(start, '"', 'string');
    } else if (ch === '`' && this.rawStrings) {
      kind = this.scanQuoted(start, '`', 'rawString');
    } else {
      this.offset++;
      kind = 'char';
    }
    this.token = { kind, text: this.text.slice(start, this.offset), start, end: this.offset };
    return this.token;
  }

  private scanQuoted(start: number, quote: string, kind: TokenKind): TokenKind {
    this.offset = start + 1;
    while (this.offset < this.text.length) {
      const c = this.text[this.offset];
      if (c === quote) {
        this.offset++;
        return kind;
      }
      if (c === '\\' && quote === '"') this.offset++;
      else if (c === '\n' && quote === '"') break;
      this.offset++;
    }
    this.offset = Math.min(this.offset, this.text.length);
    this.token = { kind, text: this.text.slice(start, this.offset), start, end: this.offset };
    this.error('literal not terminated');
    return kind;
  }

  /** A Go number literal: prefixes 0x/0o/0b, underscores, fractions and exponents. */
  private scanNumber(start: number): TokenKind {
    const rest = this.text.slice(start);
    const prefixed = /^0[xX][0-9a-fA-F_]*|^0[oO][0-7_]*|^0[bB][01_]*/.exec(rest);
    if (prefixed) {
      this.offset = start + prefixed[0].length;
      return 'int';
    }
    const decimal = /^[0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9_]+)?/.exec(rest)!;
    this.offset = start + decimal[0].length;
    const isFloat = decimal[1] !== undefined || decimal[2] !== undefined;
    if (!isFloat && /^0[0-9_]*[89]/.test(decimal[0])) {
      this.token = { kind: 'int', text: decimal[0], start, end: this.offset };
      const digit = /[89]/.exec(decimal[0])![0];
      this.error(`invalid digit '${digit}' in octal literal`);
    }
    return isFloat ? 'float' : 'int';
  }
}

function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9';
}

/** Go identifier characters: ASCII checked directly, other characters by Unicode class. */
function isLetter(ch: string): boolean {
  return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch === '_' || (ch > '\x7f' && LETTER.test(ch));
}

function isLetterOrDigit(ch: string): boolean {
  return isLetter(ch) || isDigit(ch) || (ch > '\x7f' && LETTER_OR_DIGIT.test(ch));
}

/** Go's `%q` for the short texts that appear in messages. */
export function goQuote(text: string): string {
  return JSON.stringify(text);
}

/** Decodes a Go "quoted" or `raw` string token; undefined when its escapes are invalid. */
export function unquoteGoString(token: string): string | undefined {
  if (token.length < 2) return undefined;
  const quote = token[0];
  if (token[token.length - 1] !== quote) return undefined;
  const body = token.slice(1, -1);
  if (quote === '`') return body.replace(/\r/g, '');
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      if (c === '"' || c === '\n') return undefined;
      out += c;
      continue;
    }
    const e = body[++i];
    const simple: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\', '"': '"' };
    if (e !== undefined && e in simple) {
      out += simple[e];
      continue;
    }
    const widths: Record<string, number> = { x: 2, u: 4, U: 8 };
    if (e !== undefined && e in widths) {
      const hex = body.slice(i + 1, i + 1 + widths[e]);
      if (hex.length !== widths[e] || !/^[0-9a-fA-F]+$/.test(hex)) return undefined;
      out += e === 'x' ? String.fromCharCode(parseInt(hex, 16)) : String.fromCodePoint(parseInt(hex, 16));
      i += widths[e];
      continue;
    }
    const octal = body.slice(i, i + 3);
    if (/^[0-7]{3}$/.test(octal)) {
      out += String.fromCharCode(parseInt(octal, 8));
      i += 2;
      continue;
    }
    return undefined;
  }
  return out;
}
