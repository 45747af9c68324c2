/** The informer and cache against the local cluster over its socket: list+watch, resume, relist, indexes, copies. */
import { Kubeconfig } from '../client/kubeconfig.js';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { startLocalCluster } from '../../cluster/index.js';
import { Client } from '../client/client.js';
import { BuiltinKinds, defaultKindRegistry } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import { Transport } from '../client/transport.js';
import { Cache } from './cache.js';
import { Informer } from './informer.js';

type Cluster = Awaited<ReturnType<typeof startLocalCluster>>;

let cluster: Cluster;
let transport: Transport;
let client: Client;
let nsCounter = 0;

beforeAll(async () => {
  cluster = await startLocalCluster({ authz: 'alwaysAllow' });
  const kc = Kubeconfig.fromFile(cluster.kubeconfigPath);
  transport = new Transport(kc);
  client = new Client(transport, defaultKindRegistry);
});

afterAll(async () => {
  transport.close();
  await cluster.stop();
});

async function freshNamespace(): Promise<string> {
  const name = `informer-${++nsCounter}`;
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  return name;
}

const configMap = (namespace: string, name: string, data: Record<string, string> = {}, labels: Record<string, string> = {}): ConfigMap => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  // Every test object carries suite=informer: the cluster adds its own ConfigMaps (kube-root-ca.crt).
  metadata: { namespace, name, labels: { suite: 'informer', ...labels } },
  data,
});

/** Waits (real time, bounded) until `cond` holds. */
async function until(cond: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function recordingInformer(namespace: string, extra: Partial<ConstructorParameters<typeof Informer>[0]> = {}) {
  const events: string[] = [];
  const informer = new Informer<ConfigMap>({ kind: BuiltinKinds.ConfigMap, client, transport, namespace, labelSelector: 'suite=informer', ...extra });
  informer.addHandler({
    onAdd: (o) => events.push(`add ${o.metadata!.name} ${JSON.stringify(o.data ?? {})}`),
    onUpdate: (_old, o) => events.push(`update ${o.metadata!.name} ${JSON.stringify(o.data ?? {})}`),
    onDelete: (o) => events.push(`delete ${o.metadata!.name}`),
  });
  return { informer, events };
}

describe('Informer against the local cluster', () => {
  test('lists (resourceVersion "0": one answer, whatever the page size), then watches adds, updates and deletes in order', async () => {
    const ns = await freshNamespace();
    for (let i = 0; i < 7; i++) await client.create(configMap(ns, `cm-${i}`));
    const { informer, events } = recordingInformer(ns, { pageSize: 3 });
    informer.start();
    await informer.waitForSync();
    expect(informer.store.size).toBe(7);
    const listRequests = cluster.requestLog().filter((e) => e.verb === 'list' && e.namespace === ns);
    expect(listRequests.length).toBe(1);
    events.length = 0;
    const cm = await client.get(BuiltinKinds.ConfigMap, { namespace: ns, name: 'cm-1' });
    cm.data = { a: '1' };
    await client.update(cm);
    await client.delete(configMap(ns, 'cm-2'));
    await client.create(configMap(ns, 'cm-new'));
    await until(() => events.length === 3, 'three watch events');
    expect(events).toEqual(['update cm-1 {"a":"1"}', 'delete cm-2', 'add cm-new {}']);
    await informer.stop();
  });

  test('resumes from its resourceVersion when the server ends the watch, missing nothing', async () => {
    const ns = await freshNamespace();
    const { informer, events } = recordingInformer(ns, { watchTimeoutSeconds: 1 });
    informer.start();
    await informer.waitForSync();
    const watches = () => cluster.requestLog().filter((e) => e.verb === 'watch' && e.namespace === ns).length;
    await until(() => watches() === 1, 'the first watch request');
    await client.create(configMap(ns, 'before-close'));
    await until(() => watches() === 2, 'a second watch request after the server closed the first', 4000);
    await client.create(configMap(ns, 'after-close'));
    await until(() => events.length === 2, 'both adds');
    expect(events).toEqual(['add before-close {}', 'add after-close {}']);
    await informer.stop();
  });

  test('relists after 410 Gone and reconciles the difference without duplicates', async () => {
    const ns = await freshNamespace();
    await client.create(configMap(ns, 'keep'));
    await client.create(configMap(ns, 'doomed'));
    const relisted: string[] = [];
    const { informer, events } = recordingInformer(ns, { watchTimeoutSeconds: 1, metrics: { relisted: (k) => relisted.push(k) } });
    informer.start();
    await informer.waitForSync();
    events.length = 0;
    // Changes land while the informer's watch is about to end; the history is then compacted, so the
    // resume answers 410 and only a relist can find out what happened.
    await client.delete(configMap(ns, 'doomed'));
    await until(() => events.length === 1, 'the delete');
    // A write the informer does not watch moves the store past its resourceVersion; compacting then
    // makes that resourceVersion too old, so the resume answers 410.
    await client.create(configMap(await freshNamespace(), 'elsewhere'));
    cluster.compactHistory();
    await until(() => relisted.length > 0, 'a relist after 410', 4000);
    await client.create(configMap(ns, 'after-relist'));
    await until(() => events.includes('add after-relist {}'), 'the add after relist');
    expect(events).toEqual(['delete doomed', 'add after-relist {}']);
    expect([...informer.store.keys()].sort()).toEqual([`${ns}/after-relist`, `${ns}/keep`]);
    await informer.stop();
  });

  test('lists as client-go does: resourceVersion "0" answered whole despite the limit; refused → the latest, paginated', async () => {
    const ns = await freshNamespace();
    for (const name of ['a', 'b', 'c', 'd', 'e']) await client.create(configMap(ns, name));
    type Body = { items: unknown[]; metadata: { continue?: string } };
    const whole = await transport.request<Body>('GET', `/api/v1/namespaces/${ns}/configmaps`, { query: { labelSelector: 'suite=informer', limit: 2, resourceVersion: '0' } });
    expect([whole.items.length, whole.metadata.continue]).toEqual([5, undefined]);
    const paged = await transport.request<Body>('GET', `/api/v1/namespaces/${ns}/configmaps`, { query: { labelSelector: 'suite=informer', limit: 2 } });
    expect(paged.items.length).toBe(2);
    expect(paged.metadata.continue).toBeTruthy();
    const lists: string[] = [];
    const recordingClient = Object.create(client) as Client;
    recordingClient.listPage = (info, options, token) => {
      lists.push(`rv=${options.resourceVersion} limit=${options.limit} continue=${token ? 'yes' : 'no'}`);
      return client.listPage(info, options, token);
    };
    const first = recordingInformer(ns, { client: recordingClient, pageSize: 2 });
    first.informer.start();
    await first.informer.waitForSync();
    expect(lists).toEqual(['rv=0 limit=2 continue=no']);
    expect([...first.informer.store.keys()].length).toBe(5);
    await first.informer.stop();

    lists.length = 0;
    const removeFault = cluster.injectFault({ verb: 'list', resource: 'configmaps', status: 410, times: 1 });
    const second = recordingInformer(ns, { client: recordingClient, pageSize: 2 });
    second.informer.start();
    await second.informer.waitForSync();
    removeFault();
    expect(lists).toEqual(['rv=0 limit=2 continue=no', 'rv= limit=2 continue=no', 'rv= limit=2 continue=yes', 'rv= limit=2 continue=yes']);
    expect([...second.informer.store.keys()].sort()).toEqual(['a', 'b', 'c', 'd', 'e'].map((n) => `${ns}/${n}`));
    await second.informer.stop();
  });

  test('reconnects with backoff when watches fail with 500 and 429', async () => {
    const ns = await freshNamespace();
    const restarts: string[] = [];
    const { informer, events } = recordingInformer(ns, { watchTimeoutSeconds: 1, backoffInitialMs: 20, metrics: { watchRestarted: (_k, reason) => restarts.push(reason) } });
    informer.start();
    await informer.waitForSync();
    const removeA = cluster.injectFault({ verb: 'watch', resource: 'configmaps', status: 500, times: 2 });
    const removeB = cluster.injectFault({ verb: 'watch', resource: 'configmaps', status: 429, times: 1 });
    await client.create(configMap(ns, 'during-faults'));
    await until(() => restarts.length >= 3, 'three failed reconnects', 5000);
    await client.create(configMap(ns, 'after-faults'));
    await until(() => events.length === 2, 'both adds', 5000);
    expect(events).toEqual(['add during-faults {}', 'add after-faults {}']);
    expect(restarts).toEqual(expect.arrayContaining(['500', '429']));
    removeA();
    removeB();
    await informer.stop();
  });

  test('a stalled watch (no event or bookmark in time) is dropped and re-opened', async () => {
    const ns = await freshNamespace();
    const stalls: string[] = [];
    const { informer, events } = recordingInformer(ns, { stallTimeoutMs: 150, backoffInitialMs: 10, metrics: { stalled: (k) => stalls.push(k) } });
    informer.start();
    await informer.waitForSync();
    await until(() => stalls.length >= 1, 'a stall', 3000);
    await client.create(configMap(ns, 'after-stall'));
    await until(() => events.length === 1, 'the add after the stall');
    expect(stalls[0]).toBe('ConfigMap');
    await informer.stop();
  });
});

describe('Cache against the local cluster', () => {
  test('field indexes, label selectors and namespace scoping', async () => {
    const ns = await freshNamespace();
    const other = await freshNamespace();
    await client.create(configMap(ns, 'a', { owner: 'x' }, { tier: 'web' }));
    await client.create(configMap(ns, 'b', { owner: 'y' }, { tier: 'db' }));
    await client.create(configMap(other, 'c', { owner: 'x' }, { tier: 'web' }));
    const cache = new Cache({ client, transport, kinds: defaultKindRegistry });
    cache.indexField<ConfigMap>(BuiltinKinds.ConfigMap, 'data.owner', (o) => o.data?.owner);
    cache.start();
    const names = (objs: KubeObject[]) => objs.map((o) => `${o.metadata!.namespace}/${o.metadata!.name}`).sort();
    expect(names(await cache.list(BuiltinKinds.ConfigMap, { matchingFields: { 'data.owner': 'x' }, labelSelector: 'suite=informer' }))).toEqual([`${ns}/a`, `${other}/c`]);
    expect(names(await cache.list(BuiltinKinds.ConfigMap, { matchingFields: { 'data.owner': 'x' }, namespace: ns }))).toEqual([`${ns}/a`]);
    expect(names(await cache.list(BuiltinKinds.ConfigMap, { namespace: ns, labelSelector: 'tier in (web,db),tier!=db' }))).toEqual([`${ns}/a`]);
    await cache.stop();

    const scoped = new Cache({ client, transport, kinds: defaultKindRegistry, namespace: other });
    scoped.start();
    expect(names(await scoped.list(BuiltinKinds.ConfigMap, { labelSelector: { suite: 'informer' } }))).toEqual([`${other}/c`]);
    await scoped.stop();

    const labelled = new Cache({ client, transport, kinds: defaultKindRegistry, byKind: { 'v1/ConfigMap': { labelSelector: { tier: 'db' } } } });
    labelled.start();
    expect(names(await labelled.list(BuiltinKinds.ConfigMap))).toEqual([`${ns}/b`]);
    await labelled.stop();
  });

  test('reads hand out copies by default and frozen objects when asked', async () => {
    const ns = await freshNamespace();
    await client.create(configMap(ns, 'a', { k: 'v' }));
    const cache = new Cache({ client, transport, kinds: defaultKindRegistry, namespace: ns });
    cache.start();
    const copy = (await cache.get(BuiltinKinds.ConfigMap, { namespace: ns, name: 'a' }))!;
    copy.data!.k = 'corrupted';
    expect((await cache.get(BuiltinKinds.ConfigMap, { namespace: ns, name: 'a' }))!.data).toEqual({ k: 'v' });
    expect(copy.metadata!.managedFields).toBeUndefined();
    await cache.stop();

    const frozen = new Cache({ client, transport, kinds: defaultKindRegistry, namespace: ns, frozen: true });
    frozen.start();
    const shared = (await frozen.get(BuiltinKinds.ConfigMap, { namespace: ns, name: 'a' }))!;
    expect(() => {
      shared.data!.k = 'corrupted';
    }).toThrow(TypeError);
    await frozen.stop();
  });

  test('read() waits for the sync once, then answers at once (no promise): a copy, or undefined for a missing object', async () => {
    const ns = await freshNamespace();
    await client.create(configMap(ns, 'a', { k: 'v' }));
    const cache = new Cache({ client, transport, kinds: defaultKindRegistry, namespace: ns });
    const info = defaultKindRegistry.resolve(BuiltinKinds.ConfigMap);
    cache.start();
    const first = cache.read(info, { namespace: ns, name: 'a' });
    expect(first).toBeInstanceOf(Promise);
    expect((await first)?.data).toEqual({ k: 'v' });
    const synced = cache.read(info, { namespace: ns, name: 'a' });
    expect(synced).not.toBeInstanceOf(Promise);
    expect((synced as ConfigMap).data).toEqual({ k: 'v' });
    expect(synced).not.toBe(cache.read(info, { namespace: ns, name: 'a' }));
    expect(cache.read(info, { namespace: ns, name: 'missing' })).toBeUndefined();
    await cache.stop();
  });
});
