/**
 * The marker-argument grammar (controller-gen §2.4–§2.5): turns the text after a marker's name into
 * typed values by the catalogue's declared argument types — Go-style quoted, raw and bare strings,
 * ints, floats, bools, `{a,b}` and legacy `a;b` lists, `{k: v}` maps and type-guessed `any` values —
 * and reports controller-gen's messages (`expected integer, got "x"`) — only the first problem of a marker
 * (what follows from it would only repeat it), with the argument it is in and its column, not the parser's
 * `(at <input>:1:5)`.
 */
import { ArgumentScanner, goQuote, unquoteGoString } from './argument-scanner.js';
import type { ArgumentType, MarkerDefinition } from './catalogue.js';
import type { MarkerValue } from './types.js';

/** The parsed arguments of one marker, or the error that stopped parsing (at most one). */
export interface ParsedArguments {
  args: Record<string, MarkerValue>;
  errors: string[];
  /** 1-based column of the error in the argument text, when it has one. */
  errorColumn?: number;
}

/** A value type as the parser sees it (declared, or guessed for `any`). */
type ValueType =
  | { kind: 'string' | 'int' | 'number' | 'bool' | 'any' | 'json' | 'raw' }
  | { kind: 'slice'; item: ValueType }
  | { kind: 'map' };

function valueTypeOf(type: ArgumentType): ValueType {
  if (type.startsWith('[]')) return { kind: 'slice', item: valueTypeOf(type.slice(2) as ArgumentType) };
  return { kind: type as 'string' };
}

/**
 * Parses `argumentText` (what follows the first `=`, or for a named-argument marker found through its
 * prefix, `<lastNameSegment>=<rest>`) against `definition`.
 */
export function parseMarkerArguments(definition: MarkerDefinition, argumentText: string): ParsedArguments {
  const first = parseWith(definition, argumentText, true);
  if (first.errors.some((e) => e.includes('literal not terminated'))) {
    // A lone backquote may be a literal character (e.g. in a regex), not a raw-string delimiter.
    return parseWith(definition, argumentText, false);
  }
  return first;
}

function parseWith(definition: MarkerDefinition, text: string, rawStrings: boolean): ParsedArguments {
  const scanner = new ArgumentScanner(text, rawStrings);
  const args: Record<string, MarkerValue> = {};
  const seen = new Set<string>();
  if (definition.shape === 'value' && scanner.peek() !== '') {
    const value = parseValue(scanner, valueTypeOf(definition.args[0].type), false);
    if (value !== undefined) args[''] = value;
    seen.add('');
  } else if (definition.shape === 'args' && scanner.peek() !== '') {
    parseNamedArguments(scanner, definition, args, seen);
  }
  // After a first error the rest would only echo it ("extra arguments", "missing argument" of the same text).
  if (scanner.errors.length === 0) {
    const trailing = scanner.scan();
    if (trailing.kind !== 'eof') scanner.error(`extra arguments provided: ${goQuote(text.slice(trailing.start))}`);
  }
  if (scanner.errors.length === 0) {
    const missing = definition.args.find((arg) => !arg.optional && !seen.has(arg.name));
    // At the marker itself: the argument is nowhere in the text.
    if (missing) scanner.errors.push({ message: `missing argument ${goQuote(missing.name)}` });
  }
  if (definition.shape === 'flag' && text === '') args[''] = true;
  // An optional single string value written bare (`+groupName`) means the empty string.
  if (definition.shape === 'value' && !seen.has('') && definition.args[0].type === 'string') args[''] = '';
  const first = scanner.errors[0];
  if (first === undefined) return { args, errors: [] };
  return { args, errors: [first.message], ...(first.column === undefined ? {} : { errorColumn: first.column }) };
}

function parseNamedArguments(scanner: ArgumentScanner, definition: MarkerDefinition, args: Record<string, MarkerValue>, seen: Set<string>): void {
  for (;;) {
    if (!expect(scanner, 'ident', 'argument name')) return;
    const nameToken = scanner.token;
    const name = nameToken.text;
    if (!expect(scanner, '=', 'equals')) return;
    const arg = definition.args.find((a) => a.name === name);
    if (!arg) {
      // At the name, not at the "=" after it.
      scanner.errors.push({ message: `unknown argument ${goQuote(name)}`, column: nameToken.start + 1 });
      return;
    }
    seen.add(name);
    const value = parseValue(scanner, valueTypeOf(arg.type), false);
    if (scanner.errors.length > 0) {
      // Say which argument the bad value belongs to.
      scanner.errors[0] = { ...scanner.errors[0]!, message: `argument ${goQuote(name)}: ${scanner.errors[0]!.message}` };
      return;
    }
    if (value !== undefined) args[name] = value;
    if (scanner.peek() === '') return;
    if (!expect(scanner, ',', 'comma')) return;
  }
}

/** Scans one token and checks it; `expected` is a token kind or a single character. */
function expect(scanner: ArgumentScanner, expected: string, description: string): boolean {
  const token = scanner.scan();
  const ok = expected.length === 1 ? token.kind === 'char' && token.text === expected : token.kind === expected;
  if (!ok) scanner.error(`expected ${description}, got ${token.kind === 'eof' ? 'the end of the marker' : goQuote(token.text)}`);
  return ok;
}

function parseValue(scanner: ArgumentScanner, type: ValueType, inSlice: boolean): MarkerValue | undefined {
  switch (type.kind) {
    case 'raw':
    case 'json': {
      const rest = scanner.text.slice(scanner.position);
      while (scanner.scan().kind !== 'eof');
      return type.kind === 'raw' ? rest : parseJsonValue(scanner, rest);
    }
    case 'int':
      return parseInteger(scanner);
    case 'number':
      return parseNumber(scanner);
    case 'bool':
      return parseBool(scanner);
    case 'string':
      return parseString(scanner, false);
    case 'slice':
      return parseSlice(scanner, type.item);
    case 'map':
      return parseMap(scanner);
    case 'any':
      return parseValue(scanner, guessType(scanner, !inSlice), false);
  }
}

function parseInteger(scanner: ArgumentScanner): number | undefined {
  const negative = scanner.peek() === '-';
  if (negative) scanner.scan();
  if (!expect(scanner, 'int', 'integer')) return undefined;
  const text = scanner.token.text;
  if (!/^[0-9]+$/.test(text)) {
    scanner.error(`unable to parse integer: strconv.Atoi: parsing ${goQuote((negative ? '-' : '') + text)}: invalid syntax`);
    return undefined;
  }
  return (negative ? -1 : 1) * Number(text);
}

function parseNumber(scanner: ArgumentScanner): number | undefined {
  const negative = scanner.peek() === '-';
  if (negative) scanner.scan();
  const token = scanner.scan();
  if (token.kind !== 'int' && token.kind !== 'float') {
    scanner.error(`expected integer or float, got ${goQuote(token.text)}`);
    return undefined;
  }
  const value = Number(token.text.replace(/_/g, ''));
  if (Number.isNaN(value)) {
    scanner.error(`unable to parse number: strconv.ParseFloat: parsing ${goQuote(token.text)}: invalid syntax`);
    return undefined;
  }
  return negative ? -value : value;
}

function parseBool(scanner: ArgumentScanner): boolean | undefined {
  if (!expect(scanner, 'ident', 'true or false')) return undefined;
  const text = scanner.token.text;
  if (text === 'true' || text === 'false') return text === 'true';
  scanner.error(`expected true or false, got ${goQuote(text)}`);
  return undefined;
}

/** A quoted or raw string, or a bare run of tokens up to `,` `;` `}` (and `:` for map keys). */
function parseString(scanner: ArgumentScanner, inMap: boolean): string | undefined {
  const previous = scanner.scanNumbers;
  scanner.scanNumbers = false;
  try {
    const first = scanner.scan();
    if (first.kind === 'string' || first.kind === 'rawString') {
      const value = unquoteGoString(first.text);
      if (value === undefined) scanner.error('unable to parse string: invalid syntax');
      return value;
    }
    const isDelimiter = (c: string) => c === ',' || c === ';' || c === '}' || c === '' || (inMap && c === ':');
    let end = first.end;
    while (!isDelimiter(scanner.peekNoSpace())) end = scanner.scan().end;
    return scanner.text.slice(first.start, end);
  } finally {
    scanner.scanNumbers = previous;
  }
}

function parseSlice(scanner: ArgumentScanner, item: ValueType): MarkerValue[] | undefined {
  const result: MarkerValue[] = [];
  if (scanner.peekNoSpace() === '{') {
    scanner.scan();
    for (let hint = scanner.peekNoSpace(); hint !== '}' && hint !== ''; hint = scanner.peekNoSpace()) {
      const value = parseValue(scanner, item, true);
      if (scanner.errors.length > 0) return undefined;
      if (value !== undefined) result.push(value);
      if (scanner.peekNoSpace() === '}') break;
      if (!expect(scanner, ',', 'comma')) return undefined;
    }
    if (!expect(scanner, '}', 'close curly brace')) return undefined;
    return result;
  }
  for (let hint = scanner.peekNoSpace(); hint !== ',' && hint !== '}' && hint !== ''; hint = scanner.peekNoSpace()) {
    const value = parseValue(scanner, item, true);
    if (scanner.errors.length > 0) return undefined;
    if (value !== undefined) result.push(value);
    const next = scanner.peekNoSpace();
    if (next === ',' || next === '}' || next === '') break;
    const separator = scanner.scan();
    if (separator.text !== ';') {
      scanner.error(`expected comma, got ${goQuote(separator.text)}`);
      return undefined;
    }
  }
  return result;
}

function parseMap(scanner: ArgumentScanner): Record<string, MarkerValue> | undefined {
  const result: Record<string, MarkerValue> = {};
  if (!expect(scanner, '{', 'open curly brace')) return undefined;
  for (let hint = scanner.peekNoSpace(); hint !== '}' && hint !== ''; hint = scanner.peekNoSpace()) {
    const key = parseString(scanner, true);
    if (key === undefined || !expect(scanner, ':', 'colon')) return undefined;
    const value = parseValue(scanner, { kind: 'any' }, false);
    if (scanner.errors.length > 0) return undefined;
    if (value !== undefined) result[key] = value;
    if (scanner.peekNoSpace() === '}') break;
    if (!expect(scanner, ',', 'comma')) return undefined;
  }
  if (!expect(scanner, '}', 'close curly brace')) return undefined;
  return result;
}

/**
 * Guesses the type of an `any` value from its text without consuming it: quoted → string, `{k: …}` or
 * `{}` → map, `{…}` → list typed by its first item, true/false → bool, a whole number token → int or
 * float, anything else → bare string; at top level a following `;` makes a legacy list.
 */
function guessType(scanner: ArgumentScanner, allowSlice: boolean): ValueType {
  if (allowSlice) {
    const item = guessType(scanner, false);
    const ahead = new ArgumentScanner(scanner.text, true, scanner.position);
    let token = ahead.scan();
    while (token.kind !== 'eof' && !(token.kind === 'char' && (token.text === ',' || token.text === ';'))) token = ahead.scan();
    return token.text === ';' ? { kind: 'slice', item } : item;
  }
  const ahead = new ArgumentScanner(scanner.text, true, scanner.position);
  const hint = ahead.peekNoSpace();
  if (hint === '"' || hint === "'" || hint === '`') return { kind: 'string' };
  if (hint === '{') {
    ahead.scan();
    const inner = ahead.peekNoSpace();
    const first = guessType(ahead, false);
    if (first.kind === 'string') {
      parseString(ahead, true);
      const next = ahead.scan();
      if ((next.kind === 'char' && next.text === ':') || inner === '}') return { kind: 'map' };
    }
    return { kind: 'slice', item: first };
  }
  if (hint === 't' || hint === 'f') {
    const word = ahead.scan();
    if (word.kind === 'ident' && (word.text === 'true' || word.text === 'false')) return { kind: 'bool' };
    return { kind: 'string' };
  }
  let token = ahead.scan();
  if (token.kind === 'char' && token.text === '-') token = ahead.scan();
  if (ahead.errors.length === 0 && (token.kind === 'int' || token.kind === 'float')) {
    const follow = ahead.peekNoSpace();
    if (follow === ',' || follow === ';' || follow === '' || follow === '}') return { kind: token.kind === 'int' ? 'int' : 'number' };
  }
  return { kind: 'string' };
}

/** `+default=<JSON>`: the text must be JSON; `ref(...)` values mean "no default" (undefined). */
function parseJsonValue(scanner: ArgumentScanner, text: string): MarkerValue | undefined {
  if (text.trimStart().startsWith('ref(')) return undefined;
  try {
    return JSON.parse(text) as MarkerValue;
  } catch (err) {
    scanner.errors.push({ message: `invalid JSON value ${goQuote(text)}: ${(err as Error).message}`, column: 1 });
    return undefined;
  }
}
