/** Server-side apply of atomic maps and structs: one field in the field set, replaced and conflicting as a whole. */
import { ApiError } from '../errors/status-errors.js';
import { builtinListSemantics, leafPaths, toFieldsV1 } from './field-sets.js';
import { serverSideApply } from './managed-fields.js';
import { listSemanticsFromSchema } from '../crd/schema-lists.js';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        selector: { type: 'object', additionalProperties: { type: 'string' }, 'x-kubernetes-map-type': 'atomic' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        items: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['a'], items: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { a: { type: 'string' }, b: { type: 'string' } } } },
      },
    },
  },
};
const lists = listSemanticsFromSchema(schema);
const ctx = (manager: string) => ({ manager, apiVersion: 'example.com/v1', now: Date.parse('2026-11-22T10:00:00Z'), statusSubresource: true, lists });
const obj = (spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't' }, spec });

test('the field set names an atomic map once, a granular map key by key', () => {
  const paths = leafPaths({ spec: { selector: { a: '1', b: '2' }, labels: { a: '1' } } }, lists);
  expect(toFieldsV1(paths)).toEqual({ 'f:spec': { 'f:selector': {}, 'f:labels': { 'f:a': {} } } });
  expect(lists.mapType?.(['spec', 'items'])).toBe('atomic'); // the items' struct type
  // a keyed list of atomic structs: each item is one value
  expect(toFieldsV1(leafPaths({ spec: { items: [{ a: 'x', b: 'y' }] } }, lists))).toEqual({ 'f:spec': { 'f:items': { 'k:{"a":"x"}': {} } } });
  expect(lists.mapType?.(['spec', 'labels'])).toBe('granular');
  expect(lists.mapType?.(['metadata', 'labels'])).toBe('granular');
});

test('apply replaces an atomic map whole and conflicts on it as a whole', () => {
  const first = serverSideApply(undefined, obj({ selector: { a: '1', b: '2' } }), ctx('one'), false);
  let err: unknown;
  try {
    serverSideApply(first, obj({ selector: { a: '1' } }), ctx('two'), false);
  } catch (e) {
    err = e;
  }
  expect((err as ApiError).status.message).toBe('Apply failed with 1 conflict: conflict with "one": .spec.selector');
  const forced = serverSideApply(first, obj({ selector: { c: '3' } }), ctx('two'), true);
  expect((forced.spec as Record<string, unknown>).selector).toEqual({ c: '3' });
  expect(forced.metadata.managedFields!.map((e) => e.manager)).toEqual(['two']);
});

test('an atomic list item conflicts as a whole when a field of it differs', () => {
  const first = serverSideApply(undefined, obj({ items: [{ a: 'x', b: '1' }] }), ctx('one'), false);
  expect(() => serverSideApply(first, obj({ items: [{ a: 'x', b: '2' }] }), ctx('two'), false)).toThrow('conflict with "one": .spec.items[a="x"]');
  const same = serverSideApply(first, obj({ items: [{ a: 'x', b: '1' }] }), ctx('two'), false);
  expect((same.spec as Record<string, unknown>).items).toEqual([{ a: 'x', b: '1' }]);
});

test('built-in kinds: label selectors and node selectors are atomic, configmap data is not', () => {
  expect(builtinListSemantics.mapType?.(['spec', 'selector'])).toBe('atomic');
  expect(builtinListSemantics.mapType?.(['spec', 'template', 'spec', 'nodeSelector'])).toBe('atomic');
  expect(builtinListSemantics.mapType?.(['data'])).toBe('granular');
  expect(builtinListSemantics.mapType?.(['metadata', 'labels'])).toBe('granular');
  expect(builtinListSemantics(['spec', 'ports'])).toMatchObject({ keys: ['port', 'protocol'] });
  expect(builtinListSemantics(['spec', 'containers', 'ports'])).toMatchObject({ keys: ['containerPort', 'protocol'] });
});
