/** Job options (spec §4.5): evaluation vectors of JC-17, rendering, defaults, OptionSpec validation (JC-16) and the hash. */
import type { Option, OptionSpec } from '../../api/v1alpha1/jobconfig_types.js';
import {
  compactOptionValues,
  defaultOptionSpec,
  defaultOptionSubstitutions,
  evaluateOptionValues,
  formatMoment,
  hashOptionSpec,
  OptionValuesError,
  parseOptionValues,
  parseRFC3339,
  validateOptionSpec,
} from './index.js';

/** The options of JobConfig `opts` in JC-17. */
const optsSpec: OptionSpec = {
  options: [
    { type: 'Bool', name: 'verbose', bool: { default: false, format: 'Custom', trueVal: '--verbose', falseVal: '' } },
    { type: 'String', name: 'user', required: true },
    { type: 'Select', name: 'env', select: { values: ['dev', 'prod'], default: 'dev' } },
    { type: 'Multi', name: 'targets', multi: { values: ['mysql', 'redis', 's3'], delimiter: ',', default: ['mysql'] } },
    { type: 'Date', name: 'since', date: { format: 'YYYY-MM-DD' } },
  ],
};

const evaluate = (yaml: string, spec: OptionSpec = optsSpec) => {
  const { substitutions, errors } = evaluateOptionValues(parseOptionValues(yaml), spec);
  return { substitutions, errors: errors.map(String) };
};

describe('JC-17 option evaluation', () => {
  test('given values render per type', () => {
    const yaml = 'user: bob\nverbose: true\nenv: prod\ntargets: [redis, s3]\nsince: "2024-01-01T08:00:00+08:00"';
    expect(evaluate(yaml)).toEqual({
      substitutions: {
        'option.verbose': '--verbose',
        'option.user': 'bob',
        'option.env': 'prod',
        'option.targets': 'redis,s3',
        'option.since': '2024-01-01',
      },
      errors: [],
    });
  });

  test('absent values take the defaults', () => {
    expect(evaluate('user: bob').substitutions).toEqual({
      'option.verbose': '',
      'option.user': 'bob',
      'option.env': 'dev',
      'option.targets': 'mysql',
      'option.since': '',
    });
  });

  test('errors name spec.optionValues[<name>]', () => {
    expect(evaluate('{}').errors).toEqual(['spec.optionValues[user]: Required value: option is required']);
    expect(evaluate('user: bob\nenv: staging').errors).toEqual(['spec.optionValues[env]: Unsupported value: "staging": supported values: "dev", "prod"']);
    expect(evaluate('user: bob\nverbose: "yes"').errors).toEqual(['spec.optionValues[verbose]: Invalid value: "yes": expected bool, got string']);
    expect(evaluate('user: 5').errors).toEqual(['spec.optionValues[user]: Invalid value: 5: expected string, got float64']);
    expect(evaluate('user: bob\nsince: yesterday').errors).toEqual([
      'spec.optionValues[since]: Invalid value: "yesterday": cannot parse time: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
    ]);
    expect(evaluate('user: bob\ntargets: [redis, nosql]').errors).toEqual([
      'spec.optionValues[targets]: Unsupported value: "nosql": supported values: "mysql", "redis", "s3"',
    ]);
  });

  test('a Date option without format renders RFC 3339 in the offset of the input', () => {
    const spec: OptionSpec = { options: [{ type: 'Date', name: 'd' }] };
    expect(evaluate('d: 2022-01-01T00:02:30Z', spec).substitutions).toEqual({ 'option.d': '2022-01-01T00:02:30+00:00' });
    expect(evaluate('d: 2021-02-09T12:06:09+08:00', spec).substitutions).toEqual({ 'option.d': '2021-02-09T12:06:09+08:00' });
  });

  test('keys that are not options are ignored; YAML 1.1 booleans are booleans as in go-yaml v2', () => {
    const spec: OptionSpec = { options: [{ type: 'Bool', name: 'b', bool: { default: false, format: 'YesNo' } }] };
    expect(evaluate('b: yes\nunknown: 1', spec)).toEqual({ substitutions: { 'option.b': 'yes' }, errors: [] });
    expect(evaluate('', spec).substitutions).toEqual({ 'option.b': 'no' });
  });
});

describe('rendering per option type', () => {
  test.each([
    ['TrueFalse', 'true', 'false'],
    ['OneZero', '1', '0'],
    ['YesNo', 'yes', 'no'],
  ] as const)('Bool format %s', (format, whenTrue, whenFalse) => {
    const spec: OptionSpec = { options: [{ type: 'Bool', name: 'b', bool: { default: true, format } }] };
    expect(evaluate('b: true', spec).substitutions['option.b']).toBe(whenTrue);
    expect(evaluate('b: false', spec).substitutions['option.b']).toBe(whenFalse);
    expect(evaluate('', spec).substitutions['option.b']).toBe(whenTrue);
  });

  test('String trims when asked and applies the trimmed default; empty + required is an error', () => {
    const spec: OptionSpec = { options: [{ type: 'String', name: 's', required: true, string: { default: '  dflt ', trimSpaces: true } }] };
    expect(evaluate("s: '  Alice  '", spec).substitutions).toEqual({ 'option.s': 'Alice' });
    expect(evaluate('', spec).substitutions).toEqual({ 'option.s': 'dflt' });
    expect(evaluate("s: '   '", spec).errors).toEqual(['spec.optionValues[s]: Required value: option is required']);
  });

  test('Select accepts custom values only with allowCustom', () => {
    const spec: OptionSpec = { options: [{ type: 'Select', name: 't', select: { values: ['latest'], allowCustom: true } }] };
    expect(evaluate("t: '3.14'", spec).substitutions).toEqual({ 'option.t': '3.14' });
    expect(evaluate('', spec).substitutions).toEqual({ 'option.t': '' });
  });

  test('Multi: an empty list takes the default, an empty element is required, non-strings are rejected', () => {
    const spec: OptionSpec = { options: [{ type: 'Multi', name: 'm', multi: { values: ['a', 'b'], delimiter: ' | ', default: ['a', 'b'], allowCustom: true } }] };
    expect(evaluate('m: []', spec).substitutions).toEqual({ 'option.m': 'a | b' });
    expect(evaluate("m: [c, '']", spec).errors).toEqual(['spec.optionValues[m]: Required value']);
    expect(evaluate('m: [1]', spec).errors).toEqual(['spec.optionValues[m]: Invalid value: 1: expected string, got []interface {}']);
    expect(evaluate('m: x', spec).errors).toEqual(['spec.optionValues[m]: Invalid value: "x": expected []string, got string']);
  });

  test("a list or map where a scalar belongs is printed as Furiko's field.Invalid prints it (Go's %#v)", () => {
    const spec: OptionSpec = { options: [{ type: 'String', name: 's' }, { type: 'Multi', name: 'm', multi: { values: ['a'], delimiter: ',', allowCustom: true } }] };
    expect(evaluate('s: [a, 1, true, null]', spec).errors).toEqual(['spec.optionValues[s]: Invalid value: []interface {}{"a", 1, true, interface {}(nil)}: expected string, got []interface {}']);
    expect(evaluate('m: {b: 2.5, a: [x]}', spec).errors).toEqual(['spec.optionValues[m]: Invalid value: map[string]interface {}{"a":[]interface {}{"x"}, "b":2.5}: expected []string, got map[string]interface {}']);
  });
});

describe('defaultOptionSubstitutions (scheduled Jobs)', () => {
  test('every option at its default', () => {
    const spec: OptionSpec = {
      options: [
        { type: 'String', name: 'user-name', string: { default: 'Example User', trimSpaces: true } },
        { type: 'Select', name: 'image-tag', select: { default: 'latest', values: ['latest', '3.15'], allowCustom: true } },
      ],
    };
    expect(defaultOptionSubstitutions(spec)).toEqual({ 'option.user-name': 'Example User', 'option.image-tag': 'latest' });
    expect(defaultOptionSubstitutions(undefined)).toEqual({});
  });

  test('a required option without default throws the field error the CreateJobFailed event shows', () => {
    expect(() => defaultOptionSubstitutions(optsSpec)).toThrow(OptionValuesError);
    expect(() => defaultOptionSubstitutions(optsSpec)).toThrow('spec.optionValues[user]: Required value: option is required');
  });
});

describe('optionValues serialisation', () => {
  test('re-serialised as compact JSON with sorted keys', () => {
    expect(compactOptionValues(parseOptionValues("user-name: '  Alice  '\nimage-tag: '3.14'"))).toBe('{"image-tag":"3.14","user-name":"  Alice  "}');
    expect(compactOptionValues(parseOptionValues('{"b": {"y": 1, "x": [true]}, "a": 2}'))).toBe('{"a":2,"b":{"x":[true],"y":1}}');
  });

  test('a document that is not a map is rejected', () => {
    expect(() => parseOptionValues('- a\n- b')).toThrow('json: cannot unmarshal array into Go value of type map[string]interface {}');
    expect(parseOptionValues('  ')).toEqual({});
  });
});

describe('moment.js formatting', () => {
  const t = parseRFC3339('2021-02-09T12:06:09.123+08:00');
  test.each([
    ['D MMM YYYY', '9 Feb 2021'],
    ['YYYY-MM-DDTHH:mm:ssZ', '2021-02-09T12:06:09+08:00'],
    ['dddd, MMMM Do YYYY, h:mm:ss a', 'Tuesday, February 9th 2021, 12:06:09 pm'],
    ['ddd dd d E', 'Tue Tu 2 2'],
    ['[Today is] dddd', 'Today is Tuesday'],
    ['YY Q Qo DDD DDDD', '21 1 1st 40 040'],
    ['hh A k kk H', '12 PM 12 12 12'],
    ['SSS S ZZ', '123 1 +0800'],
    ['X x', '1612843569 1612843569123'],
    ['W WW w ww GGGG gggg', '6 06 7 07 2021 2021'],
    ['L LL LT', '02/09/2021 February 9, 2021 12:06 PM'],
  ])('%s', (format, expected) => {
    expect(formatMoment(t, format)).toBe(expected);
  });

  test('ISO and locale week years differ around new year', () => {
    const newYear = parseRFC3339('2021-01-01T00:00:00Z');
    expect(formatMoment(newYear, 'GGGG-[W]WW gggg-ww')).toBe('2020-W53 2021-01');
  });

  test('RFC 3339 parse errors carry Go’s texts', () => {
    expect(() => parseRFC3339('2021-13-01T00:00:00Z')).toThrow('parsing time "2021-13-01T00:00:00Z": month out of range');
    expect(() => parseRFC3339('2021-01-01 00:00:00Z')).toThrow('cannot parse " 00:00:00Z" as "T"');
    expect(() => parseRFC3339('2021-01-01T00:00:00Zjunk')).toThrow('extra text: "junk"');
    expect(parseRFC3339('2021-01-01T00:00:00-05:30').offsetMinutes).toBe(-330);
  });
});

describe('OptionSpec validation (JC-16) and defaulting', () => {
  const messages = (options: Option[]) => validateOptionSpec({ options }).map(String);

  test('the options of the sample are valid once defaulted', () => {
    const spec: OptionSpec = { options: [{ type: 'Bool', name: 'b', bool: { default: true } }, { type: 'Bool', name: 'c' } as Option] };
    defaultOptionSpec(spec);
    expect(spec.options![0]!.bool).toEqual({ default: true, format: 'TrueFalse' });
    expect(spec.options![1]!.bool).toEqual({ default: false, format: 'TrueFalse' });
    expect(validateOptionSpec(spec)).toEqual([]);
  });

  test('duplicate names, bad names, required Bool, Select default and values, foreign blocks', () => {
    expect(messages([{ type: 'String', name: 'x' }, { type: 'String', name: 'x' }])).toEqual(['spec.option.options[1]: Forbidden: duplicate option name: "x"']);
    expect(messages([{ type: 'String', name: 'bad name' }])).toEqual(['spec.option.options[0]: Invalid value: "bad name": must match regex: ^[a-zA-Z_0-9.-]+$']);
    expect(messages([{ type: 'Bool', name: 'b', required: true, bool: { default: false, format: 'TrueFalse' } }])).toEqual([
      'spec.option.options[0].required: Forbidden: bool option cannot be marked as required',
    ]);
    expect(messages([{ type: 'Select', name: 's', select: { values: ['a'], default: 'z' } }])).toEqual([
      'spec.option.options[0].select.default: Unsupported value: "z": supported values: "a"',
    ]);
    expect(messages([{ type: 'Select', name: 's', select: { values: [] } }])).toEqual(['spec.option.options[0].select.values: Required value: at least 1 value is required']);
    expect(messages([{ type: 'String', name: 's', select: { values: ['a'] } }])).toEqual([
      'spec.option.options[0]: Forbidden: cannot specify non-String options for option type String',
    ]);
    expect(messages([{ type: 'Multi', name: 'm', multi: { values: ['a', ''], delimiter: ',', default: ['b'] } }])).toEqual([
      'spec.option.options[0].multi.values[1]: Required value',
      'spec.option.options[0].multi.default[0]: Unsupported value: "b": supported values: "a", ""',
    ]);
    expect(messages([{ type: 'Bool', name: 'b', bool: { default: false, format: 'Maybe' as never } }])).toEqual([
      'spec.option.options[0].bool.format: Unsupported value: "Maybe": supported values: "TrueFalse", "OneZero", "YesNo", "Custom"',
    ]);
  });
});

describe('option-spec hash', () => {
  const base: OptionSpec = { options: [{ type: 'String', name: 'a', label: 'A' }, { type: 'Bool', name: 'b', bool: { default: false, format: 'TrueFalse' } }] };
  test('ignores labels and option order, changes with anything evaluated', () => {
    const hash = hashOptionSpec(base);
    expect(hash).toMatch(/^[0-9a-f]+$/);
    expect(hashOptionSpec({ options: [base.options![1]!, { ...base.options![0]!, label: 'other' }] })).toBe(hash);
    expect(hashOptionSpec({ options: [base.options![0]!, { ...base.options![1]!, bool: { default: true, format: 'TrueFalse' } }] })).not.toBe(hash);
    expect(hashOptionSpec(undefined)).toBe(hashOptionSpec({}));
    expect(hashOptionSpec(undefined)).not.toBe(hash);
  });
});

/*
 * Furiko's own values: derived by hand from options.HashOptionSpec + mitchellh/hashstructure v2.0.2 (FormatV2,
 * fnv.New64 = FNV-1 64, IgnoreZeroValue) with an independent Python re-implementation of that walk (struct =
 * FNV-1(type name), then per non-zero field h = FNV-1(LE64(h ^ FNV-1(LE64(FNV-1(GoName)) ++ LE64(value)))).
 * The specs are furiko's own test fixtures (mutation_test.go's optionSpecThree, hash_test.go's "multiple options").
 */
describe("option-spec hash: Furiko's value", () => {
  test('an empty or absent spec hashes to FNV-1("OptionSpec")', () => {
    expect(hashOptionSpec(undefined)).toBe('6fcbd43085e4431f');
    expect(hashOptionSpec({})).toBe('6fcbd43085e4431f');
  });

  test("furiko's optionSpecThree (required option1, option2/option3 with string defaults)", () => {
    const three: OptionSpec = {
      options: [
        { type: 'String', name: 'option1', required: true },
        { type: 'String', name: 'option2', string: { default: 'value2' } },
        { type: 'String', name: 'option3', string: { default: 'value3' } },
      ],
    };
    expect(hashOptionSpec(three)).toBe('742038243b9bfa55');
  });

  test("furiko's multiple options (string, select, multi, custom bool), labels ignored, order by name", () => {
    const multiple: OptionSpec = {
      options: [
        { type: 'String', name: 'string_option' },
        { type: 'Select', name: 'select_option', label: 'My Select Option', required: true, select: { default: 'a', values: ['a', 'b', 'c'] } },
        { type: 'Multi', name: 'multi_option', label: 'My Multi Option', required: true, multi: { default: ['b', 'a'], values: ['a', 'b', 'c'], delimiter: '' } },
        { type: 'Bool', name: 'bool_option', label: 'My Bool Option', required: true, bool: { default: true, format: 'Custom', trueVal: '--true', falseVal: '--false' } },
      ],
    };
    expect(hashOptionSpec(multiple)).toBe('237569109612e01a');
  });

  test('an empty config object hashes like none (furiko: "empty pointer is equal"); trimSpaces changes it', () => {
    const plain: OptionSpec = { options: [{ type: 'String', name: 'opt' }] };
    expect(hashOptionSpec({ options: [{ type: 'String', name: 'opt', string: {} }] })).toBe(hashOptionSpec(plain));
    expect(hashOptionSpec({ options: [{ type: 'String', name: 'opt', string: { trimSpaces: true } }] })).not.toBe(hashOptionSpec(plain));
  });
});
