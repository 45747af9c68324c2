/**
 * `toYaml`: writes a JSON-like value exactly as controller-gen's gopkg.in/yaml.v2 `Marshal` does
 * (controller-gen spec §12): block style, 2-space indent, sequences in mappings not indented, keys in
 * yaml.v2's natural order, its quoting and literal-block rules, and its line folding (a space is
 * turned into a line break once the line is already past column 80). No `---`: callers join documents
 * with `---\n`.
 */
import { compareKeys } from './key-order.js';
import { chooseScalarStyle, formatNumber, isBreak, isPrintable } from './scalar-style.js';

/** Where libyaml breaks long scalars (its best_width). */
const BEST_WIDTH = 80;
const INDENT = 2;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Serialises `value` (plain objects, arrays, strings, numbers, booleans, null) to YAML text ending in `\n`. */
export function toYaml(value: unknown): string {
  const writer = new YamlWriter();
  writer.node(normalise(value), -1, 'document');
  return writer.finish();
}

/** Drops `undefined` members and checks that the value is JSON-like. */
function normalise(value: unknown): Json {
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : normalise(v)));
  if (typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) if (v !== undefined) out[k] = normalise(v);
    return out;
  }
  throw new Error(`toYaml: cannot serialise a ${typeof value}`);
}

function isCollection(value: Json): value is Json[] | { [key: string]: Json } {
  return value !== null && typeof value === 'object';
}

function isEmptyCollection(value: Json): boolean {
  return Array.isArray(value) ? value.length === 0 : isCollection(value) && Object.keys(value).length === 0;
}

function isSimpleKey(key: string): boolean {
  return Buffer.byteLength(key, 'utf8') <= 128 && !Array.from(key).some(isBreak);
}

/** Where a node starts: the whole document, after `key:`, or after `- `. */
type Context = 'document' | 'mappingValue' | 'sequenceItem';

class YamlWriter {
  private out = '';
  private column = 0;
  /** True right after a line break written inside a literal block (the next line needs no extra break). */
  private atLineStart = true;

  finish(): string {
    return this.atLineStart && this.column === 0 ? this.out : `${this.out}\n`;
  }

  /** Writes `value`; `parentIndent` is the indent of the owning key or dash (-1 at the top). */
  node(value: Json, parentIndent: number, context: Context): void {
    if (isCollection(value) && !isEmptyCollection(value)) {
      if (Array.isArray(value)) this.sequence(value, parentIndent, context);
      else this.mapping(value, parentIndent, context);
      return;
    }
    if (context !== 'document') this.write(' ');
    if (isCollection(value)) this.write(Array.isArray(value) ? '[]' : '{}');
    else this.scalar(value, parentIndent < 0 ? INDENT : parentIndent + INDENT, false);
  }

  private mapping(value: { [key: string]: Json }, parentIndent: number, context: Context): void {
    const indent = context === 'document' ? 0 : parentIndent + INDENT;
    const keys = Object.keys(value).sort(compareKeys);
    keys.forEach((key, i) => {
      if (context === 'sequenceItem' && i === 0) this.write(' ');
      else if (!(context === 'document' && i === 0)) this.newline(indent);
      if (isSimpleKey(key)) {
        this.scalar(key, indent + INDENT, true);
        this.write(':');
      } else {
        // libyaml writes keys over 128 bytes or with line breaks in the explicit `? key` / `: value` form.
        this.write('? ');
        this.scalar(key, indent + INDENT, false);
        this.newline(indent);
        this.write(':');
      }
      this.node(value[key], indent, 'mappingValue');
    });
  }

  private sequence(value: Json[], parentIndent: number, context: Context): void {
    // A sequence that is a mapping value starts at the key's column (yaml.v2 does not indent it).
    const indent = context === 'document' ? 0 : context === 'mappingValue' ? parentIndent : parentIndent + INDENT;
    value.forEach((item, i) => {
      if (context === 'sequenceItem' && i === 0) this.write(' ');
      else if (!(context === 'document' && i === 0)) this.newline(indent);
      this.write('-');
      this.node(item, indent, 'sequenceItem');
    });
  }

  private scalar(value: null | boolean | number | string, indent: number, simpleKey: boolean): void {
    if (value === null) return this.write('null');
    if (typeof value === 'boolean') return this.write(String(value));
    if (typeof value === 'number') return this.write(formatNumber(value));
    switch (chooseScalarStyle(value, simpleKey)) {
      case 'plain':
        return this.plain(value, indent, !simpleKey);
      case 'single':
        return this.singleQuoted(value, indent, !simpleKey);
      case 'double':
        return this.doubleQuoted(value, indent, !simpleKey);
      case 'literal':
        return this.literal(value, indent);
    }
  }

  private plain(value: string, indent: number, allowBreaks: boolean): void {
    const chars = Array.from(value);
    let spaces = false;
    chars.forEach((ch, i) => {
      if (ch === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && chars[i + 1] !== ' ') this.newline(indent);
        else this.write(ch);
        spaces = true;
      } else {
        this.write(ch);
        spaces = false;
      }
    });
  }

  private singleQuoted(value: string, indent: number, allowBreaks: boolean): void {
    const chars = Array.from(value);
    let spaces = false;
    this.write("'");
    chars.forEach((ch, i) => {
      if (ch === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i !== 0 && i !== chars.length - 1 && chars[i + 1] !== ' ') this.newline(indent);
        else this.write(ch);
        spaces = true;
      } else {
        this.write(ch === "'" ? "''" : ch);
        spaces = false;
      }
    });
    this.write("'");
  }

  private doubleQuoted(value: string, indent: number, allowBreaks: boolean): void {
    const chars = Array.from(value);
    let spaces = false;
    this.write('"');
    chars.forEach((ch, i) => {
      if (!isPrintable(ch) || ch === '\ufeff' || isBreak(ch) || ch === '"' || ch === '\\') {
        this.write(escapeForDoubleQuotes(ch));
        spaces = false;
      } else if (ch === ' ') {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i !== 0 && i !== chars.length - 1) {
          this.newline(indent);
          if (chars[i + 1] === ' ') this.write('\\');
        } else this.write(ch);
        spaces = true;
      } else {
        this.write(ch);
        spaces = false;
      }
    });
    this.write('"');
  }

  private literal(value: string, indent: number): void {
    const chars = Array.from(value);
    let header = '|';
    if (chars[0] === ' ' || isBreak(chars[0])) header += String(INDENT);
    const last = chars.length - 1;
    if (!isBreak(chars[last])) header += '-';
    else if (last === 0 || isBreak(chars[last - 1])) header += '+';
    this.write(header);
    let breaks = true;
    this.out += '\n';
    this.column = 0;
    this.atLineStart = true;
    for (const ch of chars) {
      if (isBreak(ch)) {
        this.out += '\n';
        this.column = 0;
        this.atLineStart = true;
        breaks = true;
      } else {
        if (breaks) this.pad(indent);
        breaks = false;
        this.write(ch);
      }
    }
  }

  /** Starts a new line at `indent` (no extra break right after a literal block's own line break). */
  private newline(indent: number): void {
    if (!(this.atLineStart && this.column === 0)) {
      this.out += '\n';
      this.column = 0;
    }
    this.pad(indent);
  }

  private pad(indent: number): void {
    this.out += ' '.repeat(indent);
    this.column = indent;
    this.atLineStart = false;
  }

  private write(text: string): void {
    this.out += text;
    this.column += Array.from(text).length;
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
