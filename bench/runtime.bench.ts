/**
 * Runtime benchmark against the local cluster, side by side in one run with what a TypeScript user
 * writes today (client-node's informer + a de-duplicating queue with one worker):
 *   1. time for 1,000 ConfigMaps to be reconciled once after creation,
 *   2. create-to-reconcile latency p50/p99 (from the create request to the reconcile starting),
 *   3. heap per cached object (2,000 ConfigMaps of ~1 KiB).
 * Figures are medians of alternating rounds after a warm-up round.
 * Run: node --expose-gc --experimental-vm-modules node_modules/jest/bin/jest.js --testMatch '**' bench/runtime.bench.ts
 */
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import pino from 'pino';
import { startLocalCluster } from '../src/cluster/index.js';
import { BuiltinKinds, Cache, Manager, newPredicate, type KubeObject } from '../src/runtime/index.js';

const OBJECTS = 1000;
const MEMORY_OBJECTS = 2000;
const ROUNDS = 3;
const payload = 'x'.repeat(1024);

type Cluster = Awaited<ReturnType<typeof startLocalCluster>>;

interface Figures {
  totalMs: number;
  p50: number;
  p99: number;
  bytesPerObject: number;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function createAll(mgr: Manager, ns: string, count: number, createdAt: Map<string, number>, data: Record<string, string> = {}): Promise<void> {
  const client = mgr.apiReader();
  for (let start = 0; start < count; start += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, count - start) }, async (_, k) => {
        const name = `cm-${start + k}`;
        createdAt.set(name, performance.now());
        await client.create<KubeObject>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: ns, name }, data } as KubeObject);
      }),
    );
  }
}

async function until(cond: () => boolean, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('benchmark timed out');
    await new Promise((r) => setTimeout(r, 2));
  }
}

function heapUsed(): number {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

async function kubeforgeRun(cluster: Cluster, admin: Manager, ns: string): Promise<Omit<Figures, 'bytesPerObject'>> {
  await admin.apiReader().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  const mgr = new Manager({ kubeConfig: cluster.kubeconfigPath, clock: cluster.clock, logger: pino({ level: 'silent' }), cache: { namespace: ns } });
  const reconciledAt = new Map<string, number>();
  mgr.controllerFor(BuiltinKinds.ConfigMap).withEventFilter(newPredicate((o) => o.metadata?.name?.startsWith('cm-') ?? false)).complete(async (req) => {
    await mgr.client.get(BuiltinKinds.ConfigMap, req);
    if (!reconciledAt.has(req.name)) reconciledAt.set(req.name, performance.now());
  });
  await mgr.start();
  const createdAt = new Map<string, number>();
  const started = performance.now();
  await createAll(admin, ns, OBJECTS, createdAt);
  await until(() => reconciledAt.size === OBJECTS);
  const totalMs = performance.now() - started;
  const latencies = [...reconciledAt].map(([n, t]) => t - createdAt.get(n)!);
  await mgr.stop();
  mgr.close();
  return { totalMs, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function clientNodeRun(cluster: Cluster, admin: Manager, ns: string): Promise<Omit<Figures, 'bytesPerObject'>> {
  await admin.apiReader().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfigPath);
  const api = kc.makeApiClient(CoreV1Api);
  const informer = makeInformer<V1ConfigMap>(kc, `/api/v1/namespaces/${ns}/configmaps`, () => api.listNamespacedConfigMap({ namespace: ns }));
  const reconciledAt = new Map<string, number>();
  // The queue a TypeScript user writes today: a Set for de-duplication and one worker.
  const queue = new Set<string>();
  let wake: (() => void) | undefined;
  let running = true;
  const enqueue = (o: V1ConfigMap) => {
    if (!o.metadata?.name?.startsWith('cm-')) return;
    queue.add(o.metadata.name);
    wake?.();
  };
  informer.on('add', enqueue);
  informer.on('update', enqueue);
  const worker = (async () => {
    while (running) {
      const next = queue.values().next();
      if (next.done) {
        await new Promise<void>((r) => (wake = r));
        continue;
      }
      queue.delete(next.value);
      informer.get(next.value, ns);
      await Promise.resolve();
      if (!reconciledAt.has(next.value)) reconciledAt.set(next.value, performance.now());
    }
  })();
  await informer.start();
  const createdAt = new Map<string, number>();
  const started = performance.now();
  await createAll(admin, ns, OBJECTS, createdAt);
  await until(() => reconciledAt.size === OBJECTS);
  const totalMs = performance.now() - started;
  const latencies = [...reconciledAt].map(([n, t]) => t - createdAt.get(n)!);
  running = false;
  wake?.();
  await worker;
  await informer.stop();
  return { totalMs, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function memoryPerObject(cluster: Cluster, admin: Manager): Promise<{ kubeforge: number; kubeforgeFrozen: number; clientNode: number }> {
  const ns = 'bench-memory';
  await admin.apiReader().create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await createAll(admin, ns, MEMORY_OBJECTS, new Map(), { payload, other: 'value' });

  const measureKubeforge = async (frozen: boolean) => {
    const before = heapUsed();
    const cache = new Cache({ client: admin.apiReader(), transport: admin.transport, kinds: admin.kinds, namespace: ns, frozen });
    cache.informerFor(BuiltinKinds.ConfigMap);
    cache.start();
    await cache.waitForCacheSync();
    const bytes = (heapUsed() - before) / MEMORY_OBJECTS;
    await cache.stop();
    return bytes;
  };
  const kubeforge = await measureKubeforge(false);
  const kubeforgeFrozen = await measureKubeforge(true);

  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfigPath);
  const api = kc.makeApiClient(CoreV1Api);
  const before = heapUsed();
  const informer = makeInformer<V1ConfigMap>(kc, `/api/v1/namespaces/${ns}/configmaps`, () => api.listNamespacedConfigMap({ namespace: ns }));
  await informer.start();
  await until(() => informer.list(ns).length >= MEMORY_OBJECTS);
  const clientNode = (heapUsed() - before) / MEMORY_OBJECTS;
  await informer.stop();
  return { kubeforge, kubeforgeFrozen, clientNode };
}

test('runtime benchmark: kubeforge vs client-node informer + simple queue', async () => {
  const cluster = await startLocalCluster({ authz: 'alwaysAllow' });
  const admin = new Manager({ kubeConfig: cluster.kubeconfigPath, clock: cluster.clock, logger: pino({ level: 'silent' }) });
  try {
    // The in-process API server shares the process, so order and warm-up matter: one unmeasured round
    // of each, then ROUNDS measured rounds alternating which runtime goes first; medians are reported.
    const runPair = async (tag: string, kubeforgeFirst: boolean) => {
      const kf = () => kubeforgeRun(cluster, admin, `kf-${tag}`);
      const cn = () => clientNodeRun(cluster, admin, `cn-${tag}`);
      if (kubeforgeFirst) {
        const kubeforge = await kf();
        return { kubeforge, clientNode: await cn() };
      }
      const clientNode = await cn();
      return { kubeforge: await kf(), clientNode };
    };
    await runPair('warmup', false);
    const rounds = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await runPair(`r${i}`, i % 2 === 0));
    const median = (pick: (r: (typeof rounds)[number]) => Omit<Figures, 'bytesPerObject'>) => ({
      totalMs: percentile(rounds.map((r) => pick(r).totalMs), 50),
      p50: percentile(rounds.map((r) => pick(r).p50), 50),
      p99: percentile(rounds.map((r) => pick(r).p99), 50),
    });
    const kubeforge = median((r) => r.kubeforge);
    const clientNode = median((r) => r.clientNode);
    const memory = await memoryPerObject(cluster, admin);
    const row = (name: string, f: Omit<Figures, 'bytesPerObject'>, bytes: number) =>
      `| ${name} | ${(f.totalMs / 1000).toFixed(2)} s | ${f.p50.toFixed(1)} ms | ${f.p99.toFixed(1)} ms | ${(bytes / 1024).toFixed(2)} KiB |`;
    console.log(
      [
        `| runtime | ${OBJECTS} objects reconciled once | create→reconcile p50 | p99 | heap per cached object (~1 KiB ConfigMap) |`,
        '| --- | --- | --- | --- | --- |',
        row('kubeforge', kubeforge, memory.kubeforge),
        `| kubeforge (frozen cache) | | | | ${(memory.kubeforgeFrozen / 1024).toFixed(2)} KiB |`,
        row('client-node informer + Set queue', clientNode, memory.clientNode),
      ].join('\n'),
    );
  } finally {
    admin.close();
    await cluster.stop();
  }
}, 600_000);
