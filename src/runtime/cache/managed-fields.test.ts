/**
 * The cache's objects without metadata.managedFields (controller-runtime's default transform), whatever the
 * key order the server wrote: last in metadata (ObjectMeta's field order, deleted in place) or anywhere else
 * (unstructured objects' sorted keys, metadata rebuilt) — every other field kept, in its order.
 */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { BuiltinKinds, defaultKindRegistry } from '../client/kinds.js';
import { Cache } from './cache.js';
import { event, scriptedServer, until } from './testdata/scripted-server.js';

const managedFields = [{ manager: 'test', operation: 'Update', apiVersion: 'v1', time: '2026-11-28T03:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }];

/** A ConfigMap as a watch line would carry it, managedFields last in metadata (as ObjectMeta's order) or first (sorted keys). */
function decoded(name: string, rv: string, managedFieldsAt: 'last' | 'first'): ConfigMap {
  const rest = { name, namespace: 'ns', resourceVersion: rv, labels: { app: name } };
  const metadata = managedFieldsAt === 'last' ? { ...rest, managedFields } : { managedFields, ...rest };
  return JSON.parse(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data: { k: name } })) as ConfigMap;
}

test('cached objects lose managedFields wherever metadata has them, and keep every other field in order', async () => {
  const server = scriptedServer(
    [{ items: [decoded('listed-last', '3', 'last'), decoded('listed-first', '4', 'first')], resourceVersion: '10' }],
    [{ lines: [event('ADDED', decoded('watched-last', '11', 'last')), event('ADDED', decoded('watched-first', '12', 'first'))] }],
  );
  const cache = new Cache({ client: server.client, transport: server.transport, kinds: defaultKindRegistry, namespace: 'ns' });
  cache.start();
  await cache.waitForCacheSync();
  await until(() => cache.informerFor(BuiltinKinds.ConfigMap).store.size === 4, 'the watched objects');
  for (const [name, rv] of [['listed-last', '3'], ['listed-first', '4'], ['watched-last', '11'], ['watched-first', '12']] as const) {
    const obj = (await cache.get(BuiltinKinds.ConfigMap, { namespace: 'ns', name }))!;
    expect(Object.keys(obj.metadata!)).toEqual(['name', 'namespace', 'resourceVersion', 'labels']);
    expect(obj.metadata).toEqual({ name, namespace: 'ns', resourceVersion: rv, labels: { app: name } });
    expect(obj.data).toEqual({ k: name });
  }
  const fresh = scriptedServer([{ items: [decoded('listed-last', '3', 'last')], resourceVersion: '10' }]);
  const keeping = new Cache({ client: fresh.client, transport: fresh.transport, kinds: defaultKindRegistry, namespace: 'ns', keepManagedFields: true });
  keeping.start();
  await keeping.waitForCacheSync();
  expect((await keeping.get(BuiltinKinds.ConfigMap, { namespace: 'ns', name: 'listed-last' }))!.metadata!.managedFields).toEqual(managedFields);
  await Promise.all([cache.stop(), keeping.stop()]);
});
