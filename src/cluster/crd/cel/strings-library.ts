/** The cel-go strings extension (version 2, as 1.32 enables it for CRD rules) on top of what cel-js ships. */
import type { Environment } from '@marcbachmann/cel-js';

class StringsNamespace {}

/** Registers charAt, replace, format and strings.quote (indexOf, lastIndexOf, lowerAscii, upperAscii, split, substring, trim and join are built into cel-js). */
export function registerStringsLibrary(env: Environment): void {
  env
    .registerType('StringsNamespace', StringsNamespace)
    .registerConstant('strings', 'StringsNamespace', new StringsNamespace())
    .registerFunction('string.charAt(int): string', (s: string, i: bigint) => {
      const chars = [...s];
      if (i < 0n || i > BigInt(chars.length)) throw new Error(`index out of range: ${i}`);
      return chars[Number(i)] ?? '';
    })
    .registerFunction('string.replace(string, string): string', (s: string, from: string, to: string) => replace(s, from, to, -1n))
    .registerFunction('string.replace(string, string, int): string', (s: string, from: string, to: string, n: bigint) => replace(s, from, to, n))
    .registerFunction('StringsNamespace.quote(string): string', (_ns: unknown, s: string) => quote(s))
    .registerFunction('string.format(list<dyn>): string', (s: string, args: unknown[]) => format(s, args));
}

function replace(s: string, from: string, to: string, limit: bigint): string {
  if (limit === 0n) return s;
  if (limit < 0n) return s.split(from).join(to);
  let out = '';
  let rest = s;
  for (let n = 0n; n < limit; n++) {
    const at = rest.indexOf(from);
    if (at < 0) break;
    out += rest.slice(0, at) + to;
    rest = rest.slice(at + from.length);
    if (from === '') {
      out += rest.slice(0, 1);
      rest = rest.slice(1);
    }
  }
  return out + rest;
}

/** Go strconv.Quote-like quoting, as strings.quote does. */
function quote(s: string): string {
  const escapes: Record<string, string> = { '\x07': '\\a', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\v': '\\v', '\\': '\\\\', '"': '\\"' };
  return `"${[...s].map((c) => escapes[c] ?? c).join('')}"`;
}

function formatValue(verb: string, v: unknown, precision: number | undefined): string {
  switch (verb) {
    case 's':
      return stringOf(v);
    case 'd':
      if (typeof v !== 'bigint') throw new Error(`error during formatting: decimal clause can only be used on integers, was given ${typeName(v)}`);
      return v.toString();
    case 'f':
    case 'e':
      if (typeof v !== 'number' && typeof v !== 'bigint') throw new Error(`error during formatting: fixed-point clause can only be used on doubles, was given ${typeName(v)}`);
      return verb === 'f' ? Number(v).toFixed(precision ?? 6) : Number(v).toExponential(precision ?? 6).replace(/e([+-])(\d)$/, 'e$10$2');
    case 'x':
    case 'X': {
      let out: string;
      if (typeof v === 'bigint') out = v.toString(16);
      else if (typeof v === 'string') out = Buffer.from(v, 'utf8').toString('hex');
      else if (v instanceof Uint8Array) out = Buffer.from(v).toString('hex');
      else throw new Error(`error during formatting: only integers, byte buffers, and strings can be formatted as hex, was given ${typeName(v)}`);
      return verb === 'X' ? out.toUpperCase() : out;
    }
    case 'o':
      if (typeof v !== 'bigint') throw new Error(`error during formatting: octal clause can only be used on integers, was given ${typeName(v)}`);
      return v.toString(8);
    case 'b':
      if (typeof v === 'bigint') return v.toString(2);
      if (typeof v === 'boolean') return v ? '1' : '0';
      throw new Error(`error during formatting: only integers and bools can be formatted as binary, was given ${typeName(v)}`);
    default:
      throw new Error(`could not parse formatting clause: unrecognized formatting clause "${verb}"`);
  }
}

function format(template: string, args: unknown[]): string {
  let out = '';
  let argIndex = 0;
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c !== '%') {
      out += c;
      continue;
    }
    if (template[i + 1] === '%') {
      out += '%';
      i++;
      continue;
    }
    const m = /^(?:\.(\d+))?([a-zA-Z])/.exec(template.slice(i + 1));
    if (!m) throw new Error('could not parse formatting clause: unexpected end of string');
    if (argIndex >= args.length) throw new Error(`index ${argIndex} out of range`);
    out += formatValue(m[2] as string, args[argIndex++], m[1] === undefined ? undefined : Number(m[1]));
    i += m[0].length;
  }
  return out;
}

function typeName(v: unknown): string {
  if (typeof v === 'bigint') return 'int';
  if (typeof v === 'number') return 'double';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (Array.isArray(v)) return 'list';
  if (v === null) return 'null_type';
  return 'map';
}

function stringOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isInteger(v) ? `${v}` : String(v);
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(stringOf).join(', ')}]`;
  if (v instanceof Date) return v.toISOString().replace('.000Z', 'Z');
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${stringOf(k)}: ${stringOf(x)}`).join(', ')}}`;
  if (typeof v === 'object' && typeof (v as { toString?: unknown }).toString === 'function' && (v as object).toString !== Object.prototype.toString) return String(v);
  if (typeof v === 'object') return `{${Object.entries(v as object).map(([k, x]) => `${k}: ${stringOf(x)}`).join(', ')}}`;
  return String(v);
}
