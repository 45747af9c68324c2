/**
 * Runtime benchmark against the local cluster, side by side in one run with what a TypeScript user
 * writes today (client-node's informer + a de-duplicating Set queue with one worker).
 *
 * Method — measure the runtime, not the API server:
 * - The local cluster (real clock) runs in a child process (bench/runtime-cluster-process.mjs), and that
 *   process also creates the objects (20 requests in flight), so neither the server nor the creator
 *   shares the runtime's event loop. The runtime under test is the only work in this process.
 * - Burst: with the runtime watching an empty namespace, 1,000 ConfigMaps are created; "reconciled once"
 *   is the time from the create order to the last first-reconcile. The server's own create burst time is
 *   printed beside it (it is the floor for this figure), and the tail = reconciled-once − server burst
 *   (how far the runtime lags the server), which is the runtime's share.
 * - CPU: user + system CPU time of this process during the burst (process.cpuUsage) — the runtime's own
 *   cost for 1,000 create events and reconciles, and the figure least disturbed by other load on the machine.
 * - Cold start: a fresh runtime is started on a namespace already holding those 1,000 objects; time from
 *   start to all 1,000 reconciled (initial paginated list → store → handler → queue → worker).
 * - Latency: 300 more ConfigMaps created one at a time, 5 ms apart (so the server is never queueing and
 *   the figure is the event path, not a backlog). Per object: epoch time its first reconcile started (this
 *   process) minus the epoch time the creator wrote the create request (server process; both clocks are
 *   performance.timeOrigin + performance.now() on one machine), so it covers the server's create and watch
 *   send (~equal for both) plus the runtime's decode → cache → handler → queue → worker; p50/p99.
 * - Memory: heap growth of this process (gc'd before and after) per cached object, 2,000 ~1 KiB
 *   ConfigMaps; the server's heap is in the other process and no longer counted.
 * - Each round runs both runtimes, alternating which goes first; one warm-up round; medians of ROUNDS.
 * Run: npm run bench:runtime (needs dist/cluster built: npx tsc -p tsconfig.build.json).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import pino from 'pino';
import { BuiltinKinds, Cache, Manager, newPredicate } from '../src/runtime/index.js';

const OBJECTS = 1000;
const MEMORY_OBJECTS = 2000;
const PACED_OBJECTS = 300;
const PACED_INTERVAL_MS = 5;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const payload = 'x'.repeat(1024);
const epochNow = (): number => performance.timeOrigin + performance.now();

interface RunFigures {
  totalMs: number;
  createMs: number;
  /** CPU time (user + system) this process spent during the burst: the runtime's own cost of 1,000 objects. */
  cpuMs: number;
  /** totalMs − createMs: how long after the server's last create answer the last first-reconcile came. */
  tailMs: number;
  coldStartMs: number;
  p50: number;
  p99: number;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The child process holding the API server and the creator. */
class ClusterProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly kubeconfigPath: string,
  ) {}

  static async start(): Promise<ClusterProcess> {
    const script = fileURLToPath(new URL('./runtime-cluster-process.mjs', import.meta.url));
    const child = fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const ready = await new Promise<{ kubeconfigPath: string }>((resolve, reject) => {
      child.once('message', (m) => resolve(m as { kubeconfigPath: string }));
      child.once('exit', (code) => reject(new Error(`cluster process exited with ${code}`)));
    });
    return new ClusterProcess(child, ready.kubeconfigPath);
  }

  create(ns: string, count: number, data: Record<string, string> = {}, intervalMs?: number): Promise<{ sentAt: Record<string, number>; createMs: number }> {
    return new Promise((resolve, reject) => {
      this.child.once('message', (m: { op: string; message?: string; sentAt: Record<string, number>; createMs: number }) =>
        m.op === 'created' ? resolve(m) : reject(new Error(m.message)),
      );
      this.child.send({ op: 'create', ns, count, data, intervalMs });
    });
  }

  async stop(): Promise<void> {
    const exited = new Promise((r) => this.child.once('exit', r));
    this.child.send({ op: 'stop' });
    await exited;
  }
}

async function until(cond: () => boolean, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('benchmark timed out');
    await new Promise((r) => setTimeout(r, 1));
  }
}

function heapUsed(): number {
  (globalThis as { gc?: () => void }).gc?.();
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
}

/** A runtime under test: started on a namespace, records the epoch time of each object's first reconcile. */
interface RuntimeUnderTest {
  start(): Promise<void>;
  stop(): Promise<void>;
  reconciledAt: Map<string, number>;
}

function kubeforgeRuntime(kubeconfigPath: string, ns: string): RuntimeUnderTest {
  const mgr = new Manager({ kubeConfig: kubeconfigPath, logger: pino({ level: 'silent' }), cache: { namespace: ns } });
  const reconciledAt = new Map<string, number>();
  mgr.controllerFor(BuiltinKinds.ConfigMap).withEventFilter(newPredicate((o) => o.metadata?.name?.startsWith('cm-') ?? false)).complete(async (req) => {
    const now = epochNow();
    await mgr.client.get(BuiltinKinds.ConfigMap, req);
    if (!reconciledAt.has(req.name)) reconciledAt.set(req.name, now);
  });
  return {
    reconciledAt,
    start: () => mgr.start(),
    stop: async () => {
      await mgr.stop();
      mgr.close();
    },
  };
}

function clientNodeRuntime(kubeconfigPath: string, ns: string): RuntimeUnderTest {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
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
  let worker: Promise<void> | undefined;
  return {
    reconciledAt,
    start: async () => {
      worker = (async () => {
        while (running) {
          const next = queue.values().next();
          if (next.done) {
            await new Promise<void>((r) => (wake = r));
            continue;
          }
          queue.delete(next.value);
          const now = epochNow();
          informer.get(next.value, ns);
          await Promise.resolve();
          if (!reconciledAt.has(next.value)) reconciledAt.set(next.value, now);
        }
      })();
      await informer.start();
    },
    stop: async () => {
      running = false;
      wake?.();
      await worker;
      await informer.stop();
    },
  };
}

type Factory = (kubeconfigPath: string, ns: string) => RuntimeUnderTest;

async function measure(cluster: ClusterProcess, make: Factory, ns: string): Promise<RunFigures> {
  const burst = make(cluster.kubeconfigPath, ns);
  await burst.start();
  const started = epochNow();
  const cpuBefore = process.cpuUsage();
  const { createMs } = await cluster.create(ns, OBJECTS);
  await until(() => burst.reconciledAt.size === OBJECTS);
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const totalMs = Math.max(...burst.reconciledAt.values()) - started;
  await burst.stop();

  const paced = make(cluster.kubeconfigPath, `${ns}-paced`);
  await paced.start();
  const { sentAt } = await cluster.create(`${ns}-paced`, PACED_OBJECTS, {}, PACED_INTERVAL_MS);
  await until(() => paced.reconciledAt.size === PACED_OBJECTS);
  const latencies = [...paced.reconciledAt].map(([n, t]) => t - sentAt[n]!);
  await paced.stop();

  const cold = make(cluster.kubeconfigPath, ns);
  const coldStarted = epochNow();
  await cold.start();
  await until(() => cold.reconciledAt.size === OBJECTS);
  const coldStartMs = Math.max(...cold.reconciledAt.values()) - coldStarted;
  await cold.stop();
  return { totalMs, createMs, cpuMs, tailMs: totalMs - createMs, coldStartMs, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function memoryPerObject(cluster: ClusterProcess): Promise<{ kubeforge: number; kubeforgeFrozen: number; clientNode: number }> {
  const ns = 'bench-memory';
  await cluster.create(ns, MEMORY_OBJECTS, { payload, other: 'value' });
  const admin = new Manager({ kubeConfig: cluster.kubeconfigPath, logger: pino({ level: 'silent' }) });
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
  admin.close();

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
  const cluster = await ClusterProcess.start();
  try {
    const runPair = async (tag: string, kubeforgeFirst: boolean) => {
      const kf = () => measure(cluster, kubeforgeRuntime, `kf-${tag}`);
      const cn = () => measure(cluster, clientNodeRuntime, `cn-${tag}`);
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
    const median = (pick: (r: (typeof rounds)[number]) => RunFigures): RunFigures => {
      const of = (field: keyof RunFigures) => percentile(rounds.map((r) => pick(r)[field]), 50);
      return { totalMs: of('totalMs'), createMs: of('createMs'), cpuMs: of('cpuMs'), tailMs: of('tailMs'), coldStartMs: of('coldStartMs'), p50: of('p50'), p99: of('p99') };
    };
    const kubeforge = median((r) => r.kubeforge);
    const clientNode = median((r) => r.clientNode);
    const memory = await memoryPerObject(cluster);
    const perRound = rounds.map(
      (r, i) =>
        `round ${i}: kubeforge cpu ${r.kubeforge.cpuMs.toFixed(0)} ${r.kubeforge.totalMs.toFixed(0)}/${r.kubeforge.coldStartMs.toFixed(0)} ms p50 ${r.kubeforge.p50.toFixed(1)} p99 ${r.kubeforge.p99.toFixed(1)} | ` +
        `client-node cpu ${r.clientNode.cpuMs.toFixed(0)} ${r.clientNode.totalMs.toFixed(0)}/${r.clientNode.coldStartMs.toFixed(0)} ms p50 ${r.clientNode.p50.toFixed(1)} p99 ${r.clientNode.p99.toFixed(1)} (server burst ${r.kubeforge.createMs.toFixed(0)}/${r.clientNode.createMs.toFixed(0)} ms)`,
    );
    const row = (name: string, f: RunFigures, bytes: number) =>
      `| ${name} | ${(f.totalMs / 1000).toFixed(2)} s (server burst ${(f.createMs / 1000).toFixed(2)} s, tail ${(f.tailMs).toFixed(1)} ms) | ${(f.coldStartMs / 1000).toFixed(2)} s | ${f.p50.toFixed(1)} ms | ${f.p99.toFixed(1)} ms | ${(bytes / 1024).toFixed(2)} KiB |`;
    const ratio = (a: number, b: number) => (b / a).toFixed(2);
    console.log(
      [
        ...perRound,
        '',
        `| runtime | ${OBJECTS} created → reconciled once | cold start on ${OBJECTS} | create→reconcile p50 (paced) | p99 | heap per cached object (~1 KiB ConfigMap) |`,
        '| --- | --- | --- | --- | --- | --- |',
        row('kubeforge', kubeforge, memory.kubeforge),
        `| kubeforge (frozen cache) | | | | | ${(memory.kubeforgeFrozen / 1024).toFixed(2)} KiB |`,
        row('client-node informer + Set queue', clientNode, memory.clientNode),
        '',
        `CPU of this process during the burst: kubeforge ${kubeforge.cpuMs.toFixed(0)} ms, client-node ${clientNode.cpuMs.toFixed(0)} ms (${ratio(kubeforge.cpuMs, clientNode.cpuMs)}×)`,
        `client-node / kubeforge: burst ${ratio(kubeforge.totalMs, clientNode.totalMs)}× (tail ${ratio(kubeforge.tailMs, clientNode.tailMs)}×), cold start ${ratio(kubeforge.coldStartMs, clientNode.coldStartMs)}×, p50 ${ratio(kubeforge.p50, clientNode.p50)}×, p99 ${ratio(kubeforge.p99, clientNode.p99)}×, memory ${ratio(memory.kubeforge, memory.clientNode)}×`,
      ].join('\n'),
    );
  } finally {
    await cluster.stop();
  }
}, 900_000);
