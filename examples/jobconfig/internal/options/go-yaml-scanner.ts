/**
 * libyaml's scanner as go-yaml v2 (gopkg.in/yaml.v2 2.4, scannerc.go and readerc.go) runs it: characters to
 * tokens — simple keys, indentation, flow levels, scalar values folded as libyaml folds them — with its errors
 * and their marks, which decide the line go-yaml's messages show. Used by the parser in go-yaml-errors.ts.
 */
export interface Mark {
  index: number;
  line: number;
  column: number;
}

export type TokenType =
  | 'STREAM-START'
  | 'STREAM-END'
  | 'VERSION-DIRECTIVE'
  | 'TAG-DIRECTIVE'
  | 'DOCUMENT-START'
  | 'DOCUMENT-END'
  | 'BLOCK-SEQUENCE-START'
  | 'BLOCK-MAPPING-START'
  | 'BLOCK-END'
  | 'FLOW-SEQUENCE-START'
  | 'FLOW-SEQUENCE-END'
  | 'FLOW-MAPPING-START'
  | 'FLOW-MAPPING-END'
  | 'BLOCK-ENTRY'
  | 'FLOW-ENTRY'
  | 'KEY'
  | 'VALUE'
  | 'ALIAS'
  | 'ANCHOR'
  | 'TAG'
  | 'SCALAR';

export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal' | 'folded';

export interface Token {
  type: TokenType;
  start: Mark;
  end: Mark;
  /** A scalar's value, anchor or alias name, tag handle, %TAG handle. */
  value?: string;
  /** Tag suffix; %TAG prefix. */
  suffix?: string;
  /** A scalar's style. */
  style?: ScalarStyle;
  major?: number;
  minor?: number;
}

interface SimpleKey {
  possible: boolean;
  required: boolean;
  tokenNumber: number;
  mark: Mark;
}

type ErrorKind = 'reader' | 'scanner' | 'parser' | 'decoder';

export const ZERO_MARK: Mark = { index: 0, line: 0, column: 0 };

/** A go-yaml failure: libyaml's error fields, rendered as go-yaml's `(*parser).fail` renders them. */
export class GoYamlError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly problem: string,
    readonly problemMark: Mark = ZERO_MARK,
    readonly contextMark: Mark = ZERO_MARK,
  ) {
    super(renderGoYamlError(kind, problem, problemMark, contextMark));
    this.name = 'GoYamlError';
  }
}

function renderGoYamlError(kind: ErrorKind, problem: string, problemMark: Mark, contextMark: Mark): string {
  if (kind === 'decoder') return `yaml: ${problem}`;
  let line = 0;
  if (problemMark.line !== 0) line = kind === 'scanner' ? problemMark.line + 1 : problemMark.line;
  else if (contextMark.line !== 0) line = contextMark.line;
  return `yaml: ${line !== 0 ? `line ${line}: ` : ''}${problem}`;
}

const isBreak = (c: string) => c === '\r' || c === '\n' || c === '\u0085' || c === '\u2028' || c === '\u2029';
const isZ = (c: string) => c === '\0';
const isBreakZ = (c: string) => isBreak(c) || isZ(c);
const isBlank = (c: string) => c === ' ' || c === '\t';
const isBlankZ = (c: string) => isBlank(c) || isBreakZ(c);
const isAlpha = (c: string) => /^[0-9A-Za-z_-]$/.test(c);
const isDigit = (c: string) => c >= '0' && c <= '9';
const isHex = (c: string) => /^[0-9A-Fa-f]$/.test(c);
const URI_CHARS = new Set(";/?:@&=+$,.!~*'()[]%");

/** The characters libyaml's reader accepts (YAML 1.1 printable); anything else is a reader error. */
function isPrintable(cp: number): boolean {
  return (
    cp === 0x09 ||
    cp === 0x0a ||
    cp === 0x0d ||
    (cp >= 0x20 && cp <= 0x7e) ||
    cp === 0x85 ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

const utf8Length = (cp: number) => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4);

/** libyaml's reader decodes its input 512 raw bytes at a time; a bad character fails the chunk holding it. */
const RAW_BUFFER_SIZE = 512;

/** libyaml's scanner (scannerc.go): turns characters into tokens, the way go-yaml v2 does, errors included. */
export class Scanner {
  private readonly chars: string[];
  private readonly byteEnds: number[] = [];
  private decoded = 0;
  private pos = 0;
  private mark: Mark = { index: 0, line: 0, column: 0 };

  private readonly tokens: Token[] = [];
  private tokensHead = 0;
  tokensParsed = 0;
  private tokenAvailable = false;
  private streamStartProduced = false;
  streamEndProduced = false;

  private indent = -1;
  private readonly indents: number[] = [];
  private simpleKeyAllowed = false;
  private readonly simpleKeys: SimpleKey[] = [];
  private readonly simpleKeysByTok = new Map<number, number>();
  private flowLevel = 0;

  constructor(text: string) {
    this.chars = Array.from(text);
    // The reader drops a byte order mark that starts the input before any position is counted.
    let bytes = 0;
    if (this.chars[0] === '\uFEFF') {
      this.chars.shift();
      bytes = 3;
    }
    for (const c of this.chars) this.byteEnds.push((bytes += utf8Length(c.codePointAt(0)!)));
  }

  /** The character k ahead, decoding (and checking) the input chunk it lies in first, as the reader does. */
  private at(k = 0): string {
    const wanted = Math.min(this.pos + k + 1, this.chars.length);
    while (this.decoded < wanted) {
      const chunkEnd = (Math.floor((this.decoded ? this.byteEnds[this.decoded - 1] : 0) / RAW_BUFFER_SIZE) + 1) * RAW_BUFFER_SIZE;
      const from = this.decoded;
      let to = from;
      while (to < this.chars.length && this.byteEnds[to] <= chunkEnd) to++;
      if (to === from) to++;
      for (let i = from; i < to; i++) {
        if (!isPrintable(this.chars[i].codePointAt(0)!)) throw new GoYamlError('reader', 'control characters are not allowed');
      }
      this.decoded = to;
    }
    return this.chars[this.pos + k] ?? '\0';
  }

  private skip(): void {
    this.pos++;
    this.mark = { index: this.mark.index + 1, line: this.mark.line, column: this.mark.column + 1 };
  }

  private skipLine(): void {
    if (this.at() === '\r' && this.at(1) === '\n') {
      this.pos += 2;
      this.mark = { index: this.mark.index + 2, line: this.mark.line + 1, column: 0 };
    } else if (isBreak(this.at())) {
      this.pos++;
      this.mark = { index: this.mark.index + 1, line: this.mark.line + 1, column: 0 };
    }
  }

  private error(context: string, contextMark: Mark, problem: string): never {
    void context;
    throw new GoYamlError('scanner', problem, { ...this.mark }, contextMark);
  }

  /** The next token without consuming it (the parser's peek_token). */
  peek(): Token {
    if (!this.tokenAvailable) this.fetchMoreTokens();
    return this.tokens[this.tokensHead];
  }

  /** Consumes the peeked token (the parser's skip_token). */
  skipToken(): void {
    this.tokenAvailable = false;
    this.tokensParsed++;
    this.streamEndProduced = this.tokens[this.tokensHead].type === 'STREAM-END';
    this.tokensHead++;
  }

  private insertToken(number: number, token: Token): void {
    if (number === -1) this.tokens.push(token);
    else this.tokens.splice(this.tokensHead + number, 0, token);
  }

  private fetchMoreTokens(): void {
    for (;;) {
      if (this.tokensHead !== this.tokens.length) {
        const index = this.simpleKeysByTok.get(this.tokensParsed);
        if (index === undefined || !this.simpleKeyIsValid(this.simpleKeys[index])) break;
      }
      this.fetchNextToken();
    }
    this.tokenAvailable = true;
  }

  private fetchNextToken(): void {
    this.at();
    if (!this.streamStartProduced) return this.fetchStreamStart();
    this.scanToNextToken();
    this.unrollIndent(this.mark.column);
    const c = this.at();
    if (isZ(c)) return this.fetchStreamEnd();
    if (this.mark.column === 0 && c === '%') return this.fetchDirective();
    if (this.atDocumentIndicator('-')) return this.fetchDocumentIndicator('DOCUMENT-START');
    if (this.atDocumentIndicator('.')) return this.fetchDocumentIndicator('DOCUMENT-END');
    if (c === '[') return this.fetchFlowCollectionStart('FLOW-SEQUENCE-START');
    if (c === '{') return this.fetchFlowCollectionStart('FLOW-MAPPING-START');
    if (c === ']') return this.fetchFlowCollectionEnd('FLOW-SEQUENCE-END');
    if (c === '}') return this.fetchFlowCollectionEnd('FLOW-MAPPING-END');
    if (c === ',') return this.fetchFlowEntry();
    const next = this.at(1);
    if (c === '-' && isBlankZ(next)) return this.fetchBlockEntry();
    if (c === '?' && (this.flowLevel > 0 || isBlankZ(next))) return this.fetchKey();
    if (c === ':' && (this.flowLevel > 0 || isBlankZ(next))) return this.fetchValue();
    if (c === '*') return this.fetchAnchor('ALIAS');
    if (c === '&') return this.fetchAnchor('ANCHOR');
    if (c === '!') return this.fetchTag();
    if (c === '|' && this.flowLevel === 0) return this.fetchBlockScalar(true);
    if (c === '>' && this.flowLevel === 0) return this.fetchBlockScalar(false);
    if (c === "'") return this.fetchFlowScalar(true);
    if (c === '"') return this.fetchFlowScalar(false);
    if (
      !(isBlankZ(c) || '-?:,[]{}#&*!|>\'"%@`'.includes(c)) ||
      (c === '-' && !isBlank(next)) ||
      (this.flowLevel === 0 && (c === '?' || c === ':') && !isBlankZ(next))
    ) {
      return this.fetchPlainScalar();
    }
    this.error('while scanning for the next token', { ...this.mark }, 'found character that cannot start any token');
  }

  private simpleKeyIsValid(key: SimpleKey): boolean {
    if (!key.possible) return false;
    if (key.mark.line < this.mark.line || key.mark.index + 1024 < this.mark.index) {
      if (key.required) this.error('while scanning a simple key', key.mark, "could not find expected ':'");
      key.possible = false;
      return false;
    }
    return true;
  }

  private saveSimpleKey(): void {
    const required = this.flowLevel === 0 && this.indent === this.mark.column;
    if (!this.simpleKeyAllowed) return;
    const key: SimpleKey = { possible: true, required, tokenNumber: this.tokensParsed + (this.tokens.length - this.tokensHead), mark: { ...this.mark } };
    this.removeSimpleKey();
    this.simpleKeys[this.simpleKeys.length - 1] = key;
    this.simpleKeysByTok.set(key.tokenNumber, this.simpleKeys.length - 1);
  }

  private removeSimpleKey(): void {
    const key = this.simpleKeys[this.simpleKeys.length - 1];
    if (!key.possible) return;
    if (key.required) this.error('while scanning a simple key', key.mark, "could not find expected ':'");
    key.possible = false;
    this.simpleKeysByTok.delete(key.tokenNumber);
  }

  private increaseFlowLevel(): void {
    this.simpleKeys.push({ possible: false, required: false, tokenNumber: this.tokensParsed + (this.tokens.length - this.tokensHead), mark: { ...this.mark } });
    this.flowLevel++;
    if (this.flowLevel > 10000) this.error('while increasing flow level', this.simpleKeys[this.simpleKeys.length - 1].mark, 'exceeded max depth of 10000');
  }

  private decreaseFlowLevel(): void {
    if (this.flowLevel === 0) return;
    this.flowLevel--;
    this.simpleKeysByTok.delete(this.simpleKeys[this.simpleKeys.length - 1].tokenNumber);
    this.simpleKeys.pop();
  }

  private rollIndent(column: number, number: number, type: TokenType, mark: Mark): void {
    if (this.flowLevel > 0 || this.indent >= column) return;
    this.indents.push(this.indent);
    this.indent = column;
    if (this.indents.length > 10000) this.error('while increasing indent level', this.simpleKeys[this.simpleKeys.length - 1].mark, 'exceeded max depth of 10000');
    this.insertToken(number > -1 ? number - this.tokensParsed : -1, { type, start: mark, end: mark });
  }

  private unrollIndent(column: number): void {
    if (this.flowLevel > 0) return;
    while (this.indent > column) {
      this.insertToken(-1, { type: 'BLOCK-END', start: { ...this.mark }, end: { ...this.mark } });
      this.indent = this.indents.pop()!;
    }
  }

  private simpleToken(type: TokenType): void {
    const start = { ...this.mark };
    this.skip();
    this.insertToken(-1, { type, start, end: { ...this.mark } });
  }

  private fetchStreamStart(): void {
    this.indent = -1;
    this.simpleKeys.push({ possible: false, required: false, tokenNumber: 0, mark: { ...ZERO_MARK } });
    this.simpleKeyAllowed = true;
    this.streamStartProduced = true;
    this.insertToken(-1, { type: 'STREAM-START', start: { ...this.mark }, end: { ...this.mark } });
  }

  private fetchStreamEnd(): void {
    if (this.mark.column !== 0) this.mark = { index: this.mark.index, line: this.mark.line + 1, column: 0 };
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    this.insertToken(-1, { type: 'STREAM-END', start: { ...this.mark }, end: { ...this.mark } });
  }

  private fetchDirective(): void {
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    this.insertToken(-1, this.scanDirective());
  }

  private fetchDocumentIndicator(type: TokenType): void {
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    const start = { ...this.mark };
    this.skip();
    this.skip();
    this.skip();
    this.insertToken(-1, { type, start, end: { ...this.mark } });
  }

  private fetchFlowCollectionStart(type: TokenType): void {
    this.saveSimpleKey();
    this.increaseFlowLevel();
    this.simpleKeyAllowed = true;
    this.simpleToken(type);
  }

  private fetchFlowCollectionEnd(type: TokenType): void {
    this.removeSimpleKey();
    this.decreaseFlowLevel();
    this.simpleKeyAllowed = false;
    this.simpleToken(type);
  }

  private fetchFlowEntry(): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.simpleToken('FLOW-ENTRY');
  }

  private fetchBlockEntry(): void {
    this.fetchBlockIndicator('block sequence entries', 'BLOCK-SEQUENCE-START', 'BLOCK-ENTRY', true);
  }

  private fetchKey(): void {
    this.fetchBlockIndicator('mapping keys', 'BLOCK-MAPPING-START', 'KEY', this.flowLevel === 0);
  }

  /** `-` or `?`: in block context it may open a sequence or mapping (where a simple key could start). */
  private fetchBlockIndicator(what: string, start: 'BLOCK-SEQUENCE-START' | 'BLOCK-MAPPING-START', token: 'BLOCK-ENTRY' | 'KEY', simpleKeyAllowedAfter: boolean): void {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) this.error('', { ...this.mark }, `${what} are not allowed in this context`);
      this.rollIndent(this.mark.column, -1, start, { ...this.mark });
    }
    this.removeSimpleKey();
    this.simpleKeyAllowed = simpleKeyAllowedAfter;
    this.simpleToken(token);
  }

  private fetchValue(): void {
    const key = this.simpleKeys[this.simpleKeys.length - 1];
    if (this.simpleKeyIsValid(key)) {
      this.insertToken(key.tokenNumber - this.tokensParsed, { type: 'KEY', start: key.mark, end: key.mark });
      this.rollIndent(key.mark.column, key.tokenNumber, 'BLOCK-MAPPING-START', key.mark);
      key.possible = false;
      this.simpleKeysByTok.delete(key.tokenNumber);
      this.simpleKeyAllowed = false;
    } else {
      if (this.flowLevel === 0) {
        if (!this.simpleKeyAllowed) this.error('', { ...this.mark }, 'mapping values are not allowed in this context');
        this.rollIndent(this.mark.column, -1, 'BLOCK-MAPPING-START', { ...this.mark });
      }
      this.simpleKeyAllowed = this.flowLevel === 0;
    }
    this.simpleToken('VALUE');
  }

  private fetchAnchor(type: 'ALIAS' | 'ANCHOR'): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    const start = { ...this.mark };
    this.skip();
    let name = '';
    while (isAlpha(this.at())) {
      name += this.at();
      this.skip();
    }
    const end = { ...this.mark };
    const c = this.at();
    if (!name || !(isBlankZ(c) || '?:,]}%@`'.includes(c))) {
      this.error(type === 'ANCHOR' ? 'while scanning an anchor' : 'while scanning an alias', start, 'did not find expected alphabetic or numeric character');
    }
    this.insertToken(-1, { type, start, end, value: name });
  }

  private fetchTag(): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    const start = { ...this.mark };
    let handle: string;
    let suffix: string;
    if (this.at(1) === '<') {
      handle = '';
      this.skip();
      this.skip();
      suffix = this.scanTagUri(false, '', start);
      if (this.at() !== '>') this.error('while scanning a tag', start, "did not find the expected '>'");
      this.skip();
    } else {
      handle = this.scanTagHandle(false, start);
      if (handle[0] === '!' && handle.length > 1 && handle.endsWith('!')) {
        suffix = this.scanTagUri(false, '', start);
      } else {
        suffix = this.scanTagUri(false, handle, start);
        handle = '!';
        if (!suffix) [handle, suffix] = [suffix, handle];
      }
    }
    if (!isBlankZ(this.at())) this.error('while scanning a tag', start, 'did not find expected whitespace or line break');
    this.insertToken(-1, { type: 'TAG', start, end: { ...this.mark }, value: handle, suffix });
  }

  private tagError(directive: boolean, start: Mark, problem: string): never {
    this.error(directive ? 'while parsing a %TAG directive' : 'while parsing a tag', start, problem);
  }

  private scanTagHandle(directive: boolean, start: Mark): string {
    if (this.at() !== '!') this.tagError(directive, start, "did not find expected '!'");
    let handle = '!';
    this.skip();
    while (isAlpha(this.at())) {
      handle += this.at();
      this.skip();
    }
    if (this.at() === '!') {
      handle += '!';
      this.skip();
    } else if (directive && handle !== '!') {
      this.tagError(directive, start, "did not find expected '!'");
    }
    return handle;
  }

  private scanTagUri(directive: boolean, head: string, start: Mark): string {
    let uri = head.length > 1 ? head.slice(1) : '';
    let hasTag = head.length > 0;
    while (isAlpha(this.at()) || URI_CHARS.has(this.at())) {
      if (this.at() === '%') uri += this.scanUriEscapes(directive, start);
      else {
        uri += this.at();
        this.skip();
      }
      hasTag = true;
    }
    if (!hasTag) this.tagError(directive, start, 'did not find expected tag URI');
    return uri;
  }

  private scanUriEscapes(directive: boolean, start: Mark): string {
    const octets: number[] = [];
    let width = 1024;
    while (width > 0) {
      if (!(this.at() === '%' && isHex(this.at(1)) && isHex(this.at(2)))) this.tagError(directive, start, 'did not find URI escaped octet');
      const octet = parseInt(this.at(1) + this.at(2), 16);
      if (width === 1024) {
        width = (octet & 0x80) === 0 ? 1 : (octet & 0xe0) === 0xc0 ? 2 : (octet & 0xf0) === 0xe0 ? 3 : (octet & 0xf8) === 0xf0 ? 4 : 0;
        if (width === 0) this.tagError(directive, start, 'found an incorrect leading UTF-8 octet');
      } else if ((octet & 0xc0) !== 0x80) {
        this.tagError(directive, start, 'found an incorrect trailing UTF-8 octet');
      }
      octets.push(octet);
      this.skip();
      this.skip();
      this.skip();
      width--;
    }
    return Buffer.from(octets).toString('utf8');
  }

  private scanDirective(): Token {
    const start = { ...this.mark };
    this.skip();
    let name = '';
    while (isAlpha(this.at())) {
      name += this.at();
      this.skip();
    }
    if (!name) this.error('while scanning a directive', start, 'could not find expected directive name');
    if (!isBlankZ(this.at())) this.error('while scanning a directive', start, 'found unexpected non-alphabetical character');
    let token: Token;
    if (name === 'YAML') {
      while (isBlank(this.at())) this.skip();
      const major = this.scanVersionNumber(start);
      if (this.at() !== '.') this.error('while scanning a %YAML directive', start, "did not find expected digit or '.' character");
      this.skip();
      const minor = this.scanVersionNumber(start);
      token = { type: 'VERSION-DIRECTIVE', start, end: { ...this.mark }, major, minor };
    } else if (name === 'TAG') {
      while (isBlank(this.at())) this.skip();
      const handle = this.scanTagHandle(true, start);
      if (!isBlank(this.at())) this.error('while scanning a %TAG directive', start, 'did not find expected whitespace');
      while (isBlank(this.at())) this.skip();
      const prefix = this.scanTagUri(true, '', start);
      if (!isBlankZ(this.at())) this.error('while scanning a %TAG directive', start, 'did not find expected whitespace or line break');
      token = { type: 'TAG-DIRECTIVE', start, end: { ...this.mark }, value: handle, suffix: prefix };
    } else {
      this.error('while scanning a directive', start, 'found unknown directive name');
    }
    while (isBlank(this.at())) this.skip();
    if (this.at() === '#') while (!isBreakZ(this.at())) this.skip();
    if (!isBreakZ(this.at())) this.error('while scanning a directive', start, 'did not find expected comment or line break');
    if (isBreak(this.at())) this.skipLine();
    return token;
  }

  private scanVersionNumber(start: Mark): number {
    let value = 0;
    let length = 0;
    while (isDigit(this.at())) {
      if (++length > 2) this.error('while scanning a %YAML directive', start, 'found extremely long version number');
      value = value * 10 + Number(this.at());
      this.skip();
    }
    if (length === 0) this.error('while scanning a %YAML directive', start, 'did not find expected version number');
    return value;
  }

  private scanToNextToken(): void {
    for (;;) {
      while (this.at() === ' ' || ((this.flowLevel > 0 || !this.simpleKeyAllowed) && this.at() === '\t')) this.skip();
      if (this.at() === '#') while (!isBreakZ(this.at())) this.skip();
      if (!isBreak(this.at())) break;
      this.skipLine();
      if (this.flowLevel === 0) this.simpleKeyAllowed = true;
    }
  }

  /** Consumes a line break as libyaml's read_line: CR LF, CR, LF and NEL read as LF; LS and PS kept. */
  private readLine(): string {
    const c = this.at();
    if (!isBreak(c)) return '';
    this.skipLine();
    return c === '\u2028' || c === '\u2029' ? c : '\n';
  }

  private fetchBlockScalar(literal: boolean): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    const start = { ...this.mark };
    this.skip();
    let chomping = 0;
    let increment = 0;
    const zeroIndicator = () => this.error('while scanning a block scalar', start, 'found an indentation indicator equal to 0');
    if (this.at() === '+' || this.at() === '-') {
      chomping = this.at() === '+' ? 1 : -1;
      this.skip();
      if (isDigit(this.at())) {
        if (this.at() === '0') zeroIndicator();
        increment = Number(this.at());
        this.skip();
      }
    } else if (isDigit(this.at())) {
      if (this.at() === '0') zeroIndicator();
      increment = Number(this.at());
      this.skip();
      if (this.at() === '+' || this.at() === '-') {
        chomping = this.at() === '+' ? 1 : -1;
        this.skip();
      }
    }
    while (isBlank(this.at())) this.skip();
    if (this.at() === '#') while (!isBreakZ(this.at())) this.skip();
    if (!isBreakZ(this.at())) this.error('while scanning a block scalar', start, 'did not find expected comment or line break');
    if (isBreak(this.at())) this.skipLine();
    let end = { ...this.mark };
    let indent = increment > 0 ? (this.indent >= 0 ? this.indent + increment : increment) : 0;
    let value = '';
    let leadingBreak = '';
    let trailingBreaks = '';
    const scanBreaks = () => {
      end = { ...this.mark };
      let maxIndent = 0;
      for (;;) {
        while ((indent === 0 || this.mark.column < indent) && this.at() === ' ') this.skip();
        if (this.mark.column > maxIndent) maxIndent = this.mark.column;
        if ((indent === 0 || this.mark.column < indent) && this.at() === '\t') {
          this.error('while scanning a block scalar', start, 'found a tab character where an indentation space is expected');
        }
        if (!isBreak(this.at())) break;
        trailingBreaks += this.readLine();
        end = { ...this.mark };
      }
      if (indent === 0) indent = Math.max(maxIndent, this.indent + 1, 1);
    };
    scanBreaks();
    let leadingBlank = false;
    while (this.mark.column === indent && !isZ(this.at())) {
      const trailingBlank = isBlank(this.at());
      if (!literal && !leadingBlank && !trailingBlank && leadingBreak.startsWith('\n')) {
        if (!trailingBreaks) value += ' ';
      } else {
        value += leadingBreak;
      }
      value += trailingBreaks;
      trailingBreaks = '';
      leadingBlank = isBlank(this.at());
      while (!isBreakZ(this.at())) {
        value += this.at();
        this.skip();
      }
      leadingBreak = this.readLine();
      scanBreaks();
    }
    if (chomping !== -1) value += leadingBreak;
    if (chomping === 1) value += trailingBreaks;
    this.insertToken(-1, { type: 'SCALAR', start, end, value, style: literal ? 'literal' : 'folded' });
  }

  private fetchFlowScalar(single: boolean): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    const start = { ...this.mark };
    this.skip();
    const quote = single ? "'" : '"';
    let value = '';
    const folding = newLineFolding();
    for (;;) {
      if (this.atDocumentIndicator('-') || this.atDocumentIndicator('.')) {
        this.error('while scanning a quoted scalar', start, 'found unexpected document indicator');
      }
      if (isZ(this.at())) this.error('while scanning a quoted scalar', start, 'found unexpected end of stream');
      folding.leadingBlanks = false;
      while (!isBlankZ(this.at())) {
        const c = this.at();
        if (single && c === "'" && this.at(1) === "'") {
          value += "'";
          this.skip();
          this.skip();
        } else if (c === quote) {
          break;
        } else if (!single && c === '\\' && isBreak(this.at(1))) {
          this.skip();
          this.skipLine();
          folding.leadingBlanks = true;
          break;
        } else if (!single && c === '\\') {
          const escape = this.at(1);
          const codeLength = ({ x: 2, u: 4, U: 8 } as Record<string, number>)[escape] ?? 0;
          if (!codeLength) {
            const replacement = ESCAPES[escape];
            if (replacement === undefined) this.error('while parsing a quoted scalar', start, 'found unknown escape character');
            value += replacement;
          }
          this.skip();
          this.skip();
          if (codeLength) {
            let code = 0;
            for (let k = 0; k < codeLength; k++) {
              if (!isHex(this.at(k))) this.error('while parsing a quoted scalar', start, 'did not find expected hexdecimal number');
              code = code * 16 + parseInt(this.at(k), 16);
            }
            if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) {
              this.error('while parsing a quoted scalar', start, 'found invalid Unicode character escape code');
            }
            value += String.fromCodePoint(code);
            for (let k = 0; k < codeLength; k++) this.skip();
          }
        } else {
          value += c;
          this.skip();
        }
      }
      if (this.at() === quote) break;
      this.scanBlanksAndBreaks(folding);
      value += folding.leadingBlanks ? takeBreaks(folding) : takeWhitespaces(folding);
    }
    this.skip();
    this.insertToken(-1, { type: 'SCALAR', start, end: { ...this.mark }, value, style: single ? 'single' : 'double' });
  }

  private fetchPlainScalar(): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    const indent = this.indent + 1;
    const start = { ...this.mark };
    let end = { ...this.mark };
    let value = '';
    const folding = newLineFolding();
    for (;;) {
      if (this.atDocumentIndicator('-') || this.atDocumentIndicator('.')) {
        break;
      }
      if (this.at() === '#') break;
      while (!isBlankZ(this.at())) {
        const c = this.at();
        if ((c === ':' && isBlankZ(this.at(1))) || (this.flowLevel > 0 && ',?[]{}'.includes(c))) break;
        if (folding.leadingBlanks) {
          value += takeBreaks(folding);
          folding.leadingBlanks = false;
        } else value += takeWhitespaces(folding);
        value += c;
        this.skip();
        end = { ...this.mark };
      }
      if (!(isBlank(this.at()) || isBreak(this.at()))) break;
      this.scanBlanksAndBreaks(folding, { indent, start });
      if (this.flowLevel === 0 && this.mark.column < indent) break;
    }
    this.insertToken(-1, { type: 'SCALAR', start, end, value, style: 'plain' });
    if (folding.leadingBlanks) this.simpleKeyAllowed = true;
  }

  /** Three `-` or `.` at the start of a line, then a blank or the end: `---` / `...`. */
  private atDocumentIndicator(ch: '-' | '.'): boolean {
    return this.mark.column === 0 && this.at() === ch && this.at(1) === ch && this.at(2) === ch && isBlankZ(this.at(3));
  }

  /**
   * The blanks and line breaks between a flow or plain scalar's words, into `folding`: blanks count only
   * before the first break. A plain scalar (`plain` given) refuses a tab inside its indentation.
   */
  private scanBlanksAndBreaks(folding: LineFolding, plain?: { indent: number; start: Mark }): void {
    while (isBlank(this.at()) || isBreak(this.at())) {
      if (isBlank(this.at())) {
        if (plain && folding.leadingBlanks && this.mark.column < plain.indent && this.at() === '\t') {
          this.error('while scanning a plain scalar', plain.start, 'found a tab character that violates indentation');
        }
        if (!folding.leadingBlanks) folding.whitespaces += this.at();
        this.skip();
      } else if (!folding.leadingBlanks) {
        folding.whitespaces = '';
        folding.leadingBreak = this.readLine();
        folding.leadingBlanks = true;
      } else {
        folding.trailingBreaks += this.readLine();
      }
    }
  }
}

/** What a flow or plain scalar has read between two of its words (libyaml's leading_break, trailing_breaks, whitespaces). */
interface LineFolding {
  leadingBlanks: boolean;
  leadingBreak: string;
  trailingBreaks: string;
  whitespaces: string;
}

function newLineFolding(): LineFolding {
  return { leadingBlanks: false, leadingBreak: '', trailingBreaks: '', whitespaces: '' };
}

/** The line breaks read, folded as libyaml folds them (one `\n` becomes a space), and forgotten. */
function takeBreaks(folding: LineFolding): string {
  const text = folding.leadingBreak.startsWith('\n') ? folding.trailingBreaks || ' ' : folding.leadingBreak + folding.trailingBreaks;
  folding.leadingBreak = '';
  folding.trailingBreaks = '';
  return text;
}

/** The blanks read before any line break, and forgotten. */
function takeWhitespaces(folding: LineFolding): string {
  const text = folding.whitespaces;
  folding.whitespaces = '';
  return text;
}

/** The characters of libyaml's double-quoted escapes (`\x`, `\u` and `\U` take a code). */
const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  "'": "'",
  '\\': '\\',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
};

