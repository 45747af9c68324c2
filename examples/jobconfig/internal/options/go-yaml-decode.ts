/**
 * go-yaml v2's decoding of a parsed document into an interface{} (decode.go and resolve.go: plain scalars
 * resolved to bool, int, float64 or null by YAML 1.1's rules as go-yaml reads them, explicit tags checked,
 * `<<` merge keys, aliases), then sigs.k8s.io/yaml v1.3.0's conversion of that value to JSON (map keys to
 * strings, json.Marshal). The result is the JSON text Furiko's optionValues decode from, or Go's error:
 * `yaml: cannot decode !!str \`abc\` as a !!int`, `yaml: invalid map key: []interface {}{"a"}`,
 * `json: unsupported value: +Inf`. No npm YAML library decodes as go-yaml does (types, merge order, errors).
 */
import { field } from 'kubeforge/runtime';
import { parseGoYaml, type GoYamlNode } from './go-yaml-errors.js';
import { GoYamlError } from './go-yaml-scanner.js';

/** A value as go-yaml v2 decodes it into an interface{}: Go's dynamic types kept apart. */
export type GoValue = null | string | boolean | GoInt | GoFloat | GoValue[] | GoMap;

/** Go's int (fits int64) or uint64 (beyond). */
export class GoInt {
  constructor(
    readonly value: bigint,
    readonly unsigned = false,
  ) {}
}

/** Go's float64. */
export class GoFloat {
  constructor(readonly value: number) {}
}

/** A map[interface {}]interface {}: entries by Go key equality (type and value), in insertion order. */
export class GoMap {
  readonly entries = new Map<string, [GoValue, GoValue]>();

  set(key: GoValue, value: GoValue): void {
    this.entries.set(goKeyIdentity(key), [key, value]);
  }
}

function goKeyIdentity(key: GoValue): string {
  if (key === null) return 'nil';
  if (typeof key === 'string') return `s:${key}`;
  if (typeof key === 'boolean') return `b:${key}`;
  if (key instanceof GoInt) return `${key.unsigned ? 'u' : 'i'}:${key.value}`;
  if (key instanceof GoFloat) return Number.isNaN(key.value) ? `nan:${Math.random()}` : `f:${key.value}`;
  return `?:${Math.random()}`;
}

const LONG_TAG_PREFIX = 'tag:yaml.org,2002:';
const STR_TAG = `${LONG_TAG_PREFIX}str`;
const BOOL_TAG = `${LONG_TAG_PREFIX}bool`;
const NULL_TAG = `${LONG_TAG_PREFIX}null`;
const INT_TAG = `${LONG_TAG_PREFIX}int`;
const FLOAT_TAG = `${LONG_TAG_PREFIX}float`;
const TIMESTAMP_TAG = `${LONG_TAG_PREFIX}timestamp`;
const BINARY_TAG = `${LONG_TAG_PREFIX}binary`;
const MERGE_TAG = `${LONG_TAG_PREFIX}merge`;

const shortTag = (tag: string) => (tag.startsWith(LONG_TAG_PREFIX) ? `!!${tag.slice(LONG_TAG_PREFIX.length)}` : tag);

const fail = (problem: string): never => {
  throw new GoYamlError('decoder', problem);
};

/** resolve.go's table of words: booleans, nulls, the special floats and the merge key. */
const RESOLVE_MAP = new Map<string, [string, GoValue]>();
for (const [value, tag, words] of [
  [true, BOOL_TAG, ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']],
  [false, BOOL_TAG, ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']],
  [null, NULL_TAG, ['', '~', 'null', 'Null', 'NULL']],
  [new GoFloat(NaN), FLOAT_TAG, ['.nan', '.NaN', '.NAN']],
  [new GoFloat(Infinity), FLOAT_TAG, ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']],
  [new GoFloat(-Infinity), FLOAT_TAG, ['-.inf', '-.Inf', '-.INF']],
  ['<<', MERGE_TAG, ['<<']],
] as [GoValue, string, string[]][]) {
  for (const word of words) RESOLVE_MAP.set(word, [tag, value]);
}

/** resolve.go's hint by first character: M(ap lookup), D(igit), S(ign), `.`; others are strings. */
function resolveHint(text: string): string | undefined {
  if (text === '') return 'M';
  const c = text[0];
  if (c === '+' || c === '-') return 'S';
  if (c >= '0' && c <= '9') return 'D';
  if ('yYnNtTfFoO~'.includes(c)) return 'M';
  if (c === '.') return '.';
  return undefined;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** strconv.ParseUint(s, base, 64) digits (base 0: `0x`, `0o`, `0b` or a leading 0 choose it). */
function parseUnsigned(text: string, base: number): bigint | undefined {
  let digits = text;
  let radix = base;
  if (base === 0) {
    radix = 10;
    if (digits[0] === '0') {
      const prefix = digits.length >= 3 ? digits[1].toLowerCase() : '';
      if (prefix === 'b' || prefix === 'o' || prefix === 'x') {
        radix = prefix === 'b' ? 2 : prefix === 'o' ? 8 : 16;
        digits = digits.slice(2);
      } else {
        radix = 8;
        digits = digits.slice(1);
        if (digits === '') return 0n;
      }
    }
  }
  if (digits === '') return undefined;
  let value = 0n;
  for (const c of digits.toLowerCase()) {
    const digit = parseInt(c, 36);
    if (Number.isNaN(digit) || digit >= radix) return undefined;
    value = value * BigInt(radix) + BigInt(digit);
    if (value > UINT64_MAX) return undefined;
  }
  return value;
}

/** strconv.ParseInt(s, base, 64). */
function parseInt64(text: string, base: number): bigint | undefined {
  const negative = text.startsWith('-');
  const unsigned = parseUnsigned(text.replace(/^[-+]/, ''), base);
  if (unsigned === undefined || text === '' || /^[-+]$/.test(text)) return undefined;
  const value = negative ? -unsigned : unsigned;
  return value < INT64_MIN || value > INT64_MAX ? undefined : value;
}

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

/** go-yaml's timestamp formats (time.Parse of 2006-1-2[Tt ]15:4:5.999999999[Z07:00] or 2006-1-2). */
function isTimestamp(text: string): boolean {
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:([Tt ])(\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?(Z|[-+]\d{2}:\d{2})?)?$/.exec(text);
  if (!match) return false;
  const [, year, month, day, separator, hour, minute, second, , zone] = match;
  if (Number(month) < 1 || Number(month) > 12 || Number(day) < 1) return false;
  if (Number(day) > new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate()) return false;
  if (separator === undefined) return true;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return false;
  return separator === ' ' ? zone === undefined : zone !== undefined;
}

/** resolve.go's resolve(tag, in): the tag and value of a scalar, failing when an explicit tag does not fit. */
function resolve(tag: string, text: string): [string, GoValue] {
  if (!['', STR_TAG, BOOL_TAG, NULL_TAG, INT_TAG, FLOAT_TAG, TIMESTAMP_TAG].includes(tag)) return [tag, text];
  const [rtag, value] = resolvePlain(tag, text);
  if (tag === '' || tag === rtag || tag === STR_TAG || tag === BINARY_TAG) return [rtag, value];
  if (tag === FLOAT_TAG && rtag === INT_TAG && value instanceof GoInt) return [FLOAT_TAG, new GoFloat(Number(value.value))];
  return fail(`cannot decode ${shortTag(rtag)} \`${text}\` as a ${shortTag(tag)}`);
}

function resolvePlain(tag: string, text: string): [string, GoValue] {
  const hint = resolveHint(text);
  if (hint === undefined || tag === STR_TAG || tag === BINARY_TAG) return [STR_TAG, text];
  const word = RESOLVE_MAP.get(text);
  if (word) return word;
  if (hint === '.') {
    const float = goParseFloat(text);
    if (float !== undefined) return [FLOAT_TAG, new GoFloat(float)];
  }
  if (hint === 'D' || hint === 'S') {
    if ((tag === '' || tag === TIMESTAMP_TAG) && isTimestamp(text)) return [TIMESTAMP_TAG, text];
    const plain = text.replace(/_/g, '');
    const int = parseInt64(plain, 0);
    if (int !== undefined) return [INT_TAG, new GoInt(int)];
    const uint = /^[-+]/.test(plain) ? undefined : parseUnsigned(plain, 0);
    if (uint !== undefined) return [INT_TAG, new GoInt(uint, true)];
    if (YAML_STYLE_FLOAT.test(plain)) {
      const float = goParseFloat(plain);
      if (float !== undefined) return [FLOAT_TAG, new GoFloat(float)];
    }
    if (plain.startsWith('0b') || plain.startsWith('-0b')) {
      const binary = plain.startsWith('-') ? `-${plain.slice(3)}` : plain.slice(2);
      const value = parseInt64(binary, 2);
      if (value !== undefined) return [INT_TAG, new GoInt(value)];
      const unsigned = binary.startsWith('-') ? undefined : parseUnsigned(binary, 2);
      if (unsigned !== undefined) return [INT_TAG, new GoInt(unsigned, true)];
    }
  }
  return [STR_TAG, text];
}

/** strconv.ParseFloat(s, 64) for the decimal syntax go-yaml passes it; undefined when it fails (overflow too). */
function goParseFloat(text: string): number | undefined {
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** Go's base64.StdEncoding.DecodeString (CR and LF ignored, padding required). */
function decodeBase64(text: string): string {
  const compact = text.replace(/[\r\n]/g, '');
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return fail('!!binary value contains invalid base64 data');
  return Buffer.from(compact, 'base64').toString('utf8');
}

const ALIAS_RATIO_RANGE_LOW = 400000;
const ALIAS_RATIO_RANGE_HIGH = 4000000;

function allowedAliasRatio(decodeCount: number): number {
  if (decodeCount <= ALIAS_RATIO_RANGE_LOW) return 0.99;
  if (decodeCount >= ALIAS_RATIO_RANGE_HIGH) return 0.1;
  return 0.99 - 0.89 * ((decodeCount - ALIAS_RATIO_RANGE_LOW) / (ALIAS_RATIO_RANGE_HIGH - ALIAS_RATIO_RANGE_LOW));
}

/** decode.go's decoder for an interface{} target. */
class Decoder {
  private readonly aliases = new Set<GoYamlNode>();
  private decodeCount = 0;
  private aliasCount = 0;
  private aliasDepth = 0;

  unmarshal(node: GoYamlNode, into?: GoMap): GoValue {
    this.decodeCount++;
    if (this.aliasDepth > 0) this.aliasCount++;
    if (this.aliasCount > 100 && this.decodeCount > 1000 && this.aliasCount / this.decodeCount > allowedAliasRatio(this.decodeCount)) {
      fail('document contains excessive aliasing');
    }
    switch (node.kind) {
      case 'alias':
        return this.alias(node, into);
      case 'scalar':
        return this.scalar(node);
      case 'sequence':
        return node.children.map((child) => this.unmarshal(child));
      case 'mapping':
        return this.mapping(node, into ?? new GoMap());
    }
  }

  private alias(node: Extract<GoYamlNode, { kind: 'alias' }>, into?: GoMap): GoValue {
    if (this.aliases.has(node)) fail(`anchor '${node.name}' value contains itself`);
    this.aliases.add(node);
    this.aliasDepth++;
    const value = this.unmarshal(node.target, into);
    this.aliasDepth--;
    this.aliases.delete(node);
    return value;
  }

  private scalar(node: Extract<GoYamlNode, { kind: 'scalar' }>): GoValue {
    if (node.tag === '' && !node.implicit) return node.value;
    const [tag, resolved] = resolve(node.tag, node.value);
    if (tag === BINARY_TAG) return decodeBase64(resolved as string);
    if (tag === TIMESTAMP_TAG) return node.value;
    return resolved;
  }

  private mapping(node: Extract<GoYamlNode, { kind: 'mapping' }>, out: GoMap): GoMap {
    for (let i = 0; i < node.children.length; i += 2) {
      const keyNode = node.children[i];
      if (keyNode.kind === 'scalar' && keyNode.value === '<<' && (keyNode.implicit || keyNode.tag === MERGE_TAG)) {
        this.merge(node.children[i + 1], out);
        continue;
      }
      const key = this.unmarshal(keyNode);
      if (Array.isArray(key) || key instanceof GoMap) fail(`invalid map key: ${goSyntax(key)}`);
      out.set(key, this.unmarshal(node.children[i + 1]));
    }
    return out;
  }

  private merge(node: GoYamlNode, out: GoMap): void {
    const wantMap = () => fail('map merge requires map or sequence of maps as the value');
    if (node.kind === 'mapping') this.unmarshal(node, out);
    else if (node.kind === 'alias') {
      if (node.target.kind !== 'mapping') wantMap();
      this.unmarshal(node, out);
    } else if (node.kind === 'sequence') {
      for (let i = node.children.length - 1; i >= 0; i--) {
        const child = node.children[i];
        if (child.kind === 'alias' ? child.target.kind !== 'mapping' : child.kind !== 'mapping') wantMap();
        this.unmarshal(child, out);
      }
    } else {
      wantMap();
    }
  }
}

/** Go's %#v of a decoded value (`[]interface {}{"a", 1}`, `map[interface {}]interface {}{"a":1}`). */
export function goSyntax(value: GoValue, nested = false): string {
  if (value === null) return nested ? 'interface {}(nil)' : '<nil>';
  if (typeof value === 'string') return field.goQuote(value);
  if (typeof value === 'boolean') return String(value);
  if (value instanceof GoInt) return value.unsigned ? `0x${value.value.toString(16)}` : String(value.value);
  if (value instanceof GoFloat) return goFloatV(value.value);
  if (Array.isArray(value)) return `[]interface {}{${value.map((item) => goSyntax(item, true)).join(', ')}}`;
  const entries = [...value.entries.values()].sort(([a], [b]) => compareGoKeys(a, b));
  return `map[interface {}]interface {}{${entries.map(([k, v]) => `${goSyntax(k, true)}:${goSyntax(v, true)}`).join(', ')}}`;
}

function compareGoKeys(a: GoValue, b: GoValue): number {
  const order = (v: GoValue) => (typeof v === 'string' ? `${v}` : v instanceof GoInt ? Number(v.value) : v instanceof GoFloat ? v.value : String(v));
  const x = order(a);
  const y = order(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** strconv's shortest 'g' of a number already rounded to its precision: exponent form below 1e-4 and from 1e6. */
function shortestG(value: number): string {
  const [mantissa, exponent] = value.toExponential().split('e');
  if (Number(exponent) < -4 || Number(exponent) >= 6) return `${mantissa}e${exponent[0]}${exponent.slice(1).padStart(2, '0')}`;
  return String(value);
}

/** fmt's %v of a float64 (`1.5`, `1e+06`, `+Inf`). */
function goFloatV(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  return shortestG(value);
}

/** strconv.FormatFloat(f, 'g', -1, 32) as sigs.k8s.io/yaml writes a float map key (`.inf` for +Inf). */
function float32Key(value: number): string {
  if (Number.isNaN(value)) return '.nan';
  if (!Number.isFinite(value)) return value > 0 ? '.inf' : '-.inf';
  const single = Math.fround(value);
  let digits = 1;
  while (digits < 9 && Math.fround(Number(single.toPrecision(digits))) !== single) digits++;
  return shortestG(Number(single.toPrecision(digits)));
}

/**
 * sigs.k8s.io/yaml's yamlToJSON after the decode: map keys made strings (string, int, float64 as float32,
 * bool; anything else is an error), then json.Marshal (sorted keys, ±Inf and NaN refused). Returns the JSON.
 */
function toJson(value: GoValue): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return String(value);
  if (value instanceof GoInt) return value.value.toString();
  if (value instanceof GoFloat) {
    if (!Number.isFinite(value.value)) fail(`json: unsupported value: ${goFloatV(value.value)}`);
    return Object.is(value.value, -0) ? '-0' : JSON.stringify(value.value);
  }
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  const object = new Map<string, GoValue>();
  for (const [key, item] of value.entries.values()) {
    object.set(jsonKey(key, item), item);
  }
  const keys = [...object.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return `{${keys.map((key) => `${JSON.stringify(key)}:${toJson(object.get(key)!)}`).join(',')}}`;
}

function jsonKey(key: GoValue, value: GoValue): string {
  if (typeof key === 'string') return key;
  if (typeof key === 'boolean') return String(key);
  if (key instanceof GoInt && !key.unsigned) return key.value.toString();
  if (key instanceof GoFloat) return float32Key(key.value);
  const type = key === null ? '%!s(<nil>)' : key instanceof GoInt ? 'uint64' : 'interface {}';
  return fail(`Unsupported map key of type: ${type}, key: ${key === null ? '<nil>' : goSyntax(key)}, value: ${goSyntax(value)}`);
}

/** The outcome of sigs.k8s.io/yaml's YAMLToJSON on one document: the JSON text, or Go's error text. */
export type GoYamlToJson = { json: string } | { error: string; stage: 'yaml' | 'convert' };

/**
 * go-yaml v2's `yaml.Unmarshal(document, &interface{})` then sigs.k8s.io/yaml's conversion to JSON: the JSON
 * text, or the error (`yaml: …` from go-yaml, or the conversion's `Unsupported map key …`/`json: …`).
 */
export function goYamlToJson(document: string): GoYamlToJson {
  const parsed = parseGoYaml(document);
  if (parsed.error) return { error: parsed.error, stage: 'yaml' };
  let value: GoValue;
  try {
    value = parsed.root ? new Decoder().unmarshal(parsed.root) : null;
  } catch (err) {
    if (err instanceof GoYamlError) return { error: err.message, stage: 'yaml' };
    throw err;
  }
  try {
    return { json: toJson(value) };
  } catch (err) {
    if (err instanceof GoYamlError) return { error: err.problem, stage: 'convert' };
    throw err;
  }
}

/** go-yaml v2's error for `yaml.Unmarshal(text, &interface{})` (parsing and decoding), or undefined. */
export function goYamlUnmarshalError(text: string): string | undefined {
  const result = goYamlToJson(text);
  return 'error' in result && result.stage === 'yaml' ? result.error : undefined;
}
