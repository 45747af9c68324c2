/**
 * `toYaml`: writes a JSON-like value exactly as controller-gen's gopkg.in/yaml.v2 `Marshal` does
 * (controller-gen spec §12): block style, 2-space indent, sequences in mappings not indented, keys in
 * yaml.v2's natural order, its quoting and literal-block rules, and its line folding (a space is
 * turned into a line break once the line is already past column 80). No `---`: callers join documents
 * with `---\n`.
 */
import { sortKeys } from './key-order.js';
import { chooseScalarStyle, formatNumber, isBreak, isPrintable } from './scalar-style.js';

/** Where libyaml breaks long scalars (its best_width). */
const BEST_WIDTH = 80;
const INDENT = 2;

type Scalar = null | boolean | number | string;
type Mapping = { [key: string]: unknown };

/** Serialises `value` (plain objects, arrays, strings, numbers, booleans, null) to YAML text ending in `\n`. */
export function toYaml(value: unknown): string {
  return joinYamlPieces(toYamlPieces(value));
}

/**
 * Text many documents share (a frozen subtree's, see writtenFrozen), with its UTF-8 bytes made once on first
 * use: 100 CRDs that embed one PodTemplateSpec then encode its half megabyte once, not 100 times.
 */
export class SharedText {
  private encoded: Uint8Array | undefined;
  constructor(readonly text: string) {}

  get bytes(): Uint8Array {
    this.encoded ??= Buffer.from(this.text, 'utf8');
    return this.encoded;
  }
}

/** A YAML document as its text in order: pieces of its own and shared pieces. */
export type YamlPieces = readonly (string | SharedText)[];

/** `toYaml(value)`, as pieces: joined they are the text; encoded (encodeYamlPieces) they are its bytes. */
export function toYamlPieces(value: unknown): YamlPieces {
  const writer = new YamlWriter();
  writer.node(value, -1, 'document');
  return writer.finish();
}

/** The text of `pieces`, concatenated without copying (V8 flattens it only if someone reads it). */
export function joinYamlPieces(pieces: YamlPieces): string {
  let text = '';
  for (const piece of pieces) text += typeof piece === 'string' ? piece : piece.text;
  return text;
}

/** The UTF-8 bytes of `pieces`, one array per piece; shared pieces give their bytes made once. */
export function encodeYamlPieces(pieces: YamlPieces): Uint8Array[] {
  return pieces.filter((piece) => piece !== '').map((piece) => (typeof piece === 'string' ? Buffer.from(piece, 'utf8') : piece.bytes));
}

/** Object members that are written: `undefined` ones are left out, as JSON does. */
function writtenKeys(value: Mapping): string[] {
  return sortKeys(Object.keys(value).filter((k) => value[k] !== undefined));
}

/**
 * `text` as one flat string rather than the tree of pieces `+=` builds: reused text is then copied in one
 * piece, instead of each CRD that holds it walking the same deep tree of small pieces when it is encoded.
 */
function flat(text: string): string {
  text.charCodeAt(0); // makes V8 flatten the string in place
  return text;
}

/** True for a sequence or mapping written as `[]` / `{}`. */
function isEmptyCollection(value: object): boolean {
  if (Array.isArray(value)) return value.length === 0;
  for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key) && (value as Mapping)[key] !== undefined) return false;
  return true;
}

const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/;

function isSimpleKey(key: string): boolean {
  return (key.length <= 42 || Buffer.byteLength(key, 'utf8') <= 128) && !LINE_BREAK.test(key);
}

const LOW_SURROGATE = /[\udc00-\udfff]/;

/** Code points in `text` (its column width for libyaml). */
function width(text: string): number {
  if (!LOW_SURROGATE.test(text)) return text.length;
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) n--;
  }
  return n;
}

/** Where a node starts: the whole document, after `key:`, or after `- `. */
type Context = 'document' | 'mappingValue' | 'sequenceItem';

/** The text a non-empty mapping or sequence was written as, and where the writer stood after it. */
interface WrittenNode {
  /** The text as first written: its own text and the shared text of frozen subtrees within. */
  pieces: (string | SharedText)[];
  /** Characters in `pieces`. */
  length: number;
  column: number;
  atLineStart: boolean;
  /** How often the text has been used. */
  uses: number;
  /** The text as one flat string, made on its second use when short. */
  text?: string;
  /** The text as one shared piece, made on its second use when long. */
  shared?: SharedText;
}

/** A frozen subtree's text this long or longer, used again, becomes a shared piece of its own. */
const SHARED_PIECE_MIN_LENGTH = 4096;

/**
 * The text of frozen (immutable) mappings and sequences, by context and indent. Generated CRDs share frozen
 * subtrees — every kind that embeds a PodTemplateSpec holds the same one — so each is serialised once. The
 * text depends only on the node, its context and its parent's indent: inside a document a non-empty
 * mapping or sequence starts on a new line (after `key:`) or just after its `-` (at indent + 1).
 */
const writtenFrozen = new WeakMap<object, Map<number, WrittenNode>>();

class YamlWriter {
  private out = '';
  /** The finished pieces before `out` (of the document, or of the frozen subtree being written). */
  private pieces: (string | SharedText)[] = [];
  private column = 0;
  /** True right after a line break written inside a literal block (the next line needs no extra break). */
  private atLineStart = true;

  finish(): YamlPieces {
    this.pieces.push(this.atLineStart && this.column === 0 ? this.out : `${this.out}\n`);
    return this.pieces;
  }

  /** Writes `value`; `parentIndent` is the indent of the owning key or dash (-1 at the top). */
  node(value: unknown, parentIndent: number, context: Context): void {
    if (context !== 'document' && value !== null && typeof value === 'object' && Object.isFrozen(value)) {
      return this.frozenNode(value, parentIndent, context);
    }
    this.freshNode(value, parentIndent, context);
  }

  /** A frozen mapping or sequence: its text from an earlier write at the same place, else written and kept. */
  private frozenNode(value: object, parentIndent: number, context: Context): void {
    const key = parentIndent * 2 + (context === 'sequenceItem' ? 1 : 0); // frozen nodes are never documents
    let byPlace = writtenFrozen.get(value);
    let written = byPlace?.get(key);
    if (!written) {
      // `[]`, `{}` follow the key on its line: their end column depends on where they start, so write them afresh.
      if (isEmptyCollection(value)) return this.freshNode(value, parentIndent, context);
      written = this.writtenApart(value, parentIndent, context);
      if (!byPlace) writtenFrozen.set(value, (byPlace = new Map()));
      byPlace.set(key, written);
    }
    written.uses++;
    if (written.uses === 1) {
      for (const piece of written.pieces) this.append(piece);
    } else if (written.length >= SHARED_PIECE_MIN_LENGTH) {
      // Long text used again is one shared piece: copied by reference, encoded once for every file holding it.
      written.shared ??= new SharedText(flat(joinYamlPieces(written.pieces)));
      this.append(written.shared);
    } else {
      // Short text used again is made one flat string, so each further copy is taken in one piece.
      written.text ??= flat(joinYamlPieces(written.pieces));
      this.out += written.text;
    }
    this.column = written.column;
    this.atLineStart = written.atLineStart;
  }

  /** Writes a frozen subtree into pieces of its own (the writer's position moves on as if written in place). */
  private writtenApart(value: object, parentIndent: number, context: Context): WrittenNode {
    const outerOut = this.out;
    const outerPieces = this.pieces;
    this.out = '';
    this.pieces = [];
    this.freshNode(value, parentIndent, context);
    this.pieces.push(this.out);
    const pieces = this.pieces;
    this.out = outerOut;
    this.pieces = outerPieces;
    let length = 0;
    for (const piece of pieces) length += typeof piece === 'string' ? piece.length : piece.text.length;
    return { pieces, length, column: this.column, atLineStart: this.atLineStart, uses: 0 };
  }

  private append(piece: string | SharedText): void {
    if (typeof piece === 'string') {
      this.out += piece;
    } else {
      this.pieces.push(this.out, piece);
      this.out = '';
    }
  }

  private freshNode(value: unknown, parentIndent: number, context: Context): void {
    if (Array.isArray(value)) {
      if (value.length > 0) return this.sequence(value, parentIndent, context);
      return this.ascii(context === 'document' ? '[]' : ' []');
    }
    if (value !== null && typeof value === 'object') {
      const keys = writtenKeys(value as Mapping);
      if (keys.length > 0) return this.mapping(value as Mapping, keys, parentIndent, context);
      return this.ascii(context === 'document' ? '{}' : ' {}');
    }
    if (context !== 'document') this.ascii(' ');
    this.scalar(value as Scalar, parentIndent < 0 ? INDENT : parentIndent + INDENT, false);
  }

  private mapping(value: Mapping, keys: string[], parentIndent: number, context: Context): void {
    const indent = context === 'document' ? 0 : parentIndent + INDENT;
    keys.forEach((key, i) => {
      if (context === 'sequenceItem' && i === 0) this.ascii(' ');
      else if (!(context === 'document' && i === 0)) this.newline(indent);
      if (isSimpleKey(key)) {
        this.scalar(key, indent + INDENT, true);
        this.ascii(':');
      } else {
        // libyaml writes keys over 128 bytes or with line breaks in the explicit `? key` / `: value` form.
        this.ascii('? ');
        this.scalar(key, indent + INDENT, false);
        this.newline(indent);
        this.ascii(':');
      }
      this.node(value[key], indent, 'mappingValue');
    });
  }

  private sequence(value: unknown[], parentIndent: number, context: Context): void {
    // A sequence that is a mapping value starts at the key's column (yaml.v2 does not indent it).
    const indent = context === 'document' ? 0 : context === 'mappingValue' ? parentIndent : parentIndent + INDENT;
    value.forEach((item, i) => {
      if (context === 'sequenceItem' && i === 0) this.ascii(' ');
      else if (!(context === 'document' && i === 0)) this.newline(indent);
      this.ascii('-');
      this.node(item === undefined ? null : item, indent, 'sequenceItem');
    });
  }

  private scalar(value: Scalar, indent: number, simpleKey: boolean): void {
    if (value === null) return this.ascii('null');
    if (typeof value === 'boolean') return this.ascii(String(value));
    if (typeof value === 'number') return this.ascii(formatNumber(value));
    if (typeof value !== 'string') throw new Error(`toYaml: cannot serialise a ${typeof value}`);
    switch (chooseScalarStyle(value, simpleKey)) {
      case 'plain':
        return this.folded(value, indent, !simpleKey, '');
      case 'single':
        return this.folded(value, indent, !simpleKey, "'");
      case 'double':
        return this.folded(value, indent, !simpleKey, '"');
      case 'literal':
        return this.literal(value, indent);
    }
  }

  /**
   * A plain or quoted scalar with libyaml's folding: a space reached past column 80 (not doubled,
   * and for quoted scalars not the first or last character) becomes a line break.
   */
  private folded(value: string, indent: number, allowBreaks: boolean, quote: '' | "'" | '"'): void {
    const escapes = quote === '"';
    const simple = !escapes && quote === '' ? true : !/['"\\]/.test(value) && (!escapes || !/[^\x20-\x7e]/.test(value));
    if (simple && (!allowBreaks || !value.includes(' ') || this.column + quote.length + value.length <= BEST_WIDTH + 1)) {
      this.text(quote + value + quote);
      return;
    }
    if (quote === '"') this.foldedDoubleQuoted(value, indent, allowBreaks);
    else this.foldedRuns(value, indent, allowBreaks, quote);
  }

  /**
   * `folded` for double-quoted scalars, a character at a time: characters yaml.v2 escapes are escaped, and a
   * space broken before another space is kept by ending the line with `\`.
   */
  private foldedDoubleQuoted(value: string, indent: number, allowBreaks: boolean): void {
    let out = '"';
    let column = this.column + 1;
    let spaces = false;
    const last = value.length - 1;
    for (let i = 0; i < value.length; i++) {
      const ch = value[i];
      const code = value.charCodeAt(i);
      if (code === 32) {
        if (allowBreaks && !spaces && column > BEST_WIDTH && i !== 0 && i !== last) {
          out += `\n${' '.repeat(indent)}`;
          column = indent;
          if (value.charCodeAt(i + 1) === 32) {
            out += '\\';
            column++;
          }
        } else {
          out += ' ';
          column++;
        }
        spaces = true;
        continue;
      }
      spaces = false;
      const full = code >= 0xd800 && code <= 0xdbff ? value.slice(i, i + 2) : ch;
      if (!isPrintable(full) || full === '\ufeff' || isBreak(full) || full === '"' || full === '\\') {
        const escaped = escapeForDoubleQuotes(full);
        out += escaped;
        column += escaped.length;
        i += full.length - 1;
        continue;
      }
      out += ch;
      if (!(code >= 0xdc00 && code <= 0xdfff)) column++;
    }
    out += '"';
    this.out += out;
    this.column = column + 1;
    this.atLineStart = false;
  }

  /**
   * `folded` for plain and single-quoted scalars, a run of non-space characters at a time (a break can only
   * replace a space): the text of libyaml's character-by-character rule (folding.test.ts keeps it as the oracle),
   * without a string append per character.
   */
  private foldedRuns(value: string, indent: number, allowBreaks: boolean, quote: '' | "'"): void {
    let out: string = quote;
    let column = this.column + quote.length;
    let spaces = false;
    const last = value.length - 1;
    let i = 0;
    while (i < value.length) {
      if (value.charCodeAt(i) === 32) {
        const mayBreak = allowBreaks && !spaces && column > BEST_WIDTH && (quote === '' || (i !== 0 && i !== last));
        if (mayBreak && value.charCodeAt(i + 1) !== 32) {
          out += `\n${' '.repeat(indent)}`;
          column = indent;
        } else {
          out += ' ';
          column++;
        }
        spaces = true;
        i++;
        continue;
      }
      let end = value.indexOf(' ', i);
      if (end < 0) end = value.length;
      let run = i === 0 && end === value.length ? value : value.slice(i, end);
      column += width(run);
      if (quote === "'" && run.includes("'")) {
        const doubled = run.replaceAll("'", "''");
        column += doubled.length - run.length;
        run = doubled;
      }
      out += run;
      spaces = false;
      i = end;
    }
    out += quote;
    this.out += out;
    this.column = column + quote.length;
    this.atLineStart = false;
  }

  private literal(value: string, indent: number): void {
    let header = '|';
    if (value[0] === ' ' || isBreak(value[0])) header += String(INDENT);
    const last = value.length - 1;
    if (!isBreak(value[last])) header += '-';
    else if (last === 0 || isBreak(value[last - 1])) header += '+';
    this.ascii(header);
    const pad = ' '.repeat(indent);
    if (!/[\u0085\u2028\u2029]/.test(value)) {
      // Only \n breaks lines here (a literal block never holds \r): indent every non-empty line.
      const lines = value.split('\n');
      this.out += `\n${lines.map((line) => (line === '' ? '' : pad + line)).join('\n')}`;
      const lastLine = lines[lines.length - 1];
      this.column = lastLine === '' ? 0 : indent + width(lastLine);
      this.atLineStart = lastLine === '';
      return;
    }
    let out = '\n';
    let lineStart = true;
    let column = 0;
    for (const ch of Array.from(value)) {
      if (isBreak(ch)) {
        out += '\n';
        lineStart = true;
        column = 0;
      } else {
        if (lineStart) {
          out += pad;
          column = indent;
        }
        lineStart = false;
        out += ch;
        column++;
      }
    }
    this.out += out;
    this.column = column;
    this.atLineStart = lineStart;
  }

  /** Starts a new line at `indent` (no extra break right after a literal block's own line break). */
  private newline(indent: number): void {
    if (!(this.atLineStart && this.column === 0)) this.out += '\n';
    this.out += ' '.repeat(indent);
    this.column = indent;
    this.atLineStart = false;
  }

  /** Writes structural text known to be ASCII. */
  private ascii(text: string): void {
    this.out += text;
    this.column += text.length;
    this.atLineStart = false;
  }

  private text(text: string): void {
    this.out += text;
    this.column += width(text);
    this.atLineStart = false;
  }
}

const NAMED_ESCAPES: Record<string, string> = {
  '\0': '\\0',
  '\x07': '\\a',
  '\b': '\\b',
  '\t': '\\t',
  '\n': '\\n',
  '\v': '\\v',
  '\f': '\\f',
  '\r': '\\r',
  '\x1b': '\\e',
  '"': '\\"',
  '\\': '\\\\',
  '\u0085': '\\N',
  '\u00a0': '\\_',
  '\u2028': '\\L',
  '\u2029': '\\P',
};

function escapeForDoubleQuotes(ch: string): string {
  const named = NAMED_ESCAPES[ch];
  if (named) return named;
  const code = ch.codePointAt(0)!;
  const hex = code.toString(16).toUpperCase();
  if (code <= 0xff) return `\\x${hex.padStart(2, '0')}`;
  if (code <= 0xffff) return `\\u${hex.padStart(4, '0')}`;
  return `\\U${hex.padStart(8, '0')}`;
}
