/** Where a CRD's schema errors are reported (spec.validation when all versions share a schema) and fieldPath checks. */
import { fieldErrorText } from '../errors/field-errors.js';
import { validateCrd } from './crd-kind.js';
import { fieldPathProblem } from './cel/field-path.js';
import { widgetCrdWithVersions } from './testdata/widget-crd.js';

const version = (name: string, schema: Record<string, unknown>, storage = false) => ({ name, served: true, storage, schema: { openAPIV3Schema: schema } });
const crdWith = (versions: unknown[]) => widgetCrdWithVersions(versions);
const untyped = () => ({ type: 'object', properties: { spec: { type: 'object', properties: { a: {} } } } });
const texts = (crd: unknown): string[] => validateCrd(crd as never).map(fieldErrorText);

test('identical schemas in every version are reported once under spec.validation', () => {
  const errs = texts(crdWith([version('v1', untyped(), true), version('v2', untyped())]));
  expect(errs).toEqual(['spec.validation.openAPIV3Schema.properties[spec].properties[a].type: Required value: must not be empty for specified object fields']);
});

test('differing schemas are reported per version', () => {
  const other = { type: 'object', properties: { spec: { type: 'object', properties: { b: { type: 'array' } } } } };
  expect(texts(crdWith([version('v1', untyped(), true), version('v2', other)]))).toEqual([
    'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[a].type: Required value: must not be empty for specified object fields',
    'spec.versions[1].schema.openAPIV3Schema.properties[spec].properties[b].items: Required value: must be specified',
  ]);
});

test('a fieldPath must name a declared field of the rule\'s node (apiextensions prints no reason)', () => {
  const spec = {
    type: 'object',
    properties: {
      replicas: { type: 'integer' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      tags: { type: 'array', items: { type: 'string' } },
    },
    'x-kubernetes-validations': [
      { rule: 'true', fieldPath: '.replicas' },
      { rule: 'true', fieldPath: ".labels['app.kubernetes.io/name']" },
      { rule: 'true', fieldPath: '.replica' },
      { rule: 'true', fieldPath: '.tags[0]' },
      { rule: 'true', fieldPath: 'replicas' },
      { rule: 'true', fieldPath: '.tags.x' },
      { rule: 'true', fieldPath: ' ' },
    ],
  };
  const errs = texts(crdWith([version('v1', { type: 'object', properties: { spec } }, true)]));
  const v = 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations';
  expect(errs).toEqual([
    `${v}[2].fieldPath: Invalid value: ".replica": fieldPath must be a valid path`,
    `${v}[3].fieldPath: Invalid value: ".tags[0]": fieldPath must be a valid path`,
    `${v}[4].fieldPath: Invalid value: "replicas": fieldPath must be a valid path`,
    `${v}[5].fieldPath: Invalid value: ".tags.x": fieldPath must be a valid path`,
    `${v}[6].fieldPath: Invalid value: " ": fieldPath must be non-empty if specified`,
    `${v}[6].fieldPath: Invalid value: " ": fieldPath must be a valid path`,
  ]);
});

test('fieldPath parsing: quoted keys with dots and escapes, unterminated paths', () => {
  const schema = { type: 'object', properties: { 'a.b': { type: 'object', properties: { c: { type: 'string' } } } } };
  expect(fieldPathProblem("['a.b'].c", schema)).toBeUndefined();
  expect(fieldPathProblem("['a.b'", schema)).toBe('unexpected end of JSON path');
  expect(fieldPathProblem("['a.b'x", schema)).toBe('expected ] but got x');
  expect(fieldPathProblem("['a\\qb']", schema)).toBe('invalid string literal: invalid escape char \\q');
  expect(fieldPathProblem('.', schema)).toBe('unexpected end of JSON path');
});

test('identical subresources and printer columns are reported under spec, differing ones per version', () => {
  const schema = { type: 'object', properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } } } } };
  const withParts = (name: string, storage: boolean, subresources: unknown, columns: unknown) => ({ ...version(name, schema, storage), subresources, additionalPrinterColumns: columns });
  const scale = { scale: { specReplicasPath: '.replicas', statusReplicasPath: '.status.replicas' } };
  const column = [{ name: 'R', type: 'float', jsonPath: '.spec.replicas' }];
  expect(texts(crdWith([withParts('v1', true, scale, column), withParts('v2', false, scale, column)]))).toEqual([
    'spec.subresources.scale.specReplicasPath: Invalid value: ".replicas": should be a json path under .spec',
    'spec.additionalPrinterColumns[0].type: Unsupported value: "float": supported values: "integer", "number", "string", "boolean", "date"',
  ]);
  expect(texts(crdWith([withParts('v1', true, scale, column), withParts('v2', false, undefined, undefined)]))).toEqual([
    'spec.versions[0].additionalPrinterColumns[0].type: Unsupported value: "float": supported values: "integer", "number", "string", "boolean", "date"',
    'spec.versions[0].subresources.scale.specReplicasPath: Invalid value: ".replicas": should be a json path under .spec',
  ]);
});
