/**
 * Furiko's `jsonyaml.UnmarshalString(optionValues, &map[string]interface{})`: k8s.io/apimachinery v0.23's
 * YAMLOrJSONDecoder. Text whose first non-space character is `{` is one JSON value read by encoding/json's
 * Decoder (errors `json: offset N: invalid character …`, `unexpected EOF`); anything else is the first YAML
 * document (YAMLReader: lines up to a `---` line) through sigs.k8s.io/yaml, i.e. go-yaml v2 then
 * encoding/json (`error converting YAML to JSON: yaml: line N: …`, `error unmarshaling JSON: while decoding
 * JSON: json: cannot unmarshal array into Go value of type map[string]interface {}`). The errors carry Go's
 * exact text; values come from the `yaml` package read as go-yaml reads them.
 */
import { field } from 'kubeforge/runtime';
import YAML, { type Tags } from 'yaml';
import { decodeFirstGoJsonValue, GoJsonSyntaxError } from './go-json-errors.js';
import { parseGoYaml } from './go-yaml-errors.js';

/** GuessJSONStream peeks this many bytes for the leading `{`. */
const JSON_SNIFF_BYTES = 4096;

/** Go's unicode.IsSpace. */
const GO_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;

/** hasJSONPrefix over the peeked bytes: the first non-space character is `{`. */
export function looksLikeJson(text: string): boolean {
  const peeked = Buffer.from(text, 'utf8').subarray(0, JSON_SNIFF_BYTES).toString('utf8');
  for (const c of peeked) if (!GO_SPACE.test(c)) return c === '{';
  return false;
}

/**
 * YAMLReader.Read: the first document, lines (CRLF read as LF, each ending in LF) up to a line starting
 * with `---` once something was read; a `---` line with more than a comment after it is an error.
 */
export function firstYamlDocument(text: string): string {
  const lines = text.split('\n');
  const reads = lines.slice(0, -1).map((line) => line.replace(/\r$/, ''));
  if (lines[lines.length - 1] !== '') reads.push(lines[lines.length - 1]);
  let document = '';
  for (const line of reads) {
    if (line.startsWith('---')) {
      const trimmed = line.slice(3).replace(/^\s+|\s+$/gu, '');
      if (trimmed && trimmed[0] !== '#') throw new Error(`invalid Yaml document separator: ${trimmed}`);
      if (document) return document;
    }
    document += `${line}\n`;
  }
  return document;
}

/** The JSON type name encoding/json reports for a decoded value (`json: cannot unmarshal <type> into …`). */
function jsonTypeName(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  return Array.isArray(value) ? 'array' : 'object';
}

/** json.Marshal's UnsupportedValueError for the first ±Inf/NaN in encoding order (map keys sorted). */
function unsupportedFloat(value: unknown): string | undefined {
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? '+Inf' : '-Inf';
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = unsupportedFloat(item);
      if (found) return found;
    }
  } else if (value && typeof value === 'object') {
    for (const key of Object.keys(value).sort()) {
      const found = unsupportedFloat((value as Record<string, unknown>)[key]);
      if (found) return found;
    }
  }
  return undefined;
}

const TIMESTAMP_TAG = 'tag:yaml.org,2002:timestamp';
const FLOAT_TAG = 'tag:yaml.org,2002:float';
const INT_TAG = 'tag:yaml.org,2002:int';

/** go-yaml v2's float syntax (after removing `_`); a float that overflows float64 stays a string. */
const GO_YAML_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const isGoYamlFloat = (text: string) => GO_YAML_FLOAT.test(text.replace(/_/g, '')) && Number.isFinite(Number(text.replace(/_/g, '')));

/**
 * The YAML 1.1 scalar types as go-yaml v2 resolves plain scalars: no timestamps (kept as strings when
 * decoding into interface{}), no base-60 numbers (`10:30` is a string), floats only with a digit (`.` and
 * `e5` are strings, `1e400` too), and Go's `0o17` octal.
 */
function goYamlTags(tags: Tags): Tags {
  const kept = tags.filter((tag) => typeof tag === 'string' || (tag.tag !== TIMESTAMP_TAG && tag.format !== 'TIME'));
  const adjusted = kept.map((tag) => {
    if (typeof tag !== 'string' && tag.tag === INT_TAG && 'resolve' in tag && typeof tag.resolve === 'function') {
      // go-yaml's ints are Go ints: `-0` is 0.
      const resolve = tag.resolve.bind(tag) as (...args: unknown[]) => unknown;
      return { ...tag, resolve: (...args: unknown[]) => (Object.is(resolve(...args), -0) ? 0 : resolve(...args)) } as typeof tag;
    }
    if (typeof tag === 'string' || tag.tag !== FLOAT_TAG || !('test' in tag) || !tag.test || String(tag.test).includes('inf')) return tag;
    const pattern = tag.test;
    return { ...tag, test: { test: (text: string) => pattern.test(text) && isGoYamlFloat(text) } as RegExp };
  });
  const intTag = kept.find((tag) => typeof tag !== 'string' && tag.tag === INT_TAG && tag.format === 'OCT');
  if (!intTag || typeof intTag === 'string') return adjusted;
  const goOctal = {
    ...intTag,
    format: undefined,
    test: /^[-+]?0o[0-7_]+$/,
    resolve: (text: string) => (text.startsWith('-') ? -1 : 1) * parseInt(text.replace(/^[-+]?0o|_/g, ''), 8),
  };
  return [goOctal as typeof intTag, ...adjusted];
}

/** Go's `%+#v` of a scalar go-yaml decoded (nil, string, bool, int, float64); undefined for collections. */
function goScalarSyntax(node: unknown): string | undefined {
  if (node === null || node === undefined) return '<nil>';
  if (!YAML.isScalar(node)) return undefined;
  const value = node.value;
  if (value === null) return '<nil>';
  if (typeof value === 'string') return field.goQuote(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value !== 'number') return undefined;
  if (Number.isInteger(value) && /^[-+]?(0[box])?[0-9a-fA-F_]+$/.test(node.source ?? String(value))) return String(value);
  // %v of a float64 is strconv's shortest 'g': the exponent form below 1e-4 and from 1e6 on (`1e+06`).
  const [mantissa, exponent] = value.toExponential().split('e');
  if (Number(exponent) < -4 || Number(exponent) >= 6) return `${mantissa}e${exponent[0]}${exponent.slice(1).padStart(2, '0')}`;
  return String(value);
}

/**
 * sigs.k8s.io/yaml's error for a map key JSON cannot have: go-yaml gives a null key (`~: x`, `? : x`) as nil,
 * which `convertToJSONableObject` rejects (`Unsupported map key of type: %!s(<nil>), key: <nil>, value: "x"`).
 */
function unsupportedNullKey(node: unknown): string | undefined {
  if (YAML.isMap(node)) {
    for (const pair of node.items) {
      const key = pair.key;
      if (key === null || (YAML.isScalar(key) && key.value === null)) {
        const value = goScalarSyntax(pair.value);
        if (value !== undefined) return `Unsupported map key of type: %!s(<nil>), key: <nil>, value: ${value}`;
      }
      const nested = unsupportedNullKey(pair.value);
      if (nested) return nested;
    }
  } else if (YAML.isSeq(node)) {
    for (const item of node.items) {
      const nested = unsupportedNullKey(item);
      if (nested) return nested;
    }
  }
  return undefined;
}

/**
 * A YAML document's values as go-yaml v2 decodes them (go-yaml's plain scalar types, a repeated key's last
 * value), read only after go-yaml's rules accepted its syntax; throws sigs.k8s.io/yaml's error for a null key.
 */
function yamlValues(document: string): unknown {
  // go-yaml reads CR LF, a lone CR and NEL as one line feed; the `yaml` package knows only CR LF and LF.
  const [first] = YAML.parseAllDocuments(document.replace(/\r\n?|\u0085/g, '\n'), { version: '1.1', uniqueKeys: false, customTags: goYamlTags });
  if (!first || !('toJS' in first)) return null;
  if (first.errors.length) throw new Error(`error converting YAML to JSON: yaml: ${first.errors[0].message.split('\n')[0]}`);
  const nullKey = unsupportedNullKey(first.contents);
  if (nullKey) throw new Error(`error converting YAML to JSON: ${nullKey}`);
  return first.toJS();
}

/**
 * Decodes `text` into a map as Furiko does; a null or empty document leaves Furiko's map empty (decoding
 * JSON null into the interface{} sigs.k8s.io/yaml holds does not touch the map). Throws an Error whose
 * message is Go's error text (without Furiko's `cannot unmarshal as json or yaml: `).
 */
export function unmarshalYamlOrJson(text: string): Record<string, unknown> {
  if (looksLikeJson(text)) {
    let value: unknown;
    try {
      value = decodeFirstGoJsonValue(text);
    } catch (err) {
      if (err instanceof GoJsonSyntaxError) throw new Error(`json: offset ${err.offset}: ${err.message}`, { cause: err });
      throw err;
    }
    return value as Record<string, unknown>;
  }
  const parsed = parseGoYaml(firstYamlDocument(text));
  if (parsed.error) throw new Error(`error converting YAML to JSON: ${parsed.error}`);
  const value = yamlValues(parsed.document!);
  const unsupported = unsupportedFloat(value);
  if (unsupported) throw new Error(`error converting YAML to JSON: json: unsupported value: ${unsupported}`);
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${jsonTypeName(value)} into Go value of type map[string]interface {}`);
  }
  return value as Record<string, unknown>;
}
