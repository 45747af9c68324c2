/** Transition rules (oldSelf, optionalOldSelf, map-list correlation), messageExpression/reason/fieldPath, and the CRD-time checks of rule fields. */
import { fieldErrorText } from '../errors/field-errors.js';
import { validateCrd } from './crd-kind.js';
import { validateCustomResource } from './schema-validation.js';
import { widget, widgetCrd, withSpec } from './testdata/widget-crd.js';

const crdWith = (spec: Record<string, unknown>) => widgetCrd(withSpec(spec));
const texts = (errs: Parameters<typeof fieldErrorText>[0][]): string[] => errs.map(fieldErrorText);
const p = 'spec.validation.openAPIV3Schema.properties[spec]';

test('transition rules run on update only, with oldSelf correlated through map lists by key', () => {
  const spec = {
    type: 'object',
    properties: {
      ports: {
        type: 'array',
        maxItems: 8,
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['name'],
        items: {
          type: 'object',
          required: ['name'],
          properties: { name: { type: 'string', maxLength: 10 }, port: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self >= oldSelf', message: 'port may only grow' }] } },
        },
      },
    },
  };
  const crd = crdWith(spec);
  expect(validateCrd(crd as never)).toEqual([]);
  const schema = crd.spec.versions[0]!.schema.openAPIV3Schema;
  const old = widget({ ports: [{ name: 'a', port: 80 }, { name: 'b', port: 90 }] });
  expect(validateCustomResource(widget({ ports: [{ name: 'b', port: 10 }] }), schema)).toEqual([]);
  expect(texts(validateCustomResource(widget({ ports: [{ name: 'b', port: 91 }, { name: 'a', port: 70 }, { name: 'c', port: 1 }] }), schema, old))).toEqual([
    'spec.ports[1].port: Invalid value: "integer": port may only grow',
  ]);
});

test('optionalOldSelf runs the rule on create too, with oldSelf an optional', () => {
  const spec = {
    type: 'object',
    properties: { mode: { type: 'string', maxLength: 10 } },
    'x-kubernetes-validations': [{ rule: 'oldSelf.hasValue() || self.mode == "new"', message: 'must start in mode new', optionalOldSelf: true }],
  };
  const crd = crdWith(spec);
  expect(validateCrd(crd as never)).toEqual([]);
  const schema = crd.spec.versions[0]!.schema.openAPIV3Schema;
  expect(texts(validateCustomResource(widget({ mode: 'old' }), schema))).toEqual(['spec: Invalid value: "object": must start in mode new']);
  expect(validateCustomResource(widget({ mode: 'old' }), schema, widget({ mode: 'new' }))).toEqual([]);
});

test('messageExpression, reason and fieldPath shape the error; a failing messageExpression falls back to message', () => {
  const spec = {
    type: 'object',
    properties: { replicas: { type: 'integer' }, names: { type: 'array', maxItems: 4, items: { type: 'string', maxLength: 8 } } },
    'x-kubernetes-validations': [
      { rule: 'self.replicas < 10', messageExpression: '"too many replicas: " + string(self.replicas)', reason: 'FieldValueForbidden', fieldPath: '.replicas' },
      { rule: 'self.names.size() > 0', reason: 'FieldValueRequired', fieldPath: '.names' },
      { rule: 'self.replicas != 3', message: 'three is right out', messageExpression: 'self.names[5]' },
      { rule: 'self.names.all(n, self.names.exists_one(m, m == n))', reason: 'FieldValueDuplicate' },
    ],
  };
  const crd = crdWith(spec);
  expect(validateCrd(crd as never)).toEqual([]);
  const schema = crd.spec.versions[0]!.schema.openAPIV3Schema;
  expect(texts(validateCustomResource(widget({ replicas: 12, names: [] }), schema))).toEqual([
    'spec.replicas: Forbidden: too many replicas: 12',
    'spec.names: Required value: failed rule: self.names.size() > 0',
  ]);
  expect(texts(validateCustomResource(widget({ replicas: 3, names: ['a', 'a'] }), schema))).toEqual([
    'spec: Invalid value: "object": three is right out',
    'spec: Duplicate value: "object"',
  ]);
});

test('CRD-time checks of the rule fields: shape errors first, and they leave the node\'s rules uncompiled', () => {
  const rules = (validations: unknown[]) =>
    texts(
      validateCrd(
        crdWith({
          type: 'object',
          properties: {
            tags: { type: 'array', maxItems: 4, items: { type: 'string', maxLength: 5, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } },
            n: { type: 'integer' },
          },
          'x-kubernetes-validations': validations,
        }) as never,
      ),
    );
  const v = `${p}.x-kubernetes-validations`;
  const uncorrelatable = `${p}.properties[tags].items.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${p}.properties[tags]`;
  expect(
    rules([
      { rule: 'self.n > 0', reason: 'Wrong', message: ' ' },
      { rule: 'self.n > 1', messageExpression: 'self.n', optionalOldSelf: true },
      { rule: 'self.n > 3', message: 'two\nlines' },
      { rule: '' },
      { rule: 'self.n > 4\n&& true', messageExpression: ' ' },
    ]),
  ).toEqual([
    `${v}[0].message: Invalid value: " ": message must be non-empty if specified`,
    `${v}[0].reason: Unsupported value: "Wrong": supported values: "FieldValueDuplicate", "FieldValueForbidden", "FieldValueInvalid", "FieldValueRequired"`,
    `${v}[2].message: Invalid value: "two\\nlines": message must not contain line breaks`,
    `${v}[3].rule: Required value: rule is not specified`,
    `${v}[4].message: Required value: message must be specified if rule contains line breaks`,
    `${v}[4].messageExpression: Required value: messageExpression must be non-empty if specified`,
    uncorrelatable,
  ]);
  expect(
    rules([
      { rule: 'self.n > 1', messageExpression: 'self.n', optionalOldSelf: true },
      { rule: 'self.n > 2', messageExpression: 'self.nope' },
    ]),
  ).toEqual([
    uncorrelatable,
    `${v}[0].messageExpression: Invalid value: apiextensions.ValidationRule{Rule:"self.n > 1", Message:"", MessageExpression:"self.n", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(0xc000a1e000)}: messageExpression must evaluate to a string`,
    `${v}[0].optionalOldSelf: Invalid value: true: may not be set if oldSelf is not used in rule`,
    `${v}[1].messageExpression: Invalid value: apiextensions.ValidationRule{Rule:"self.n > 2", Message:"", MessageExpression:"self.nope", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: messageExpression compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope\n | ....^`,
  ]);
});

test('objects, lists of objects and maps compare with == (immutability rules on structs)', () => {
  const spec = {
    type: 'object',
    properties: {
      ref: { type: 'object', properties: { name: { type: 'string', maxLength: 10 }, ports: { type: 'array', maxItems: 3, items: { type: 'integer' } } }, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'ref is immutable' }] },
      refs: { type: 'array', maxItems: 3, items: { type: 'object', properties: { name: { type: 'string', maxLength: 10 } } }, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'refs are immutable' }] },
      labels: { type: 'object', maxProperties: 3, additionalProperties: { type: 'string', maxLength: 10 }, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'labels are immutable' }] },
    },
  };
  const crd = crdWith(spec);
  expect(validateCrd(crd as never)).toEqual([]);
  const schema = crd.spec.versions[0]!.schema.openAPIV3Schema;
  const v1 = widget({ ref: { name: 'a', ports: [1, 2] }, refs: [{ name: 'x' }], labels: { a: 'b' } });
  expect(validateCustomResource(widget({ ref: { name: 'a', ports: [1, 2] }, refs: [{ name: 'x' }], labels: { a: 'b' } }), schema, v1)).toEqual([]);
  expect(texts(validateCustomResource(widget({ ref: { name: 'a', ports: [2, 1] }, refs: [{ name: 'y' }], labels: { a: 'c' } }), schema, v1))).toEqual([
    'spec.ref: Invalid value: "object": ref is immutable',
    'spec.refs: Invalid value: "array": refs are immutable',
    'spec.labels: Invalid value: "object": labels are immutable',
  ]);
});
