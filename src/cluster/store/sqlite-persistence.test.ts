/** SqliteClusterData under ObjectStore: write-through before apply, reload, durability settings. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectStore, type StoreEvent } from './object-store.js';
import { SqliteClusterData } from './sqlite-persistence.js';

const dirs: string[] = [];
const newDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'kubeforge-sqlite-'));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const obj = (name: string, data = {}) => ({ metadata: { name, namespace: 'ns' }, data });

test('every committed change is in the database; a reopened store has the objects and the counter, no history', () => {
  const dir = newDir();
  const data = new SqliteClusterData(dir);
  expect(data.durability).toEqual({ journalMode: 'wal', synchronous: 2 }); // 2 = FULL
  expect(data.load()).toBeUndefined();
  const store = new ObjectStore({ initialResourceVersion: 1000, persistence: data });
  const a = store.create('configmaps', obj('a'));
  store.create('configmaps', obj('b'));
  store.update('configmaps', { ...a, data: { x: '1' } });
  store.delete('configmaps', 'ns', 'b');
  store.create('widgets.example.com', { metadata: { name: 'cluster-wide' }, spec: {} });
  data.close();

  const reopened = new SqliteClusterData(dir);
  const state = reopened.load()!;
  expect(state.resourceVersion).toBe(1005);
  const restored = new ObjectStore({ initialResourceVersion: 1000, persistence: reopened });
  restored.restore(state);
  expect(restored.resourceVersion).toBe(1005);
  expect(restored.get('configmaps', 'ns', 'a')).toMatchObject({ data: { x: '1' }, metadata: { resourceVersion: '1003' } });
  expect(restored.get('configmaps', 'ns', 'b')).toBeUndefined();
  expect(restored.get('widgets.example.com', undefined, 'cluster-wide')?.metadata.resourceVersion).toBe('1005');
  expect(Object.isFrozen(restored.peek('configmaps', 'ns', 'a'))).toBe(true);
  expect(() => restored.eventsSince(1004)).toThrow('too old resource version: 1004 (1006)');
  const announced: StoreEvent[] = [];
  restored.onCommit((e) => announced.push(e));
  restored.announceExisting();
  expect(announced.map((e) => `${e.type}:${e.bucket}:${e.object.metadata.name}:${e.rv}`).sort()).toEqual(['ADDED:configmaps:a:1003', 'ADDED:widgets.example.com:cluster-wide:1005']);
  expect(restored.eventsSince(1005)).toEqual([]);
  expect(restored.create('configmaps', obj('c')).metadata.resourceVersion).toBe('1006');
  reopened.close();
});

test('a change the database refuses is not applied, announced, or counted', () => {
  const refusing = { write: () => { throw new Error('disk full'); } };
  const store = new ObjectStore({ initialResourceVersion: 1000, persistence: refusing });
  const events: StoreEvent[] = [];
  store.onCommit((e) => events.push(e));
  expect(() => store.create('configmaps', obj('a'))).toThrow('disk full');
  expect([store.get('configmaps', 'ns', 'a'), store.resourceVersion, events.length]).toEqual([undefined, 1000, 0]);
});

test('fresh empties the directory', () => {
  const dir = newDir();
  const data = new SqliteClusterData(dir);
  new ObjectStore({ persistence: data }).create('configmaps', obj('a'));
  data.setMeta('adminToken', 'secret');
  data.close();
  const fresh = new SqliteClusterData(dir, { fresh: true });
  expect([fresh.load(), fresh.meta('adminToken')]).toEqual([undefined, undefined]);
  fresh.close();
});
