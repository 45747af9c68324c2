/**
 * Vectors produced by running Go itself (testdata/go-vectors: Go 1.19.8, gopkg.in/yaml.v2 v2.4.0, encoding/json,
 * with apimachinery v0.23's YAMLOrJSONDecoder framing and sigs.k8s.io/yaml v1.3.0's conversion): what
 * Furiko's decoding of optionValues gives for typical mistakes and values, and go-yaml's own error for 1000
 * random YAML-ish texts. Each must come out here exactly as Go gave it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compactOptionValues } from './evaluate.js';
import { goYamlUnmarshalError } from './go-yaml-decode.js';
import { unmarshalYamlOrJson } from './yaml-or-json.js';

interface Vectors {
  source: string;
  optionValues: { in: string; err: string; out: string }[];
  goYaml: { in: string; err: string }[];
}

const vectors = JSON.parse(readFileSync(fileURLToPath(new URL('./testdata/go-vectors/vectors.json', import.meta.url)), 'utf8')) as Vectors;

function furikoResult(text: string): string {
  try {
    return compactOptionValues(unmarshalYamlOrJson(text));
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
}

describe(`optionValues as Furiko decodes them (${vectors.source})`, () => {
  const cases = vectors.optionValues;
  test('the vectors are there, errors and values both', () => {
    expect(cases.filter((v) => v.err).length).toBeGreaterThan(100);
    expect(cases.filter((v) => !v.err).length).toBeGreaterThan(50);
  });
  test.each(cases.map((v) => [v.in, v.err ? `error: ${v.err}` : v.out]))('%j → %s', (input, expected) => {
    expect(furikoResult(input)).toBe(expected);
  });
});

describe("go-yaml v2's yaml.Unmarshal error for random YAML-ish texts", () => {
  test('1000 vectors, most of them errors', () => {
    expect(vectors.goYaml).toHaveLength(1000);
    expect(vectors.goYaml.filter((v) => v.err).length).toBeGreaterThan(500);
  });
  test('every one as Go gave it', () => {
    const differing = vectors.goYaml.filter((v) => (goYamlUnmarshalError(v.in) ?? '') !== v.err);
    expect(differing).toEqual([]);
  });
});
