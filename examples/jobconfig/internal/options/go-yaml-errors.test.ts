/**
 * go-yaml v2's error texts, checked against vectors taken from Go code and tests (each cites its source), not
 * produced by this module.
 */
import { goYamlUnmarshalError } from './go-yaml-decode.js';
import { goYamlSyntaxError } from './go-yaml-errors.js';

describe("go-yaml v2's own unmarshalErrorTests (gopkg.in/yaml.v2 decode_test.go, v2.4.0: yaml.Unmarshal into interface{})", () => {
  test.each([
    ["v: !!float 'error'", 'yaml: cannot decode !!str `error` as a !!float'],
    ['v: [A,', 'yaml: line 1: did not find expected node content'],
    ['v:\n- [A,', 'yaml: line 2: did not find expected node content'],
    ['a:\n- b: *,', 'yaml: line 2: did not find expected alphabetic or numeric character'],
    ['a: *b\n', "yaml: unknown anchor 'b' referenced"],
    ['a: &a\n  b: *a\n', "yaml: anchor 'a' value contains itself"],
    ['a: &x null\n<<:\n- *x\nb: &x {}\n', 'yaml: map merge requires map or sequence of maps as the value'],
    ['value: -', 'yaml: block sequence entries are not allowed in this context'],
    ['a: !!binary ==', 'yaml: !!binary value contains invalid base64 data'],
    ['b: *a\na: &a {c: 1}', "yaml: unknown anchor 'a' referenced"],
    ["%TAG !%79! tag:yaml.org,2002:\n---\nv: !%79!int '1'", 'yaml: did not find expected whitespace'],
  ])('%j → %s', (input, message) => {
    expect(goYamlUnmarshalError(input)).toBe(message);
  });

  test.each([
    ['{[.]}', /^yaml: invalid map key: \[\]interface \{\}\{"\."\}$/],
    ['{{.}}', /^yaml: invalid map key: map\[interface \{\}\]interface \{\}\{"\.":interface \{\}\(nil\)\}$/],
    ["a:\n  1:\nb\n  2:", /^.*could not find expected ':'$/],
  ])('%j matches the test\'s pattern %s', (input, pattern) => {
    expect(goYamlUnmarshalError(input)).toMatch(pattern);
  });

  test('excessive aliasing: nine levels of nine aliases', () => {
    const levels = 'abcdefghi'.split('');
    const input = levels.map((name, i) => `${name}: &${name} [${Array(9).fill(i === 0 ? '00' : `*${levels[i - 1]}`).join(',')}]\n`).join('');
    expect(input.startsWith('a: &a [00,00,00,00,00,00,00,00,00]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n')).toBe(true);
    expect(goYamlUnmarshalError(input)).toBe('yaml: document contains excessive aliasing');
  });

  test('TestFuzzCrashers inputs give a message or none, never a failure of the scanner itself', () => {
    const crashers = ['"\\0\\\r\n', '  0: [\n] 0', '? ? "\n" 0', '    - {\n000}0', '0:\n  0: [0\n] 0', '    - "\n000"0', '    - "\n000""', '0:\n    - {\n000}0', '0:\n    - "\n000"0', '0:\n    - "\n000""', ' \ufeff\n', '? \ufeff\n', '? \ufeff:\n', '0: \ufeff\n', '? \ufeff: \ufeff\n'];
    for (const input of crashers) {
      const message = goYamlSyntaxError(input);
      if (message !== undefined) expect(message).toMatch(/^yaml: /);
    }
    expect(crashers).toHaveLength(15);
  });
});

describe('go-yaml v2 messages asserted by other Go projects (through sigs.k8s.io/yaml: `error converting YAML to JSON: ` + this)', () => {
  test.each([
    // concourse/concourse atc/api/policychecker checker_test.go, "when request body is a bad yaml"
    ['a:\nb', "yaml: line 3: could not find expected ':'"],
    // metal-stack/metal-lib pkg/genericcli (Test_YamlIsEqual, "yaml is invalid")
    ['a: b: c', 'yaml: mapping values are not allowed in this context'],
    // opendevstack/pipeline pkg/config (TestRead, "broken YAML"): a tab-indented second line
    ['pipelines:\n\t\t\t- triggers: []', 'yaml: line 2: found character that cannot start any token'],
  ])('%j → %s', (input, message) => {
    expect(goYamlSyntaxError(input)).toBe(message);
  });
});

describe('documents go-yaml accepts', () => {
  test.each(['a: 1', 'a: [1, 2]\nb: {c: d}', '{a: 1, "b": [x, y]}', '- a\n- b', 'asd', '', '  ', 'a: |\n  text\n  more\nb: >-\n  folded\n', "a: 'it''s'\nb: \"x\\ty\"", 'a: &x 1\nb: *x', '---\na: 1\n...\n'])(
    '%j',
    (input) => {
      expect(goYamlSyntaxError(input)).toBeUndefined();
    },
  );
});
