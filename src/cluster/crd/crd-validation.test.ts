/** CRD structural rules and custom-resource validation messages (embedded-apiserver.md §5.1, §5.5, §5.7). */
import { fieldErrorText } from '../errors/field-errors.js';
import { validateCrd } from './crd-kind.js';
import { applyDefaults, pruneUnknown } from './prune-and-default.js';
import { validateCustomResource } from './schema-validation.js';
import { widgetCrd } from './testdata/widget-crd.js';

const crd = widgetCrd;

const texts = (errs: Parameters<typeof fieldErrorText>[0][]): string[] => errs.map(fieldErrorText);

test('structural rules: missing types, forbidden keywords, root rules, CEL compile errors', () => {
  const errs = texts(validateCrd(crd({
    type: 'object',
    properties: {
      spec: { type: 'object', properties: { a: {}, b: { type: 'array' }, c: { type: 'string', uniqueItems: true }, d: { $ref: '#/x' }, e: { type: 'foo' } } },
      status: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.+' }] },
    },
  }) as never));
  const p = 'spec.validation.openAPIV3Schema.properties[spec].properties';
  expect(errs).toContain(`${p}[a].type: Required value: must not be empty for specified object fields`);
  expect(errs).toContain(`${p}[b].items: Required value: must be specified`);
  expect(errs).toContain(`${p}[c].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`);
  expect(errs).toContain(`${p}[d].$ref: Forbidden: $ref is not supported`);
  expect(errs).toContain(`${p}[e].type: Unsupported value: "foo": supported values: "array", "boolean", "integer", "number", "object", "string"`);
  expect(errs.some((e) => e.startsWith('spec.validation.openAPIV3Schema.properties[status].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.+", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed'))).toBe(true);
  expect(texts(validateCrd(crd({ type: 'string' }) as never))).toContain('spec.validation.openAPIV3Schema.type: Invalid value: "string": must be object at the root');
  const named = crd({ type: 'object' }, { group: 'example' }) as any;
  expect(texts(validateCrd(named))).toContain('spec.group: Invalid value: "example": should be a domain with at least one dot');
  expect(texts(validateCrd(named))).toContain('metadata.name: Invalid value: "widgets.example.com": must be spec.names.plural+"."+spec.group');
});

test('custom resources: pruning, defaulting, value validations and CEL rules', () => {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        required: ['size'],
        'x-kubernetes-validations': [{ rule: 'self.size % 2 == 0', message: 'size must be even' }],
        properties: {
          size: { type: 'integer', minimum: 0, maximum: 10 },
          mode: { type: 'string', default: 'fast', pattern: '^[a-z]+$' },
          tags: { type: 'array', maxItems: 2, items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
          when: { type: 'string', format: 'date-time' },
        },
      },
    },
  };
  const object: Record<string, any> = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', bogus: 1 }, spec: { size: 3, extra: true, tags: ['a', 'a', 'b'], when: 'soon' } };
  expect(pruneUnknown(object, schema)).toEqual(['metadata.bogus', 'spec.extra']);
  applyDefaults(object, schema);
  expect(object.spec.mode).toBe('fast');
  expect(texts(validateCustomResource(object, schema))).toEqual([
    'spec.tags: Too many: 3: must have at most 2 items',
    'spec.tags[1]: Duplicate value: "a"',
    'spec.when: Invalid value: "soon": spec.when in body must be of type date-time: "soon"',
    '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  ]);
  object.spec = { size: 3, mode: 'fast' };
  expect(texts(validateCustomResource(object, schema))).toEqual(['spec: Invalid value: "object": size must be even']);
  object.spec = { size: 'x' };
  expect(texts(validateCustomResource(object, schema))).toEqual([
    'spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
    '<nil>: Invalid value: null: some validation rules were not checked because the object was invalid; correct the existing errors to complete validation',
  ]);
});

test('ratcheting: on update, errors on values unchanged from the old object are dropped', () => {
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { name: { type: 'string', maxLength: 3 }, size: { type: 'integer', maximum: 5 } } } } };
  const old = { metadata: { name: 'w' }, spec: { name: 'toolong', size: 1 } };
  expect(texts(validateCustomResource({ metadata: { name: 'w' }, spec: { name: 'toolong', size: 2 } }, schema, old))).toEqual([]);
  expect(texts(validateCustomResource({ metadata: { name: 'w' }, spec: { name: 'toolong', size: 9 } }, schema, old))).toEqual([
    'spec.size: Invalid value: 9: spec.size in body should be less than or equal to 5',
  ]);
  expect(texts(validateCustomResource({ metadata: { name: 'w' }, spec: { name: 'toolong2', size: 1 } }, schema, old))).toEqual(['spec.name: Too long: may not be more than 3 bytes']);
});

test('defaults must validate against their schema and may not stand in top-level metadata', () => {
  const errs = texts(validateCrd(crd({
    type: 'object',
    properties: {
      metadata: { type: 'object', properties: { name: { type: 'string', default: 'x' } } },
      spec: { type: 'object', properties: { replicas: { type: 'integer', default: 'two' }, mode: { type: 'string', enum: ['a', 'b'], default: 'a' } } },
    },
  }) as never));
  const p = 'spec.validation.openAPIV3Schema.properties';
  expect(errs).toContain(`${p}[spec].properties[replicas].default: Invalid value: "string": spec.replicas in body must be of type integer: "string"`);
  expect(errs.some((e) => e.includes('properties[mode]'))).toBe(false);
  expect(errs.some((e) => e.includes('properties[metadata]') && e.endsWith('.default: Forbidden: must not be set in top-level metadata'))).toBe(true);
});
