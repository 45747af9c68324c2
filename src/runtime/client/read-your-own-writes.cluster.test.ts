/**
 * Read-your-own-writes on the local cluster, over the socket: the manager's watch stream is held on the
 * client side (its bytes buffered until released), so the cache is stale for as long as the test decides —
 * no wall-clock sleeps. Without the option a cached read right after the client's own write shows the old
 * object; with it the read waits for the watch and shows the write, or, past the timeout on the virtual
 * clock, reads the API server.
 */
import { EventEmitter } from 'node:events';
import type http from 'node:http';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import pino from 'pino';
import { startLocalCluster } from '../../cluster/index.js';
import { Manager, type ManagerOptions } from '../manager/manager.js';
import { isNotFound } from './api-error.js';
import { BuiltinKinds } from './kinds.js';
import type { StreamHandle } from './transport.js';

type Cluster = Awaited<ReturnType<typeof startLocalCluster>>;
let cluster: Cluster;
let managers: Manager[] = [];
let gates: WatchGate[] = [];

beforeEach(async () => {
  managers = [];
  gates = [];
  cluster = await startLocalCluster({ authz: 'alwaysAllow', now: '2024-01-15T10:00:00Z' });
});

afterEach(async () => {
  for (const g of gates) g.release();
  for (const m of managers) {
    await m.stop();
    m.close();
  }
  await cluster.stop();
});

/** Holds every watch stream's events (data, end, close…) while `held`, and replays them in order on release(). */
class WatchGate {
  held = false;
  private readonly queued: Array<() => void> = [];

  wrap(handle: StreamHandle): StreamHandle {
    const gated = new EventEmitter();
    for (const event of ['data', 'end', 'aborted', 'error', 'close']) {
      handle.response.on(event, (...args: unknown[]) => {
        const emit = () => gated.emit(event, ...args);
        if (this.held) this.queued.push(emit);
        else emit();
      });
    }
    return { response: gated as unknown as http.IncomingMessage, abort: () => handle.abort() };
  }

  release(): void {
    this.held = false;
    for (const emit of this.queued.splice(0)) emit();
  }

  queuedEvents(): number {
    return this.queued.length;
  }
}

/** A started manager whose cache watches ConfigMaps through a WatchGate. */
async function managerWithGate(options: Partial<ManagerOptions> = {}): Promise<{ mgr: Manager; gate: WatchGate }> {
  const mgr = new Manager({ kubeConfig: cluster.kubeconfigPath, clock: cluster.clock, logger: pino({ level: 'silent' }), ...options });
  managers.push(mgr);
  const gate = new WatchGate();
  gates.push(gate);
  const stream = mgr.transport.stream.bind(mgr.transport);
  mgr.transport.stream = async (...args) => gate.wrap(await stream(...args));
  await mgr.start();
  mgr.getCache().informerFor(BuiltinKinds.ConfigMap);
  await mgr.getCache().waitForCacheSync();
  return { mgr, gate };
}

/** Lets sockets and promises run (real time, bounded by condition, no fixed sleep). */
async function until(what: string, cond: () => boolean, maxMs = 10_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** Creates `name` and waits until the cache holds it (so only the next write is in question). */
async function createCached(mgr: Manager, name: string): Promise<ConfigMap> {
  const created = await mgr.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data: { step: 'created' } });
  await until('the create in the cache', () => mgr.getCache().informerFor(BuiltinKinds.ConfigMap).store.get(`default/${name}`) !== undefined);
  return created;
}

/** Resolved yet? (after letting pending I/O and microtasks run a few turns) */
async function settledWithin<T>(promise: Promise<T>, turns = 20): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < turns && !done; i++) await new Promise((r) => setImmediate(r));
  return done;
}

test('without it, a cached read right after the client\'s own update shows the old object (the stale read this option removes)', async () => {
  const { mgr, gate } = await managerWithGate();
  const created = await createCached(mgr, 'plain');
  gate.held = true;
  const updated = await mgr.client.update<ConfigMap>({ ...created, data: { step: 'updated' } });
  const read = await mgr.client.get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'plain' });
  expect(read.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
  expect(read.metadata?.resourceVersion).not.toBe(updated.metadata?.resourceVersion);
  expect(read.data).toEqual({ step: 'created' });
  gate.release();
});

test('with it, get and list after the client\'s own update wait for the watch to deliver it, then show it', async () => {
  const { mgr, gate } = await managerWithGate({ readYourOwnWrites: { enabled: true } });
  const created = await createCached(mgr, 'ryow');
  gate.held = true;
  const updated = await mgr.client.update<ConfigMap>({ ...created, data: { step: 'updated' } });
  const get = mgr.client.get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'ryow' });
  const list = mgr.client.list(BuiltinKinds.ConfigMap, { namespace: 'default' });
  await until('the update event to reach the held watch', () => gate.queuedEvents() > 0);
  expect(await settledWithin(get)).toBe(false);
  expect(await settledWithin(list)).toBe(false);
  gate.release();
  expect((await get).metadata?.resourceVersion).toBe(updated.metadata?.resourceVersion);
  expect((await list).find((c) => c.metadata?.name === 'ryow')?.data).toEqual({ step: 'updated' });
  // once the cache caught up, reads of other objects and later reads do not wait
  expect((await mgr.client.get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'ryow' })).data).toEqual({ step: 'updated' });
});

test('with it, a get after the client\'s own delete is NotFound once the watch delivers the delete', async () => {
  const { mgr, gate } = await managerWithGate({ readYourOwnWrites: { enabled: true } });
  const created = await createCached(mgr, 'gone');
  gate.held = true;
  await mgr.client.delete(created);
  const get = mgr.client.get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'gone' }).then(
    () => 'found',
    (err: unknown) => (isNotFound(err) ? 'not found' : String(err)),
  );
  await until('the delete event to reach the held watch', () => gate.queuedEvents() > 0);
  expect(await settledWithin(get)).toBe(false);
  gate.release();
  expect(await get).toBe('not found');
});

test('with it, a read whose watch stays held past timeoutMs (virtual clock) reads the API server instead', async () => {
  const { mgr, gate } = await managerWithGate({ readYourOwnWrites: { enabled: true, timeoutMs: 2000 } });
  const created = await createCached(mgr, 'late');
  gate.held = true;
  const updated = await mgr.client.update<ConfigMap>({ ...created, data: { step: 'updated' } });
  const get = mgr.client.get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'late' });
  expect(await settledWithin(get)).toBe(false);
  await cluster.clock.advance(1999);
  expect(await settledWithin(get)).toBe(false);
  await cluster.clock.advance(1);
  expect((await get).metadata?.resourceVersion).toBe(updated.metadata?.resourceVersion);
  // the cache itself is still behind: the answer came from the server
  expect(mgr.getCache().informerFor(BuiltinKinds.ConfigMap).store.get('default/late')?.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
  gate.release();
});

test('with it, dry-run writes and writes of kinds the cache does not watch make no read wait', async () => {
  const { mgr, gate } = await managerWithGate({ readYourOwnWrites: { enabled: true } });
  const created = await createCached(mgr, 'dry');
  gate.held = true;
  await mgr.client.update<ConfigMap>({ ...created, data: { step: 'dry' } }, { dryRun: true });
  await mgr.client.create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'unwatched', namespace: 'default' }, stringData: { a: 'b' } });
  expect((await mgr.client.get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'dry' })).data).toEqual({ step: 'created' });
  expect((await mgr.client.get(BuiltinKinds.Secret, { namespace: 'default', name: 'unwatched' })).metadata?.name).toBe('unwatched');
  gate.release();
});

test("with it, a write outside the cache's scope (another namespace, a label selector it fails) makes no read wait, unless the object was cached and must leave", async () => {
  const { mgr, gate } = await managerWithGate({ readYourOwnWrites: { enabled: true }, cache: { namespace: 'default', byKind: { 'v1/ConfigMap': { labelSelector: { app: 'kept' } } } } });
  await mgr.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'elsewhere' } });
  const kept = await mgr.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kept', namespace: 'default', labels: { app: 'kept' } } });
  await until('the labelled object in the cache', () => mgr.getCache().informerFor(BuiltinKinds.ConfigMap).store.get('default/kept') !== undefined);
  gate.held = true;
  const notFound = (p: Promise<unknown>) => p.then(() => 'found', (err: unknown) => (isNotFound(err) ? 'not found' : String(err)));
  await mgr.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'away', namespace: 'elsewhere' } });
  await mgr.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unlabelled', namespace: 'default' } });
  const away = notFound(mgr.client.get(BuiltinKinds.ConfigMap, { namespace: 'elsewhere', name: 'away' }));
  const unlabelled = notFound(mgr.client.get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'unlabelled' }));
  expect(await settledWithin(away)).toBe(true);
  expect(await settledWithin(unlabelled)).toBe(true);
  expect([await away, await unlabelled]).toEqual(['not found', 'not found']);
  // the cached object loses its label: the watch will say DELETED, so the read waits for that
  await mgr.client.patch(kept, { metadata: { labels: { app: null } } });
  const left = notFound(mgr.client.get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'kept' }));
  await until('the DELETED event to reach the held watch', () => gate.queuedEvents() > 0);
  expect(await settledWithin(left)).toBe(false);
  gate.release();
  expect(await left).toBe('not found');
});

test("with it, a write the cache's field selector may hide (a scope it cannot check) makes the next read wait timeoutMs (virtual clock), read the API server and log it once; later reads do not wait", async () => {
  const lines: Array<{ msg: string; kind?: string; key?: string; timeoutMs?: number }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const fellBack = () => lines.filter((l) => l.msg === "the cache did not observe this client's own write in time; reading from the API server");
  const { mgr, gate } = await managerWithGate({ logger, readYourOwnWrites: { enabled: true, timeoutMs: 2000 }, cache: { byKind: { 'v1/ConfigMap': { fieldSelector: 'metadata.name!=hidden' } } } });
  await createCached(mgr, 'shown');
  gate.held = true;
  const hidden = await mgr.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'hidden', namespace: 'default' }, data: { step: 'created' } });
  const get = mgr.client.get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'hidden' });
  expect(await settledWithin(get)).toBe(false);
  await cluster.clock.advance(1999);
  expect(await settledWithin(get)).toBe(false);
  await cluster.clock.advance(1);
  // from the API server: the cache's watch never shows it
  expect((await get).metadata?.resourceVersion).toBe(hidden.metadata?.resourceVersion);
  expect(fellBack()).toEqual([expect.objectContaining({ kind: 'ConfigMap', key: 'default/hidden', timeoutMs: 2000 })]);
  // The next reads are the cache's at once (it hides the object: NotFound), and log nothing more.
  const notFound = (p: Promise<unknown>) => p.then(() => 'found', (err: unknown) => (isNotFound(err) ? 'not found' : String(err)));
  const again = notFound(mgr.client.get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'hidden' }));
  expect(await settledWithin(again)).toBe(true);
  expect(await again).toBe('not found');
  const list = mgr.client.list(BuiltinKinds.ConfigMap, { namespace: 'default' });
  expect(await settledWithin(list)).toBe(true);
  expect((await list).map((c) => c.metadata?.name).sort()).toEqual(['kube-root-ca.crt', 'shown']);
  expect(fellBack()).toHaveLength(1);
  gate.release();
});
