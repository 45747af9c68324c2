/** ObjectStore: one increasing resourceVersion, history replay, snapshots, compaction → 410. */
import { ApiError } from '../errors/status-errors.js';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { asStored } from './kube-object.js';
import { ObjectStore, type StoreEvent } from './object-store.js';

const obj = (name: string, data = {}) => ({ metadata: { name, namespace: 'ns' }, data });

test('every commit across buckets gets the next resourceVersion and reaches listeners in order', () => {
  const store = new ObjectStore({ initialResourceVersion: 1000 });
  const events: StoreEvent[] = [];
  store.onCommit((e) => events.push(e));
  const a = store.create('configmaps', obj('a'));
  const b = store.create('secrets', obj('b'));
  const a2 = store.update('configmaps', { ...a, data: { x: 1 } });
  const gone = store.delete('secrets', 'ns', 'b');
  expect([a, b, a2, gone!].map((o) => o.metadata.resourceVersion)).toEqual(['1001', '1002', '1003', '1004']);
  expect(events.map((e) => `${e.type}:${e.bucket}:${e.rv}`)).toEqual(['ADDED:configmaps:1001', 'ADDED:secrets:1002', 'MODIFIED:configmaps:1003', 'DELETED:secrets:1004']);
  expect(events[3]!.object.metadata.resourceVersion).toBe('1004');
  expect(b.metadata.resourceVersion).toBe('1002');
});

test('listAt of one namespace replays only its history and hands out the stored (frozen) objects', () => {
  const store = new ObjectStore({ initialResourceVersion: 10 });
  store.create('cm', obj('a'));
  store.create('cm', { metadata: { name: 'other', namespace: 'elsewhere' }, data: {} });
  const at = store.resourceVersion;
  store.update('cm', { ...obj('a'), data: { changed: 'yes' } });
  store.create('cm', { metadata: { name: 'later', namespace: 'elsewhere' }, data: {} });
  const page = store.listAt('cm', at, 'ns');
  expect(page.map((o) => [o.metadata.name, o.metadata.resourceVersion])).toEqual([['a', '11']]);
  expect(Object.isFrozen(page[0])).toBe(true);
  expect(store.listAt('cm', at).map((o) => o.metadata.name)).toEqual(['other', 'a']);
});

test('listAt reconstructs a bucket as it was; eventsSince replays; compaction answers 410 Expired', () => {
  const store = new ObjectStore({ initialResourceVersion: 10 });
  store.create('cm', obj('a'));
  store.create('cm', obj('b'));
  const at = store.resourceVersion;
  store.delete('cm', 'ns', 'a');
  store.create('cm', obj('c'));
  expect(store.listAt('cm', at).map((o) => o.metadata.name)).toEqual(['a', 'b']);
  expect(store.list('cm').map((o) => o.metadata.name)).toEqual(['b', 'c']);
  expect(store.eventsSince(at).map((e) => e.type)).toEqual(['DELETED', 'ADDED']);
  store.compactHistory();
  try {
    store.eventsSince(at);
    throw new Error('expected 410');
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toMatchObject({ code: 410, reason: 'Expired', message: `too old resource version: ${at} (${store.resourceVersion + 1})` });
  }
});

test('history is bounded: the oldest events drop out', () => {
  const store = new ObjectStore({ initialResourceVersion: 0, historyLimit: 3 });
  for (let i = 0; i < 5; i++) store.create('cm', obj(`o${i}`));
  expect(store.oldestResourceVersion).toBe(2);
  expect(store.eventsSince(2).map((e) => e.rv)).toEqual([3, 4, 5]);
  expect(() => store.eventsSince(1)).toThrow('too old resource version: 1 (3)');
});

test('objects handed out are copies', () => {
  const store = new ObjectStore();
  const a = store.create('cm', obj('a', { k: 'v' }));
  asStored<ConfigMap>(a).data!.k = 'changed';
  expect(store.get('cm', 'ns', 'a')!.data).toEqual({ k: 'v' });
});
