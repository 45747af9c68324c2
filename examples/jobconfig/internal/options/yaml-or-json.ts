/**
 * Furiko's `jsonyaml.UnmarshalString(optionValues, &map[string]interface{})`: k8s.io/apimachinery v0.23's
 * YAMLOrJSONDecoder. Text whose first non-space character is `{` is one JSON value read by encoding/json's
 * Decoder (errors `json: offset N: invalid character …`, `unexpected EOF`); anything else is the first YAML
 * document (YAMLReader: lines up to a `---` line) through sigs.k8s.io/yaml, i.e. go-yaml v2 then
 * encoding/json (`error converting YAML to JSON: yaml: line N: …`, `error unmarshaling JSON: while decoding
 * JSON: json: cannot unmarshal array into Go value of type map[string]interface {}`). Errors and values are
 * Go's: the YAML is parsed and decoded by go-yaml-errors.ts and go-yaml-decode.ts.
 */
import { decodeFirstGoJsonValue, GoJsonSyntaxError } from './go-json-errors.js';
import { goYamlToJson } from './go-yaml-decode.js';

/** GuessJSONStream peeks this many bytes for the leading `{`. */
const JSON_SNIFF_BYTES = 4096;

/** Go's unicode.IsSpace. */
const GO_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;

/** Go's strings.TrimSpace. */
const goTrimSpace = (text: string) => text.replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/gu, '');

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
      const trimmed = goTrimSpace(line.slice(3));
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
  const converted = goYamlToJson(firstYamlDocument(text));
  if ('error' in converted) throw new Error(`error converting YAML to JSON: ${converted.error}`);
  const value: unknown = JSON.parse(converted.json);
  if (value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${jsonTypeName(value)} into Go value of type map[string]interface {}`);
  }
  return value as Record<string, unknown>;
}
