/**
 * The watcher alone, against a scripted server: its states (list pages with continue tokens, watching from
 * the list's version, re-watching from a bookmark's, relisting on 410, listing the latest when that is
 * refused, verifying the server after a lost connection) and the events it yields in each.
 */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { runInNewContext } from 'node:vm';
import { ApiError } from '../client/api-error.js';
import { BuiltinKinds, type KindInfo } from '../client/kinds.js';
import { hasDecodedShape, keepDecodedShape } from '../keep-shape.js';
import { cm, event, scriptedServer } from './testdata/scripted-server.js';
import { failureState } from './watch-failure-log.js';
import { WatchEndedError, type WatchEvent } from './watch-event.js';
import { watch, type Watcher, type WatcherState } from './watcher.js';

function describe_(e: WatchEvent<ConfigMap>): string {
  switch (e.type) {
    case 'Init':
      return e.cause ? `Init (${e.cause.name})` : 'Init';
    case 'InitApply':
    case 'Apply':
    case 'Delete':
      return `${e.type} ${e.object.metadata!.name}@${e.object.metadata!.resourceVersion}`;
    case 'InitDone':
    case 'WatchOpened':
    case 'Bookmark':
      return `${e.type} ${e.resourceVersion}`;
    case 'Error':
      return `Error ${e.error.name}`;
  }
}

/** Pulls `n` events from the watcher, each described, with the state after it. */
async function pull(w: Watcher<ConfigMap>, it: AsyncIterator<WatchEvent<ConfigMap>>, n: number): Promise<Array<[string, WatcherState]>> {
  const out: Array<[string, WatcherState]> = [];
  for (let i = 0; i < n; i++) {
    const r = await it.next();
    if (r.done) throw new Error(`the watcher ended after ${out.length} events`);
    out.push([describe_(r.value), JSON.parse(JSON.stringify(w.state)) as WatcherState]);
  }
  return out;
}

const status = (code: number, reason: string) => ({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason, message: reason });

test('lists page by page (limit/continue), then watches from the list\'s resourceVersion; its state is printable', async () => {
  const server = scriptedServer([
    { items: [cm('a', '3'), cm('b', '4')], resourceVersion: '10', continue: 'page2' },
    { items: [cm('c', '5')], resourceVersion: '10' },
  ]);
  const states: string[] = [];
  const w = watch(server.client, BuiltinKinds.ConfigMap, { transport: server.transport, pageSize: 2, onStateChange: (s) => states.push(s.phase) });
  const it = w[Symbol.asyncIterator]();
  const seen = await pull(w, it, 6);
  expect(seen.map(([e]) => e)).toEqual(['Init', 'InitApply a@3', 'InitApply b@4', 'InitApply c@5', 'InitDone 10', 'WatchOpened 10']);
  expect(seen[0]![1]).toEqual({ phase: 'listing', from: '0', listed: 0 });
  expect(seen[2]![1]).toEqual({ phase: 'listing', from: '0', continue: 'page2', listed: 2 }); // page 1 fetched, page 2 next
  expect(seen[3]![1]).toEqual({ phase: 'watching', resourceVersion: '10', open: false }); // the last page: listed, not yet watching
  expect(seen[5]![1]).toEqual({ phase: 'watching', resourceVersion: '10', open: true });
  expect(server.listCalls).toEqual(['rv=0 limit=2', 'rv=0 limit=2 continue=page2']);
  expect(server.watchCalls).toEqual(['10']);
  expect(states).toEqual(['listing', 'watching', 'watching']);
  w.stop();
  expect(await it.next()).toEqual({ done: true, value: undefined });
  expect(w.state).toEqual({ phase: 'stopped', resourceVersion: '10' });
});

test('yields adds, updates, deletes and bookmarks; re-watches from the last bookmark when the server ends the watch', async () => {
  const server = scriptedServer([{ items: [cm('a', '3')], resourceVersion: '10' }], [
    { lines: [event('ADDED', cm('d', '11')), event('MODIFIED', cm('a', '12')), event('DELETED', cm('d', '13')), event('BOOKMARK', { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: '20' } })], end: true },
    {},
  ]);
  const w = watch(server.client, BuiltinKinds.ConfigMap, { transport: server.transport });
  const it = w[Symbol.asyncIterator]();
  const seen = await pull(w, it, 9);
  expect(seen.map(([e]) => e)).toEqual(['Init', 'InitApply a@3', 'InitDone 10', 'WatchOpened 10', 'Apply d@11', 'Apply a@12', 'Delete d@13', 'Bookmark 20', 'WatchOpened 20']);
  expect(seen[7]![1]).toEqual({ phase: 'watching', resourceVersion: '20', open: true });
  expect(server.watchCalls).toEqual(['10', '20']);
  expect(w.resourceVersion).toBe('20');
  w.stop();
  await it.next();
});

test('410 Gone on the watch: relists from the last seen version (whole, no limit), no Error event, then watches again', async () => {
  const server = scriptedServer(
    [
      { items: [cm('a', '3')], resourceVersion: '10' },
      { items: [cm('a', '30')], resourceVersion: '31' },
    ],
    [{ lines: [event('BOOKMARK', { metadata: { resourceVersion: '15' } }), event('ERROR', status(410, 'Expired'))] }, {}],
  );
  const w = watch(server.client, BuiltinKinds.ConfigMap, { transport: server.transport });
  const it = w[Symbol.asyncIterator]();
  const seen = await pull(w, it, 9);
  expect(seen.map(([e]) => e)).toEqual(['Init', 'InitApply a@3', 'InitDone 10', 'WatchOpened 10', 'Bookmark 15', 'Init (ApiError)', 'InitApply a@30', 'InitDone 31', 'WatchOpened 31']);
  expect(seen[5]![1]).toMatchObject({ phase: 'listing', from: '15', cause: expect.stringContaining('Expired') });
  expect(server.listCalls).toEqual(['rv=0 limit=500', 'rv=15 limit=-']);
  expect(server.watchCalls).toEqual(['10', '31']);
  w.stop();
  await it.next();
});

test('a relist refused as too old lists the latest at once, paginated', async () => {
  const server = scriptedServer(
    [
      { items: [cm('a', '3')], resourceVersion: '10' },
      new ApiError(410, status(410, 'Expired') as never, 'list'),
      { items: [cm('b', '40')], resourceVersion: '41' },
    ],
    [{ lines: [event('ERROR', status(410, 'Expired'))] }, {}],
  );
  const w = watch(server.client, BuiltinKinds.ConfigMap, { transport: server.transport, pageSize: 7 });
  const it = w[Symbol.asyncIterator]();
  const seen = await pull(w, it, 9);
  expect(seen.map(([e]) => e)).toEqual(['Init', 'InitApply a@3', 'InitDone 10', 'WatchOpened 10', 'Init (ApiError)', 'Init', 'InitApply b@40', 'InitDone 41', 'WatchOpened 41']);
  expect(server.listCalls).toEqual(['rv=0 limit=7', 'rv=10 limit=-', 'rv= limit=7']);
  w.stop();
  await it.next();
});

test('a failed connection yields an Error, then the watcher verifies the server did not go back in time before resuming', async () => {
  const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  const server = scriptedServer(
    [
      { items: [cm('a', '3')], resourceVersion: '10' },
      { items: [], resourceVersion: '12' },
    ],
    [refused, {}],
  );
  const w = watch(server.client, BuiltinKinds.ConfigMap, { transport: server.transport });
  const it = w[Symbol.asyncIterator]();
  const seen = await pull(w, it, 5);
  expect(seen.map(([e]) => e)).toEqual(['Init', 'InitApply a@3', 'InitDone 10', 'Error Error', 'WatchOpened 10']);
  expect(seen[3]![1]).toEqual({ phase: 'verifying', resourceVersion: '10' });
  expect(server.listCalls).toEqual(['rv=0 limit=500', 'rv= limit=1']); // the check: the latest version, one item
  expect(server.watchCalls).toEqual(['10', '10']);
  w.stop();
  await it.next();
});

test('a refused connection from another realm (Node\'s socket errors seen from jest) keeps its code through the watcher', async () => {
  const refused = runInNewContext(`Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6443'), { code: 'ECONNREFUSED' })`) as Error;
  expect(refused instanceof Error).toBe(false);
  const server = scriptedServer(
    [
      { items: [], resourceVersion: '10' },
      { items: [], resourceVersion: '12' },
    ],
    [refused, {}],
  );
  const w = watch(server.client, BuiltinKinds.ConfigMap, { transport: server.transport });
  const it = w[Symbol.asyncIterator]();
  expect((await pull(w, it, 2)).map(([e]) => e)).toEqual(['Init', 'InitDone 10']);
  const failure = (await it.next()).value as WatchEvent<ConfigMap>;
  if (failure.type !== 'Error') throw new Error(`expected an Error event, got ${failure.type}`);
  expect(failure.error).toBe(refused); // was a new Error without the code
  expect(failureState(failure.error)).toBe('unreachable'); // was 'Error': a lost server logged twice
  w.stop();
  await it.next();
});

test('restartWatch drops the open watch: an Error with the reason, then a watch from the last version', async () => {
  const server = scriptedServer([{ items: [], resourceVersion: '10' }], [{ lines: [event('ADDED', cm('a', '11'))] }, {}]);
  const w = watch(server.client, BuiltinKinds.ConfigMap, { transport: server.transport });
  const it = w[Symbol.asyncIterator]();
  expect((await pull(w, it, 4)).map(([e]) => e)).toEqual(['Init', 'InitDone 10', 'WatchOpened 10', 'Apply a@11']);
  const pending = it.next();
  w.restartWatch(new WatchEndedError('told to'));
  const next = await pending;
  expect(next.done).toBe(false);
  expect(describe_(next.value as WatchEvent<ConfigMap>)).toBe('Error WatchEndedError');
  expect(server.opened[0]!.aborted).toBe(true);
  expect((await pull(w, it, 1)).map(([e]) => e)).toEqual(['WatchOpened 11']);
  expect(server.watchCalls).toEqual(['10', '11']);
  w.stop();
  await it.next();
});

test('keeps the first small object it decodes of a kind for its shape (keepDecodedShape), never one over 16 KiB of JSON', async () => {
  const widget = { group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true } as KindInfo<ConfigMap>;
  const big = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { namespace: 'ns', name: 'big', resourceVersion: '11' }, data: { blob: 'x'.repeat(20_000) } };
  const small = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { namespace: 'ns', name: 'small', resourceVersion: '12' }, data: {} };
  const server = scriptedServer([{ items: [], resourceVersion: '10' }], [{ lines: [event('ADDED', big)] }]);
  const w = watch(server.client, widget, { transport: server.transport });
  const it = w[Symbol.asyncIterator]();
  expect(hasDecodedShape('example.com/v1/Widget')).toBe(false);
  expect((await pull(w, it, 4)).map(([e]) => e)).toEqual(['Init', 'InitDone 10', 'WatchOpened 10', 'Apply big@11']);
  expect(hasDecodedShape('example.com/v1/Widget')).toBe(false); // over the bound: not kept
  server.opened[0]!.write(event('ADDED', small));
  expect((await pull(w, it, 1)).map(([e]) => e)).toEqual(['Apply small@12']);
  expect(hasDecodedShape('example.com/v1/Widget')).toBe(true);
  expect(keepDecodedShape('example.com/v1/Widget', [{}])).toBe(false); // the first objects stay
  w.stop();
  await it.next();
});
