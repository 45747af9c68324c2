/**
 * Furiko's optionValues decoding (apimachinery's YAMLOrJSONDecoder over encoding/json and sigs.k8s.io/yaml),
 * checked against vectors from the Go sources' own tests (each cites its source).
 */
import { decodeFirstGoJsonValue, GoJsonSyntaxError } from './go-json-errors.js';
import { parseOptionValues } from './evaluate.js';
import { firstYamlDocument, looksLikeJson, unmarshalYamlOrJson } from './yaml-or-json.js';

const goError = (text: string) => {
  try {
    unmarshalYamlOrJson(text);
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error(`no error for ${JSON.stringify(text)}`);
};

describe('k8s.io/apimachinery pkg/util/yaml decoder_test.go', () => {
  test('TestDecodeBrokenJSON: a JSON stream reports the byte offset', () => {
    expect(goError('{\n\t"foo": {\n\t\t"stuff": 1\n\t\t"otherStuff": 2\n\t}\n}\n  ')).toBe(`json: offset 28: invalid character '"' after object key:value pair`);
  });

  test("TestDecodeBrokenYAML: the first document keeps its '---' line, so the tab is on go-yaml's line 3", () => {
    const message = goError('---\nstuff: 1\n\t\ttest-foo: 1\n\n---\n  ');
    expect(message).toContain('yaml: line 3:');
    expect(message).toBe('error converting YAML to JSON: yaml: line 3: found a tab character that violates indentation');
  });

  test('TestYAMLOrJSONDecoder: JSON is sniffed by a leading {, YAML is read up to the next --- line', () => {
    expect(looksLikeJson('   {"a":"b"}')).toBe(true);
    expect(looksLikeJson(' \na: b')).toBe(false);
    expect(unmarshalYamlOrJson(' \na: b')).toEqual({ a: 'b' });
    expect(unmarshalYamlOrJson(' {"1":2}{"3":4}')).toEqual({ 1: 2 });
    expect(unmarshalYamlOrJson('foo: bar\n---\nbaz: biz')).toEqual({ foo: 'bar' });
    expect(unmarshalYamlOrJson('foo: bar\n---')).toEqual({ foo: 'bar' });
    expect(firstYamlDocument('foo: bar\n---\nbaz: biz')).toBe('foo: bar\n');
    expect(goError('foo: bar\n--')).toMatch(/^error converting YAML to JSON: yaml: /);
    expect(goError('foo: bar\n-')).toMatch(/^error converting YAML to JSON: yaml: /);
  });
});

describe('kubernetes/kubernetes#103457 (apimachinery 1.22+, so Furiko\'s v0.23): a --- line allows only spaces and a comment after it', () => {
  test('other content after --- is an error naming it; a comment is not', () => {
    expect(goError('a: 1\n--- b: 2')).toBe('invalid Yaml document separator: b: 2');
    expect(goError('---x\na: 1')).toBe('invalid Yaml document separator: x');
    expect(unmarshalYamlOrJson('--- # first\na: 1\n--- # second\nb: 2')).toEqual({ a: 1 });
  });
});

describe("Go's encoding/json scanner errors (encoding/json decode_test.go unmarshalTests and scanner_test.go indentErrorTests)", () => {
  test.each([
    ['{"X": "foo", "Y"}', "invalid character '}' after object key", 17],
    ['{"X":12x}', "invalid character 'x' after object key:value pair", 8],
    ['{"F3": -}', "invalid character '}' in numeric literal", 9],
    ['{"X": "foo" "Y": "bar"}', `invalid character '"' after object key:value pair`, 13],
    ['[1, 2, 3+]', "invalid character '+' after array element", 9],
    ['\x01 42', "invalid character '\\x01' looking for beginning of value", 1],
  ])('%j → %s at offset %d', (input, message, offset) => {
    let error: unknown;
    try {
      decodeFirstGoJsonValue(input);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(GoJsonSyntaxError);
    expect((error as GoJsonSyntaxError).message).toBe(message);
    expect((error as GoJsonSyntaxError).offset).toBe(offset);
  });

  test("concourse atc/api/policychecker checker_test.go: 'hello' is not JSON", () => {
    expect(() => decodeFirstGoJsonValue('hello')).toThrow("invalid character 'h' looking for beginning of value");
  });
});

describe('what go-yaml and sigs.k8s.io/yaml accept', () => {
  test('gopkg.in/yaml.v2 decode_test.go unmarshalStrictTests: plain Unmarshal keeps the last of a repeated key', () => {
    expect(unmarshalYamlOrJson('a: 1\nb: 2\na: 3\n')).toEqual({ a: 3, b: 2 });
  });

  test('a null or empty document leaves the map empty; empty text is not decoded', () => {
    expect(parseOptionValues('null')).toEqual({});
    expect(parseOptionValues('  ')).toEqual({});
    expect(parseOptionValues('')).toEqual({});
  });
});
