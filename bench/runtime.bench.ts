/**
 * Runtime benchmark against the local cluster, side by side in one run with what a TypeScript user
 * writes today (client-node's informer + a de-duplicating Set queue), like for like: every figure is taken
 * with the same number of workers on both sides, once with 1 and once with 4 (WORKER_COUNTS). The Set queue
 * with N workers keeps one key from two workers at once as kubeforge's queue does (a key added while it is
 * being reconciled waits for that reconcile to end).
 *
 * Method — measure the runtime, not the API server:
 * - The local cluster (real clock) runs in a child process (bench/runtime-cluster-process.mjs), and that
 *   process also creates the objects (20 requests in flight), so neither the server nor the creator
 *   shares the runtime's event loop. The runtime under test is the only work in this process.
 * - Burst: with the runtime watching an empty namespace, 1,000 ConfigMaps are created; "reconciled once"
 *   is the time from the create order to the last first-reconcile. The server's own create burst time is
 *   printed beside it (it is the floor for this figure), and the tail = reconciled-once − server burst
 *   (how far the runtime lags the server), which is the runtime's share.
 * - Burst with a server read: the same burst, but each reconcile also reads its object from the API server
 *   (an uncached GET, standing in for the API call or external request a real reconciler makes), and the time
 *   runs to the last reconcile's end, with the same worker count on both sides.
 * - Latency with a server read: the paced creates again, each reconcile also reading its object from the server;
 *   create → reconcile start, so a runtime whose reconciles fall behind the 5 ms pace shows its backlog.
 * - CPU: user + system CPU time of this process during the burst (process.cpuUsage) — the runtime's own
 *   cost for 1,000 create events and reconciles, and the figure least disturbed by other load on the machine.
 * - Cold start: a fresh runtime is started on a namespace already holding those 1,000 objects; time from
 *   start to all 1,000 reconciled (initial list → store → handler → queue → worker; kubeforge lists with resourceVersion "0", which a 1.32 server answers whole, as client-go does).
 * - Latency: 400 more ConfigMaps created one at a time, 5 ms apart (so the server is never queueing and
 *   the figure is the event path, not a backlog). Per object: epoch time its first reconcile started (this
 *   process) minus the epoch time the creator wrote the create request (server process; both clocks are
 *   performance.timeOrigin + performance.now() on one machine), so it covers the server's create and watch
 *   send (~equal for both) plus the runtime's decode → cache → handler → queue → worker. p50/p99 are taken
 *   over the samples of all rounds pooled (a p99 of one round is its 4th-worst sample: noise), and beside
 *   them the median of the rounds' own p50/p99 (not moved by one disturbed round); per-round figures are
 *   printed too.
 * - Memory: heap growth (gc'd before and after) per cached object, 2,000 ~1 KiB ConfigMaps, each runtime
 *   in a fresh process of its own (bench/runtime-memory-process.mjs, on dist/runtime): in this process a
 *   runtime stopped earlier can still be reachable and be freed inside another's window (the same cache
 *   measured 0.1–2.3 KiB per object depending on what ran before it). Measured in every round, median.
 * - Same work per reconcile: each side reads the object from its cache and gets a copy of it — kubeforge's
 *   client copies (its contract, as controller-runtime's), and the client-node side copies what its informer
 *   hands out (the shared cached object) with the same clone function (cloneJson), as a reconciler that may
 *   change what it read must; without it the client-node side would do strictly less work per reconcile.
 *   Same code, not the same function object: the client-node side's cloneJson is a module instance of its own
 *   (loaded in jest.isolateModulesAsync), so its type feedback, inline caches and optimized code are its own.
 *   Through one shared function, the objects each side copies would shape the code the other runs (kubeforge's
 *   read path inlines cloneJson): one side's objects could make the clone polymorphic or deoptimize it for both,
 *   favouring or hurting either side depending on which ran first (runtime-cpu-compare.mjs does the same).
 * - Each round runs both runtimes, alternating which goes first; one warm-up round; medians of ROUNDS.
 *   Every measured phase starts after a full GC, so one side's garbage is never collected on the other's time.
 * Run: npm run bench:runtime (builds dist/ first: the cluster process and the memory processes run on it).
 */
import { jest } from '@jest/globals';
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CoreV1Api, KubeConfig, makeInformer, type V1ConfigMap } from '@kubernetes/client-node';
import pino from 'pino';
import { BuiltinKinds, cloneJson, Manager, newPredicate } from '../src/runtime/index.js';

/** kubeforge's cloneJson as a module instance of its own, for the client-node side ("Same work per reconcile"). */
async function separateCloneJson(): Promise<typeof cloneJson> {
  let own: typeof cloneJson | undefined;
  await jest.isolateModulesAsync(async () => {
    own = (await import('../src/runtime/cache/copy.js')).cloneJson;
  });
  if (own === undefined || own === cloneJson) throw new Error('the client-node side must clone with a cloneJson instance of its own, not the runtime\'s');
  return own;
}
const cloneForClientNode = await separateCloneJson();

const OBJECTS = 1000;
const MEMORY_OBJECTS = 2000;
const PACED_OBJECTS = 400;
const PACED_INTERVAL_MS = 5;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** Each figure is measured with this many workers on both sides. */
const WORKER_COUNTS = (process.env.BENCH_WORKERS ?? '1,4').split(',').map(Number);
const payload = 'x'.repeat(1024);
const epochNow = (): number => performance.timeOrigin + performance.now();

interface RunFigures {
  totalMs: number;
  createMs: number;
  /** CPU time (user + system) this process spent during the burst: the runtime's own cost of 1,000 objects. */
  cpuMs: number;
  /** totalMs − createMs: how long after the server's last create answer the last first-reconcile came. */
  tailMs: number;
  /** The burst again, each reconcile also reading its object from the server; to the last reconcile's end. */
  withReadMs: number;
  coldStartMs: number;
  p50: number;
  p99: number;
  /** p50 and p99 with a server read in every reconcile (a reconcile that falls behind delays the next one's start). */
  readP50: number;
  readP99: number;
  /** This round's create→reconcile samples (ms), pooled across rounds for the reported percentiles. */
  latencies: number[];
  /** The same with a server read in every reconcile. */
  readLatencies: number[];
  /** Heap per cached object (bytes), this round. */
  bytesPerObject: number;
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

/** A full collection, so no phase pays for garbage the previous one left. */
function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/** A runtime under test: started on a namespace, records the epoch time of each object's first reconcile. */
interface RuntimeUnderTest {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Epoch time each object's first reconcile started. */
  reconciledAt: Map<string, number>;
  /** Epoch time each object's first reconcile ended. */
  finishedAt: Map<string, number>;
}

/** How each reconcile works: a cache read only, or also an uncached read from the server. */
type ReconcileWork = 'cache' | 'server';

/** The two maps of a runtime under test, and `record`, which notes an object's first reconcile once it ends. */
function reconcileLog(): Pick<RuntimeUnderTest, 'reconciledAt' | 'finishedAt'> & { record(name: string, startedAt: number): void } {
  const reconciledAt = new Map<string, number>();
  const finishedAt = new Map<string, number>();
  return {
    reconciledAt,
    finishedAt,
    record(name, startedAt) {
      if (reconciledAt.has(name)) return;
      finishedAt.set(name, epochNow());
      reconciledAt.set(name, startedAt);
    },
  };
}

function kubeforgeRuntime(kubeconfigPath: string, ns: string, workers: number, work: ReconcileWork = 'cache'): RuntimeUnderTest {
  const mgr = new Manager({ kubeConfig: kubeconfigPath, logger: pino({ level: 'silent' }), cache: { namespace: ns } });
  const log = reconcileLog();
  const server = mgr.apiReader();
  mgr.controllerFor(BuiltinKinds.ConfigMap).withOptions({ maxConcurrentReconciles: workers }).withEventFilter(newPredicate((o) => o.metadata?.name?.startsWith('cm-') ?? false)).complete(async (req) => {
    const now = epochNow();
    await mgr.client.get(BuiltinKinds.ConfigMap, req);
    if (work === 'server') await server.get(BuiltinKinds.ConfigMap, req);
    log.record(req.name, now);
  });
  return {
    reconciledAt: log.reconciledAt,
    finishedAt: log.finishedAt,
    start: () => mgr.start(),
    stop: async () => {
      await mgr.stop();
      mgr.close();
    },
  };
}

function clientNodeRuntime(kubeconfigPath: string, ns: string, workers: number, work: ReconcileWork = 'cache'): RuntimeUnderTest {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const api = kc.makeApiClient(CoreV1Api);
  const informer = makeInformer<V1ConfigMap>(kc, `/api/v1/namespaces/${ns}/configmaps`, () => api.listNamespacedConfigMap({ namespace: ns }));
  const log = reconcileLog();
  // The queue a TypeScript user writes: a Set for de-duplication, `workers` workers, and (as client-go's
  // queue) a key being reconciled is not handed to a second worker: added again, it waits in `dirty`.
  const queue = new Set<string>();
  const processing = new Set<string>();
  const dirty = new Set<string>();
  const idle: Array<() => void> = [];
  let running = true;
  const add = (name: string) => {
    if (processing.has(name)) dirty.add(name);
    else if (!queue.has(name)) {
      queue.add(name);
      idle.pop()?.();
    }
  };
  const enqueue = (o: V1ConfigMap) => {
    if (o.metadata?.name?.startsWith('cm-')) add(o.metadata.name);
  };
  informer.on('add', enqueue);
  informer.on('update', enqueue);
  const worker = async () => {
    while (running) {
      const next = queue.values().next();
      if (next.done) {
        await new Promise<void>((r) => idle.push(r));
        continue;
      }
      const name = next.value;
      queue.delete(name);
      processing.add(name);
      const now = epochNow();
      cloneForClientNode(informer.get(name, ns)); // the copy kubeforge's cache read makes (see "Same work per reconcile")
      await Promise.resolve();
      if (work === 'server') await api.readNamespacedConfigMap({ name, namespace: ns });
      log.record(name, now);
      processing.delete(name);
      if (dirty.delete(name)) add(name);
    }
  };
  let pool: Promise<void[]> | undefined;
  return {
    reconciledAt: log.reconciledAt,
    finishedAt: log.finishedAt,
    start: async () => {
      pool = Promise.all(Array.from({ length: workers }, worker));
      await informer.start();
    },
    stop: async () => {
      running = false;
      for (const wake of idle.splice(0)) wake();
      await pool;
      await informer.stop();
    },
  };
}

type Factory = (kubeconfigPath: string, ns: string, workers: number, work?: ReconcileWork) => RuntimeUnderTest;

/** Paced creates (one every PACED_INTERVAL_MS) into a fresh namespace: each object's create → first reconcile start, ms. */
async function pacedLatencies(cluster: ClusterProcess, make: Factory, ns: string, workers: number, work: ReconcileWork): Promise<number[]> {
  const paced = make(cluster.kubeconfigPath, ns, workers, work);
  await paced.start();
  collectGarbage();
  const { sentAt } = await cluster.create(ns, PACED_OBJECTS, {}, PACED_INTERVAL_MS);
  await until(() => paced.reconciledAt.size === PACED_OBJECTS);
  await paced.stop();
  return [...paced.reconciledAt].map(([n, t]) => t - sentAt[n]!);
}

async function measure(cluster: ClusterProcess, make: Factory, ns: string, workers: number, memory: (cluster: ClusterProcess) => Promise<number>): Promise<RunFigures> {
  const burst = make(cluster.kubeconfigPath, ns, workers);
  await burst.start();
  collectGarbage();
  const started = epochNow();
  const cpuBefore = process.cpuUsage();
  const { createMs } = await cluster.create(ns, OBJECTS);
  await until(() => burst.reconciledAt.size === OBJECTS);
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const totalMs = Math.max(...burst.reconciledAt.values()) - started;
  await burst.stop();

  const withRead = make(cluster.kubeconfigPath, `${ns}-read`, workers, 'server');
  await withRead.start();
  collectGarbage();
  const readStarted = epochNow();
  await cluster.create(`${ns}-read`, OBJECTS);
  await until(() => withRead.reconciledAt.size === OBJECTS);
  const withReadMs = Math.max(...withRead.finishedAt.values()) - readStarted;
  await withRead.stop();

  const latencies = await pacedLatencies(cluster, make, `${ns}-paced`, workers, 'cache');
  const readLatencies = await pacedLatencies(cluster, make, `${ns}-paced-read`, workers, 'server');

  const cold = make(cluster.kubeconfigPath, ns, workers);
  collectGarbage();
  const coldStarted = epochNow();
  await cold.start();
  await until(() => cold.reconciledAt.size === OBJECTS);
  const coldStartMs = Math.max(...cold.reconciledAt.values()) - coldStarted;
  await cold.stop();
  const bytesPerObject = await memory(cluster);
  return { totalMs, createMs, cpuMs, tailMs: totalMs - createMs, withReadMs, coldStartMs, p50: percentile(latencies, 50), p99: percentile(latencies, 99), readP50: percentile(readLatencies, 50), readP99: percentile(readLatencies, 99), latencies, readLatencies, bytesPerObject };
}

const MEMORY_NAMESPACE = 'bench-memory';

/** Heap per cached object of one runtime holding the memory namespace, measured in a fresh process. */
async function memoryInFreshProcess(cluster: ClusterProcess, side: 'kubeforge' | 'kubeforge-frozen' | 'client-node'): Promise<number> {
  const script = fileURLToPath(new URL('./runtime-memory-process.mjs', import.meta.url));
  const child = fork(script, [side, cluster.kubeconfigPath, MEMORY_NAMESPACE, String(MEMORY_OBJECTS)], { execArgv: ['--expose-gc'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve((m as { bytesPerObject: number }).bytesPerObject));
    child.once('exit', (code) => reject(new Error(`memory process (${side}) exited with ${code} before reporting`)));
  });
}

const kubeforgeMemory = (cluster: ClusterProcess, frozen = false) => memoryInFreshProcess(cluster, frozen ? 'kubeforge-frozen' : 'kubeforge');
const clientNodeMemory = (cluster: ClusterProcess) => memoryInFreshProcess(cluster, 'client-node');

/**
 * A runtime's figures over the rounds: medians, with p50/p99 taken over every round's latency samples pooled,
 * and also as the median of the rounds' own p50/p99 (roundP50/roundP99): a pooled p99 is set by whichever
 * round had a few outliers (one disturbed round can hold most of the slowest 1 %), the median of per-round
 * percentiles is not — both are shown, the pooled one being the figure earlier runs reported.
 */
type Summary = Omit<RunFigures, 'latencies' | 'readLatencies'> & { roundP50: number; roundP99: number };

function summarize(runs: RunFigures[]): Summary {
  const median = (field: keyof Omit<RunFigures, 'latencies' | 'readLatencies'>) => percentile(runs.map((r) => r[field]), 50);
  const pooled = runs.flatMap((r) => r.latencies);
  const pooledRead = runs.flatMap((r) => r.readLatencies);
  return {
    totalMs: median('totalMs'),
    createMs: median('createMs'),
    cpuMs: median('cpuMs'),
    tailMs: median('tailMs'),
    withReadMs: median('withReadMs'),
    coldStartMs: median('coldStartMs'),
    p50: percentile(pooled, 50),
    p99: percentile(pooled, 99),
    readP50: percentile(pooledRead, 50),
    readP99: percentile(pooledRead, 99),
    bytesPerObject: median('bytesPerObject'),
    roundP50: median('p50'),
    roundP99: median('p99'),
  };
}

test('runtime benchmark: kubeforge vs client-node informer + a work queue, 1 and 4 workers on both sides', async () => {
  const cluster = await ClusterProcess.start();
  try {
    await cluster.create(MEMORY_NAMESPACE, MEMORY_OBJECTS, { payload, other: 'value' });
    await cluster.create(`${MEMORY_NAMESPACE}-warmup`, 50, { payload, other: 'value' });
    // Heap per cached object does not depend on the worker count: measured with the first count, reused.
    const runPair = async (tag: string, workers: number, kubeforgeFirst: boolean, memory: { kubeforge?: number; clientNode?: number }) => {
      const kf = () => measure(cluster, kubeforgeRuntime, `kf-${tag}-w${workers}`, workers, async (c) => (memory.kubeforge ??= await kubeforgeMemory(c)));
      const cn = () => measure(cluster, clientNodeRuntime, `cn-${tag}-w${workers}`, workers, async (c) => (memory.clientNode ??= await clientNodeMemory(c)));
      if (kubeforgeFirst) {
        const kubeforge = await kf();
        return { kubeforge, clientNode: await cn() };
      }
      const clientNode = await cn();
      return { kubeforge: await kf(), clientNode };
    };
    for (const workers of WORKER_COUNTS) await runPair('warmup', workers, false, {});
    const rounds = new Map<number, Array<{ kubeforge: RunFigures; clientNode: RunFigures }>>(WORKER_COUNTS.map((w) => [w, []]));
    for (let i = 0; i < ROUNDS; i++) {
      const memory = {};
      for (const workers of WORKER_COUNTS) rounds.get(workers)!.push(await runPair(`r${i}`, workers, i % 2 === 0, memory));
    }
    const frozenBytes = await kubeforgeMemory(cluster, true);
    const side = (f: RunFigures) =>
      `cpu ${f.cpuMs.toFixed(0)} ms, burst ${f.totalMs.toFixed(0)} (server ${f.createMs.toFixed(0)}), with server reads ${f.withReadMs.toFixed(0)} ms, cold ${f.coldStartMs.toFixed(0)} ms, p50 ${f.p50.toFixed(2)} p99 ${f.p99.toFixed(2)} ms, with server reads p50 ${f.readP50.toFixed(2)} p99 ${f.readP99.toFixed(2)} ms, ${(f.bytesPerObject / 1024).toFixed(2)} KiB`;
    const row = (name: string, f: Summary) =>
      `| ${name} | ${(f.totalMs / 1000).toFixed(2)} s (server burst ${(f.createMs / 1000).toFixed(2)} s, tail ${f.tailMs.toFixed(1)} ms) | ${f.p50.toFixed(2)} / ${f.p99.toFixed(2)} ms | ${f.roundP50.toFixed(2)} / ${f.roundP99.toFixed(2)} ms | ${f.cpuMs.toFixed(0)} ms | ${(f.coldStartMs / 1000).toFixed(3)} s | ${(f.bytesPerObject / 1024).toFixed(2)} KiB | ${(f.withReadMs / 1000).toFixed(2)} s | ${f.readP50.toFixed(2)} / ${f.readP99.toFixed(2)} ms |`;
    const ratio = (a: number, b: number) => (b / a).toFixed(2);
    const lines: string[] = [];
    const table: string[] = [
      `| runtime (workers) | ${OBJECTS} created → reconciled once (cache-only) | create→reconcile p50 / p99 (paced, pooled) | p50 / p99, median of the rounds' | CPU for the ${OBJECTS}-event burst | cold start on ${OBJECTS} | heap per cached ~1 KiB ConfigMap | ${OBJECTS} reconciled, each reading from the server | p50 / p99, each reading from the server |`,
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ];
    for (const workers of WORKER_COUNTS) {
      const pairs = rounds.get(workers)!;
      lines.push(...pairs.map((r, i) => `${workers} worker(s), round ${i}: kubeforge ${side(r.kubeforge)} | client-node ${side(r.clientNode)}`));
      const kubeforge = summarize(pairs.map((r) => r.kubeforge));
      const clientNode = summarize(pairs.map((r) => r.clientNode));
      table.push(row(`kubeforge (${workers})`, kubeforge), row(`client-node informer + queue (${workers})`, clientNode));
      table.push(
        `| client-node / kubeforge (${workers}; above 1: kubeforge ahead) | ${ratio(kubeforge.totalMs, clientNode.totalMs)}× (tail ${ratio(kubeforge.tailMs, clientNode.tailMs)}×) | ${ratio(kubeforge.p50, clientNode.p50)}× / ${ratio(kubeforge.p99, clientNode.p99)}× | ${ratio(kubeforge.roundP50, clientNode.roundP50)}× / ${ratio(kubeforge.roundP99, clientNode.roundP99)}× | ${ratio(kubeforge.cpuMs, clientNode.cpuMs)}× | ${ratio(kubeforge.coldStartMs, clientNode.coldStartMs)}× | ${ratio(kubeforge.bytesPerObject, clientNode.bytesPerObject)}× | ${ratio(kubeforge.withReadMs, clientNode.withReadMs)}× | ${ratio(kubeforge.readP50, clientNode.readP50)}× / ${ratio(kubeforge.readP99, clientNode.readP99)}× |`,
      );
    }
    table.push(`| kubeforge, \`frozen: true\` cache | | | | | | ${(frozenBytes / 1024).toFixed(2)} KiB | | |`);
    console.log([...lines, '', ...table].join('\n'));
  } finally {
    await cluster.stop();
  }
}, 3_600_000);
