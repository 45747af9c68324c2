/** reflect() alone: the store follows the events, lists are swapped in whole, and events pass on with `old`/`changes`. */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { ObjectStore } from './object-store.js';
import { reflect } from './reflect.js';
import { cm } from './testdata/scripted-server.js';
import type { WatchEvent } from './watch-event.js';

const names = (store: ObjectStore<ConfigMap>) => [...store.values()].map((o) => `${o.metadata!.name}@${o.metadata!.resourceVersion}`).sort();

test('a list is swapped in whole at InitDone, then applies and deletes update the store; every event passes on', async () => {
  const store = new ObjectStore<ConfigMap>();
  store.addIndex('owner', (o) => o.data?.owner);
  const sizeAt: Record<string, number> = {};
  async function* events(): AsyncGenerator<WatchEvent<ConfigMap>> {
    yield { type: 'Init' };
    yield { type: 'InitApply', object: cm('a', '1', { owner: 'x' }) };
    sizeAt.midList = store.size; // nothing swapped in yet
    yield { type: 'InitApply', object: cm('b', '2') };
    yield { type: 'InitDone', resourceVersion: '2' };
    yield { type: 'Apply', object: cm('c', '3', { owner: 'x' }) };
    yield { type: 'Apply', object: cm('a', '4', { owner: 'y' }) };
    yield { type: 'Delete', object: cm('b', '5') };
    yield { type: 'Bookmark', resourceVersion: '6' };
  }
  const passed: Array<WatchEvent<ConfigMap>> = [];
  for await (const e of reflect(events(), store)) passed.push(e);

  expect(sizeAt.midList).toBe(0);
  expect(passed.map((e) => e.type)).toEqual(['Init', 'InitApply', 'InitApply', 'InitDone', 'Apply', 'Apply', 'Delete', 'Bookmark']);
  expect(names(store)).toEqual(['a@4', 'c@3']);
  expect(store.byIndex('owner', 'x')).toEqual(['ns/c']);
  const done = passed[3] as Extract<WatchEvent<ConfigMap>, { type: 'InitDone' }>;
  expect(done.changes!.map((c) => `${c.type} ${c.object.metadata!.name}`)).toEqual(['added a', 'added b']);
  expect((passed[4] as { old?: ConfigMap }).old).toBeUndefined(); // c is new
  expect((passed[5] as { old?: ConfigMap }).old?.metadata?.resourceVersion).toBe('1'); // a was at 1
  expect((passed[6] as { old?: ConfigMap }).old?.metadata?.resourceVersion).toBe('2'); // the stored b, not the event's
});

test('a relist reports deletes first, then adds and updates in list order; unchanged objects are not updates', async () => {
  const store = new ObjectStore<ConfigMap>();
  for (const o of [cm('keep', '1'), cm('gone', '2'), cm('changed', '3')]) store.upsert(`ns/${o.metadata!.name}`, o);
  async function* events(): AsyncGenerator<WatchEvent<ConfigMap>> {
    yield { type: 'Init' };
    yield { type: 'InitApply', object: cm('new', '9') };
    yield { type: 'InitApply', object: cm('changed', '8') };
    yield { type: 'InitApply', object: cm('keep', '1') };
    yield { type: 'InitDone', resourceVersion: '9' };
  }
  let changes: string[] = [];
  for await (const e of reflect(events(), store)) if (e.type === 'InitDone') changes = e.changes!.map((c) => `${c.type} ${c.object.metadata!.name}`);
  expect(changes).toEqual(['deleted gone', 'added new', 'updated changed']);
  expect(names(store)).toEqual(['changed@8', 'keep@1', 'new@9']);
});

test('a list abandoned half way (a new Init) leaves the store as it was', async () => {
  const store = new ObjectStore<ConfigMap>();
  store.upsert('ns/old', cm('old', '1'));
  async function* events(): AsyncGenerator<WatchEvent<ConfigMap>> {
    yield { type: 'Init' };
    yield { type: 'InitApply', object: cm('half', '5') };
    yield { type: 'Error', error: new Error('page 2 failed') };
    yield { type: 'Init' };
    yield { type: 'InitApply', object: cm('whole', '6') };
    yield { type: 'InitDone', resourceVersion: '6' };
  }
  const sizes: number[] = [];
  for await (const e of reflect(events(), store)) if (e.type === 'Error') sizes.push(store.size);
  expect(sizes).toEqual([1]);
  expect(names(store)).toEqual(['whole@6']);
});
