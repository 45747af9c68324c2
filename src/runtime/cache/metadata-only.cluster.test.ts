/**
 * Metadata-only caches against the local cluster: `metadataOnly(kind)` lists, watches and gets
 * PartialObjectMetadata (the server leaves data, spec and status out), the cache keeps it apart from a
 * full informer of the same kind, cached objects are much smaller, and a controller that owns a kind as
 * metadata only is still woken by its owned objects' changes.
 */
import type { ConfigMap, Secret } from 'kubernetes-types/core/v1.js';
import { startTestEnv, type TestEnv } from '../../testing/test-env.js';
import { BuiltinKinds } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import { newPredicate } from '../predicate/predicate.js';
import { metadataOnly } from './metadata-only.js';

const NS = 'meta';
const OBJECTS = 40;
const payload = 'x'.repeat(4096);
let env: TestEnv;
const reconciled: string[] = [];

beforeAll(async () => {
  env = await startTestEnv({ authz: 'alwaysAllow', now: '2024-01-15T10:00:00Z' });
  // Reconciles ConfigMaps named owner-*, and owns their Secrets as metadata only.
  env.manager
    .controllerFor(BuiltinKinds.ConfigMap)
    .withPredicates(newPredicate((o) => o.metadata?.name?.startsWith('owner-') ?? false))
    .owns(metadataOnly(BuiltinKinds.Secret))
    .complete(async (req) => void reconciled.push(req.name));
  await env.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  for (let i = 0; i < OBJECTS; i++) {
    await env.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS, name: `cm-${i}`, labels: { app: 'meta', index: String(i) }, annotations: { note: 'kept' } }, data: { payload } });
  }
  await env.startManager();
});
afterAll(async () => env?.stop());

const bytes = (objects: KubeObject[]): number => objects.reduce((n, o) => n + JSON.stringify(o).length, 0);

test('a metadata-only informer caches apiVersion, kind and full metadata, without data', async () => {
  const cache = env.manager.getCache();
  const informer = cache.informerFor(metadataOnly(BuiltinKinds.ConfigMap));
  await cache.waitForCacheSync();
  const objects = await env.client.list(metadataOnly(BuiltinKinds.ConfigMap), { namespace: NS, labelSelector: { app: 'meta' } });
  expect(objects).toHaveLength(OBJECTS);
  const first = objects.find((o) => o.metadata.name === 'cm-0')!;
  expect(Object.keys(first).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
  expect(first).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS, labels: { app: 'meta', index: '0' }, annotations: { note: 'kept' } } });
  expect(first.metadata.uid).toBeTruthy();
  expect(first.metadata.resourceVersion).toBeTruthy();
  // Its own informer: the full cache of ConfigMaps (the controller's) still holds data.
  expect(cache.informerFor(BuiltinKinds.ConfigMap)).not.toBe(informer);
  const full = await env.client.list<ConfigMap>(BuiltinKinds.ConfigMap, { namespace: NS, labelSelector: { app: 'meta' } });
  expect(full.find((o) => o.metadata?.name === 'cm-0')!.data).toEqual({ payload });
  // Memory: every cached object is a small fraction of the full one (4 KiB of data each here).
  const ratio = bytes([...informer.store.values()].filter((o) => o.metadata?.labels?.app === 'meta')) / bytes(full);
  expect(ratio).toBeLessThan(0.15);
});

test('the metadata-only watch delivers updates (labels, resourceVersion) and deletes', async () => {
  const informer = env.manager.getCache().informerFor(metadataOnly(BuiltinKinds.ConfigMap));
  const seen: string[] = [];
  informer.addHandler({
    onUpdate: (_old, o) => o.metadata?.namespace === NS && seen.push(`update ${o.metadata.name} ${o.metadata.labels?.stage} ${'data' in o}`),
    onDelete: (o) => o.metadata?.namespace === NS && seen.push(`delete ${o.metadata?.name}`),
  });
  await env.client.patch({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS, name: 'cm-1' } }, { metadata: { labels: { stage: 'two' } }, data: { payload: 'changed' } });
  await env.client.delete({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS, name: 'cm-2' } });
  await env.settle();
  expect(seen).toEqual(['update cm-1 two false', 'delete cm-2']);
  const cached = await env.client.get(metadataOnly(BuiltinKinds.ConfigMap), { namespace: NS, name: 'cm-1' });
  expect(cached).toMatchObject({ kind: 'ConfigMap', metadata: { labels: { stage: 'two' } } });
  expect('data' in cached).toBe(false);
});

test('reads of a metadata-only kind no cache watches go to the server as PartialObjectMetadata', async () => {
  await env.client.create<Secret>({ apiVersion: 'v1', kind: 'Secret', metadata: { namespace: NS, name: 'loose', labels: { a: 'b' } }, stringData: { token: 'secret-value' } });
  const reader = env.manager.apiReader();
  const one = await reader.get(metadataOnly(BuiltinKinds.Secret), { namespace: NS, name: 'loose' });
  expect(Object.keys(one).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
  expect(one).toMatchObject({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'loose', labels: { a: 'b' } } });
  const listed = await reader.list(metadataOnly(BuiltinKinds.Secret), { namespace: NS, labelSelector: { a: 'b' } });
  expect(listed.map((s) => [s.kind, s.metadata.name, 'data' in s])).toEqual([['Secret', 'loose', false]]);
  // The full kind still reads the data.
  expect((await reader.get<Secret>(BuiltinKinds.Secret, { namespace: NS, name: 'loose' })).data).toEqual({ token: Buffer.from('secret-value').toString('base64') });
});

test('owns(metadataOnly(Secret)): a change to an owned Secret wakes its owner', async () => {
  const owner = await env.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS, name: 'owner-a' } });
  await env.settle();
  await env.client.create<Secret>({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { namespace: NS, name: 'owned', ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner-a', uid: owner.metadata!.uid!, controller: true }] },
    stringData: { k: 'v' },
  });
  await env.settle();
  reconciled.length = 0;
  await env.client.patch({ apiVersion: 'v1', kind: 'Secret', metadata: { namespace: NS, name: 'owned' } }, { metadata: { labels: { touched: 'yes' } } });
  await env.settle();
  expect(reconciled).toEqual(['owner-a']);
  // The Secret informer of the manager is the metadata-only one: no secret data in the process.
  const secrets = env.manager.getCache().allInformers().filter((i) => i.kind.kind === 'Secret');
  expect(secrets.map((i) => i.kind.metadataOnly)).toEqual([true]);
  expect([...secrets[0]!.store.values()].some((s) => 'data' in s)).toBe(false);
});
