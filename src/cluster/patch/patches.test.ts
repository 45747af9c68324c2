/** Merge patch (RFC 7386), JSON patch (RFC 6902) and strategic merge patch semantics. */
import { ApiError } from '../errors/status-errors.js';
import { JsonPatchError, applyJsonPatch } from './json-patch.js';
import { applyMergePatch } from './merge-patch.js';
import { applyStrategicMergePatch } from './strategic-merge-patch.js';

test('merge patch: objects merge, null deletes, arrays replace', () => {
  expect(applyMergePatch({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { b: null, d: 3 }, l: [3] })).toEqual({ a: { c: 2, d: 3 }, l: [3] });
});

test('JSON patch: all six operations, and failures with the library message', () => {
  const doc = { a: [1, 2], b: { c: 'x' } };
  const out = applyJsonPatch(doc, [
    { op: 'add', path: '/a/-', value: 3 },
    { op: 'replace', path: '/b/c', value: 'y' },
    { op: 'copy', from: '/b/c', path: '/d' },
    { op: 'move', from: '/d', path: '/e' },
    { op: 'remove', path: '/a/0' },
    { op: 'test', path: '/e', value: 'y' },
  ]);
  expect(out).toEqual({ a: [2, 3], b: { c: 'y' }, e: 'y' });
  expect(doc.a).toEqual([1, 2]);
  expect(() => applyJsonPatch(doc, [{ op: 'test', path: '/b/c', value: 'z' }])).toThrow(new JsonPatchError('testing value /b/c failed: test failed'));
  expect(() => applyJsonPatch(doc, [{ op: 'replace', path: '/nope/x', value: 1 }])).toThrow('doc is missing path: "/nope/x": missing value');
});

test('JSON patch: a move or copy without a string from is the library error (a 422), not a crash', () => {
  const doc = { a: 1 };
  expect(() => applyJsonPatch(doc, [{ op: 'move', path: '/b' }])).toThrow(new JsonPatchError('move operation failed to decode from: operation, missing from field: missing value'));
  expect(() => applyJsonPatch(doc, [{ op: 'copy', path: '/b', from: null }])).toThrow(new JsonPatchError('copy operation failed to decode from: operation, missing from field: missing value'));
  expect(() => applyJsonPatch(doc, [{ op: 'copy', path: '/b', from: 7 }])).toThrow(new JsonPatchError('copy operation failed to decode from: json: cannot unmarshal number into Go value of type string'));
  expect(applyJsonPatch(doc, [{ op: 'copy', path: '/b', from: '/a' }])).toEqual({ a: 1, b: 1 });
});

test('strategic merge: keyed lists merge by name, finalizers union, $patch and $setElementOrder directives', () => {
  const pod = { spec: { containers: [{ name: 'a', image: 'a:1' }, { name: 'b', image: 'b:1' }], tolerations: [{ key: 'x' }] }, metadata: { finalizers: ['f1'] } };
  const out = applyStrategicMergePatch(pod, {
    metadata: { finalizers: ['f2'] },
    spec: {
      containers: [{ name: 'b', image: 'b:2' }, { name: 'a', $patch: 'delete' }, { name: 'c', image: 'c:1' }],
      tolerations: [{ key: 'y' }],
    },
  }) as any;
  expect(out.spec.containers).toEqual([{ name: 'b', image: 'b:2' }, { name: 'c', image: 'c:1' }]);
  expect(out.spec.tolerations).toEqual([{ key: 'y' }]);
  expect(out.metadata.finalizers).toEqual(['f1', 'f2']);
  const ordered = applyStrategicMergePatch(pod, { spec: { '$setElementOrder/containers': [{ name: 'b' }, { name: 'a' }] } }) as any;
  expect(ordered.spec.containers.map((c: { name: string }) => c.name)).toEqual(['b', 'a']);
  expect(() => applyStrategicMergePatch(pod, { spec: { $bogus: 1 } })).toThrow(ApiError);
});
