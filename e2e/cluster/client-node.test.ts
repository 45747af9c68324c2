/**
 * @kubernetes/client-node 1.4 against the local cluster over its socket: typed CRUD, raw watches
 * (ADDED/MODIFIED/DELETED, selector enter/leave, 410 Expired after compaction, server-side close),
 * and an informer that resumes without duplicates and relists after 410.
 */
import * as k8s from '@kubernetes/client-node';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
let kc: k8s.KubeConfig;
let core: k8s.CoreV1Api;

beforeAll(async () => {
  kc = new k8s.KubeConfig();
  kc.loadFromFile(suite.cluster.kubeconfigPath);
  core = kc.makeApiClient(k8s.CoreV1Api);
});

const configMap = (name: string, labels: Record<string, string> = {}, data: Record<string, string> = {}): k8s.V1ConfigMap => ({
  metadata: { name, labels },
  data,
});

/** Collects watch events until `until` says stop (or the stream ends). */
async function collect(path: string, params: Record<string, string | boolean>, act: () => Promise<void>, until: (events: Array<[string, any]>) => boolean) {
  const events: Array<[string, any]> = [];
  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  const watch = new k8s.Watch(kc);
  const controller = await watch.watch(
    path,
    params,
    (type, obj) => {
      events.push([type, obj]);
      if (until(events)) resolveDone();
    },
    () => resolveDone(),
  );
  await act();
  await done;
  controller.abort();
  return events;
}

test('typed client CRUD with resourceVersion increasing across kinds', async () => {
  const created = await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('a', {}, { x: '1' }) });
  const secret = await core.createNamespacedSecret({ namespace: 'default', body: { metadata: { name: 's' }, stringData: { k: 'v' } } });
  expect(Number(secret.metadata!.resourceVersion)).toBeGreaterThan(Number(created.metadata!.resourceVersion));
  expect(secret.data).toEqual({ k: Buffer.from('v').toString('base64') });
  expect((secret as any).stringData).toBeUndefined();
  expect(secret.type).toBe('Opaque');
  const read = await core.readNamespacedConfigMap({ name: 'a', namespace: 'default' });
  expect(read.metadata!.uid).toBe(created.metadata!.uid);
  // a no-op replace keeps the resourceVersion
  const same = await core.replaceNamespacedConfigMap({ name: 'a', namespace: 'default', body: read });
  expect(same.metadata!.resourceVersion).toBe(read.metadata!.resourceVersion);
});

test('watch from a resourceVersion sees ADDED, MODIFIED, DELETED and selector transitions', async () => {
  const list = await core.listNamespacedConfigMap({ namespace: 'default' });
  const events = await collect(
    '/api/v1/namespaces/default/configmaps',
    { resourceVersion: list.metadata!.resourceVersion!, labelSelector: 'app=web' },
    async () => {
      await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('w1', { app: 'web' }) });
      await core.patchNamespacedConfigMap({ name: 'w1', namespace: 'default', body: { data: { a: '1' } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
      await core.patchNamespacedConfigMap({ name: 'w1', namespace: 'default', body: { metadata: { labels: { app: 'db' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
      await core.patchNamespacedConfigMap({ name: 'w1', namespace: 'default', body: { metadata: { labels: { app: 'web' } } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
      await core.deleteNamespacedConfigMap({ name: 'w1', namespace: 'default' });
    },
    (e) => e.length >= 5,
  );
  expect(events.map(([t]) => t)).toEqual(['ADDED', 'MODIFIED', 'DELETED', 'ADDED', 'DELETED']);
  const rvs = events.map(([, o]) => Number(o.metadata.resourceVersion));
  expect([...rvs].sort((a, b) => a - b)).toEqual(rvs);
  expect(events[2]![1].metadata.labels).toEqual({ app: 'web' });
});

test('a watch from a compacted resourceVersion gets one ERROR event with 410 Expired', async () => {
  const list = await core.listNamespacedConfigMap({ namespace: 'default' });
  await core.createNamespacedConfigMap({ namespace: 'default', body: configMap('c1') });
  suite.cluster.compactHistory();
  const events = await collect('/api/v1/namespaces/default/configmaps', { resourceVersion: list.metadata!.resourceVersion! }, async () => {}, (e) => e.length >= 1);
  expect(events).toHaveLength(1);
  expect(events[0]![0]).toBe('ERROR');
  expect(events[0]![1]).toMatchObject({ kind: 'Status', code: 410, reason: 'Expired' });
  expect(events[0]![1].message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
});

test('watch bookmarks only for clients that ask, and timeoutSeconds closes the stream', async () => {
  suite.cluster.internals.watches.bookmarkIntervalMs = 50;
  const events = await collect('/api/v1/namespaces/default/configmaps', { allowWatchBookmarks: true, timeoutSeconds: '1', resourceVersion: String(suite.cluster.internals.store.resourceVersion) }, async () => {}, () => false);
  expect(events.length).toBeGreaterThan(0);
  expect(events.every(([t]) => t === 'BOOKMARK')).toBe(true);
  expect(events[0]![1]).toEqual({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: String(suite.cluster.internals.store.resourceVersion) } });
  suite.cluster.internals.watches.bookmarkIntervalMs = 60_000;
});

test('sendInitialEvents streams the current state and ends it with an initial-events-end bookmark', async () => {
  const events = await collect(
    '/api/v1/namespaces/kube-system/configmaps',
    { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true, resourceVersion: '' },
    async () => {
      await core.createNamespacedConfigMap({ namespace: 'kube-system', body: configMap('initial') });
    },
    (e) => e.some(([t, o]) => t === 'BOOKMARK' && o.metadata.annotations?.['k8s.io/initial-events-end'] === 'true'),
  );
  const types = events.map(([t]) => t);
  expect(types[types.length - 1]).toBe('BOOKMARK');
  expect(types.slice(0, -1).every((t) => t === 'ADDED')).toBe(true);
});

test('creating in a Terminating namespace is refused with the real 403', async () => {
  await core.createNamespace({ body: { metadata: { name: 'doomed' } } });
  await core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'held', finalizers: ['example.com/hold'] } } });
  await core.deleteNamespace({ name: 'doomed' });
  await suite.cluster.settle();
  const ns = await core.readNamespace({ name: 'doomed' });
  expect(ns.status?.phase).toBe('Terminating');
  const err = await core.createNamespacedConfigMap({ namespace: 'doomed', body: configMap('late') }).catch((e: unknown) => e as { code: number; body: string });
  expect((err as { code: number }).code).toBe(403);
  expect(JSON.parse((err as { body: string }).body)).toMatchObject({
    reason: 'Forbidden',
    message: 'configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated',
    details: { causes: [{ reason: 'NamespaceTerminating', message: 'namespace doomed is being terminated', field: 'metadata.namespace' }] },
  });
  const missing = await core.createNamespacedConfigMap({ namespace: 'nowhere', body: configMap('x') }).catch((e: unknown) => e as { code: number; body: string });
  expect(JSON.parse((missing as { body: string }).body).message).toBe('namespaces "nowhere" not found');
});

test('an informer lists, watches, resumes after a server-side close without duplicates, and relists after 410', async () => {
  await core.createNamespace({ body: { metadata: { name: 'inf' } } });
  const path = '/api/v1/namespaces/inf/configmaps';
  const informer = k8s.makeInformer(kc, path, () => core.listNamespacedConfigMap({ namespace: 'inf' }));
  const adds: string[] = [];
  const deletes: string[] = [];
  let connects = 0;
  informer.on('add', (o) => adds.push(o.metadata!.name!));
  informer.on('delete', (o) => deletes.push(o.metadata!.name!));
  informer.on('connect', () => connects++);
  await core.createNamespacedConfigMap({ namespace: 'inf', body: configMap('pre') });
  await informer.start();
  const waitFor = async (cond: () => boolean): Promise<void> => {
    for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(cond()).toBe(true);
  };
  await waitFor(() => adds.includes('pre'));
  await core.createNamespacedConfigMap({ namespace: 'inf', body: configMap('live') });
  await waitFor(() => adds.includes('live'));
  // the server closes every watch: the informer resumes from its resourceVersion
  const connectsBefore = connects;
  suite.cluster.closeWatches();
  await waitFor(() => connects > connectsBefore);
  await core.createNamespacedConfigMap({ namespace: 'inf', body: configMap('after-close') });
  await waitFor(() => adds.includes('after-close'));
  expect(adds.filter((n) => n === 'live')).toHaveLength(1);
  // the watch closes, a delete happens and history is compacted before the informer reconnects:
  // its resume gets 410, it relists, and the missed delete arrives as a delete callback
  const configMaps = suite.cluster.internals.catalog.find('', 'v1', 'configmaps')!;
  suite.cluster.internals.watches.closeAll();
  suite.cluster.internals.operations.delete(configMaps, 'inf', 'pre');
  suite.cluster.compactHistory();
  await waitFor(() => deletes.includes('pre'));
  const names = informer.list('inf').map((o) => o.metadata!.name).filter((n) => n !== 'kube-root-ca.crt');
  expect(names.sort()).toEqual(['after-close', 'live']);
});
