/** Status errors and field-error rendering match apimachinery 1.32 text (embedded-apiserver.md §2.7). */
import { invalid, notSupported, required, tooLong, tooMany, renderValue } from './field-errors.js';
import { alreadyExists, conflict, invalidObject, notFound } from './status-errors.js';

test('NotFound, AlreadyExists and Conflict carry the qualified resource and details.kind = resource', () => {
  expect(notFound({ group: '', resource: 'configmaps' }, 'x').status).toEqual({
    kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'configmaps "x" not found', reason: 'NotFound', details: { name: 'x', kind: 'configmaps' }, code: 404,
  });
  expect(alreadyExists({ group: 'example.com', resource: 'widgets' }, 'w1').status.message).toBe('widgets.example.com "w1" already exists');
  expect(conflict({ group: 'batch', resource: 'jobs' }, 'j').status).toMatchObject({
    code: 409,
    reason: 'Conflict',
    message: 'Operation cannot be fulfilled on jobs.batch "j": the object has been modified; please apply your changes to the latest version and try again',
    details: { name: 'j', group: 'batch', kind: 'jobs' },
  });
});

test('Invalid has details.kind = Kind, one cause per field error, and bracketed messages when several', () => {
  const one = invalidObject('ConfigMap', '', 'cm', [required('metadata.name', 'name or generateName is required')]);
  expect(one.status.message).toBe('ConfigMap "cm" is invalid: metadata.name: Required value: name or generateName is required');
  const two = invalidObject('Widget', 'example.com', 'w', [notSupported('spec.color', 'blue', ['red', 'green']), tooLong('spec.name', 5)]);
  expect(two.status.message).toBe('Widget.example.com "w" is invalid: [spec.color: Unsupported value: "blue": supported values: "red", "green", spec.name: Too long: may not be more than 5 bytes]');
  expect(two.status.details).toEqual({
    name: 'w', group: 'example.com', kind: 'Widget',
    causes: [
      { reason: 'FieldValueNotSupported', message: 'Unsupported value: "blue": supported values: "red", "green"', field: 'spec.color' },
      { reason: 'FieldValueTooLong', message: 'Too long: may not be more than 5 bytes', field: 'spec.name' },
    ],
  });
  expect(invalidObject('X', '', 'x', [tooMany('spec.items', 4, 3)]).status.message).toBe('X "x" is invalid: spec.items: Too many: 4: must have at most 3 items');
});

test('values render as Go does: scalars bare, strings quoted, composites in %#v syntax', () => {
  expect(renderValue(3)).toBe('3');
  expect(renderValue('a"b')).toBe('"a\\"b"');
  expect(renderValue(null)).toBe('null');
  expect(renderValue({ b: 1, a: 'x' })).toBe('map[string]interface {}{"a":"x", "b":1}');
  expect(renderValue(['x'])).toBe('[]interface {}{"x"}');
  expect(invalid('f', 0, 'd').detail).toBe('d');
});
