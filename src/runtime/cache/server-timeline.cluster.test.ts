/**
 * An informer whose API server is replaced by another cluster on the same address (issue 13): one whose
 * resourceVersion counter restarted below ours, and one whose counter already passed ours, which only its
 * identity (the kube-system namespace's uid) gives away. Either way the informer relists from the latest and
 * sends deletes for what vanished. The replacement keeps the CA and admin token (credentialsOf), as a kept
 * data directory would; the informer's transport is the one built for the first cluster.
 */
import { Kubeconfig } from '../client/kubeconfig.js';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { startLocalCluster, type LocalCluster } from '../../cluster/index.js';
import { Client } from '../client/client.js';
import { BuiltinKinds, defaultKindRegistry } from '../client/kinds.js';
import { Transport } from '../client/transport.js';
import { Informer } from './informer.js';
import { wentBackInTime } from './server-timeline.js';

const NS = 'timeline';
const clusters: LocalCluster[] = [];
const transports: Transport[] = [];

afterEach(async () => {
  for (const t of transports.splice(0)) t.close();
  for (const c of clusters.splice(0)) await c.stop().catch(() => undefined);
});

async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function clientOf(kubeconfigPath: string): Promise<{ client: Client; transport: Transport }> {
  const kc = Kubeconfig.fromFile(kubeconfigPath);
  const transport = new Transport(kc);
  transports.push(transport);
  return { client: new Client(transport, defaultKindRegistry), transport };
}

async function populate(client: Client, prefix: string, count: number, churn = 0): Promise<void> {
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  for (let i = 0; i < count; i++) await client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS, name: `${prefix}-${i}`, labels: { suite: 'timeline' } } });
  if (churn === 0) return;
  const cm = await client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'churn' } });
  for (let i = 0; i < churn; i++) {
    cm.data = { i: String(i) };
    Object.assign(cm, await client.update(cm));
  }
}

/** A first cluster with `a-0…a-4`, an informer on it (recording events), stopped with the informer running. */
async function informerOnAStoppedCluster(checkClusterIdentity: boolean) {
  const first = await startLocalCluster({ authz: 'alwaysAllow', seed: 1 });
  clusters.push(first);
  const { client, transport } = await clientOf(first.kubeconfigPath);
  await populate(client, 'a', 5);
  const events: string[] = [];
  const informer = new Informer<ConfigMap>({ kind: BuiltinKinds.ConfigMap, client, transport, namespace: NS, labelSelector: 'suite=timeline', backoffInitialMs: 5, backoffMaxMs: 20, checkClusterIdentity });
  informer.addHandler({ onAdd: (o) => events.push(`add ${o.metadata!.name}`), onDelete: (o) => events.push(`delete ${o.metadata!.name}`) });
  informer.start();
  await informer.waitForSync();
  const lastSeen = informer.lastResourceVersion();
  await first.stop();
  return { first, informer, events, lastSeen, port: Number(new URL(first.url).port) };
}

test('wentBackInTime compares integer resourceVersions only', () => {
  expect(wentBackInTime('99', '100')).toBe(true);
  expect(wentBackInTime('100', '100')).toBe(false);
  expect(wentBackInTime('101', '100')).toBe(false);
  expect(wentBackInTime('123456789012345678901', '123456789012345678902')).toBe(true);
  expect(wentBackInTime('abc', '100')).toBe(false);
  expect(wentBackInTime(undefined, '100')).toBe(false);
  expect(wentBackInTime('5', '')).toBe(false);
  // compared as digit strings: length first, leading zeros ignored
  expect(wentBackInTime('99', '100')).toBe(true);
  expect(wentBackInTime('100', '99')).toBe(false);
  expect(wentBackInTime('0100', '99')).toBe(false);
  expect(wentBackInTime('099', '100')).toBe(true);
  expect(wentBackInTime('12a', '100')).toBe(false);
});

test('a replacement whose resourceVersion restarted below ours: relisted, vanished objects deleted, new ones added', async () => {
  const { first, informer, events, lastSeen, port } = await informerOnAStoppedCluster(false);
  const second = await startLocalCluster({ authz: 'alwaysAllow', seed: 1, port, credentialsOf: first });
  clusters.push(second);
  await populate((await clientOf(second.kubeconfigPath)).client, 'b', 3);
  await until(() => informer.store.size === 3 && [...informer.store.keys()].every((k) => k.includes('/b-')), 'the informer to hold only the new objects');
  expect(wentBackInTime(informer.lastResourceVersion(), lastSeen)).toBe(true);
  expect(events.filter((e) => e.startsWith('delete')).sort()).toEqual(['delete a-0', 'delete a-1', 'delete a-2', 'delete a-3', 'delete a-4']);
  expect(events.filter((e) => e.includes(' b-')).sort()).toEqual(['add b-0', 'add b-1', 'add b-2']);
  await informer.stop();
});

test('a replacement whose resourceVersion already passed ours is told by its identity (kube-system uid)', async () => {
  const { first, informer, events, lastSeen, port } = await informerOnAStoppedCluster(true);
  const second = await startLocalCluster({ authz: 'alwaysAllow', seed: 2, port, credentialsOf: first });
  clusters.push(second);
  // Keep the informer out while the new cluster's counter climbs past the informer's last resourceVersion.
  const refuseList = second.injectFault({ verb: 'list', resource: 'configmaps', status: 503 });
  const refuseWatch = second.injectFault({ verb: 'watch', resource: 'configmaps', status: 503 });
  await populate((await clientOf(second.kubeconfigPath)).client, 'b', 3, Number(lastSeen) + 10);
  refuseList();
  refuseWatch();
  await until(() => informer.store.size === 3 && [...informer.store.keys()].every((k) => k.includes('/b-')), 'the informer to hold only the new objects');
  expect(wentBackInTime(lastSeen, informer.lastResourceVersion())).toBe(true); // the new server is ahead of the old
  expect(events.filter((e) => e.startsWith('delete')).sort()).toEqual(['delete a-0', 'delete a-1', 'delete a-2', 'delete a-3', 'delete a-4']);
  await informer.stop();
});
