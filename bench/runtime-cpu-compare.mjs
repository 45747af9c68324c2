// CPU per 1,000-event burst and cold start on 1,000 objects, kubeforge vs client-node informer + queue, with
// the same worker count on both sides, interleaved rounds in one process, for profiling the cache-only path
// (bench/runtime.bench.ts is the full comparison). The cluster and the creator run in
// bench/runtime-cluster-process.mjs. Run on dist/: node --expose-gc [--cpu-prof] bench/runtime-cpu-compare.mjs [rounds] [workers] [sides]
// (sides: kubeforge,client-node by default; `kubeforge-base` runs a second build of the runtime, from
// KF_BASE_DIST (a copy of dist/ made before a change), interleaved with the current one: old vs new in one run).
// With --max-semi-space-size=256 no scavenge runs inside a burst, and `allocated` (heap growth over the burst)
// is what the runtime allocated for it. KF_BURST_PROFILE=dir writes a CPU profile of each measured burst (only the
// burst: start-up and cold starts left out) as dir/<side>-<round>.cpuprofile. KF_PACED=n: each round also
// measures latency as bench/runtime.bench.ts does (n creates 5 ms apart into a fresh runtime; create order →
// first reconcile start), printed as the median over rounds of each round's p50 and p99 (a round's p99 is noisy;
// the median of many short rounds, interleaved, is steadier than one pooled percentile) and pooled;
// KF_PACED_WORST=1 also prints each paced round's five slowest objects (to tell a pattern from noise).
import { fork } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import v8 from 'node:v8';
import pino from 'pino';
import { clientNodeBaseline } from './client-node-baseline.mjs';
import * as current from '../dist/runtime/index.js';
// The client-node side clones what its informer hands out with kubeforge's cloneJson (like for like), loaded as a
// module instance of its own: the same code, but no type feedback or optimized code shared with the runtime under
// test (sharing it made kubeforge's read path, which inlines cloneJson, deoptimize on client-node's objects).
const { cloneJson: cloneForClientNode } = await import('../dist/runtime/cache/copy.js?client-node');

const rounds = Number(process.argv[2] ?? 7);
const workers = Number(process.argv[3] ?? 4);
const sides = (process.argv[4] ?? 'kubeforge,client-node').split(',');
const OBJECTS = 1000;
/** What kubeforge's reconcile reads (KF_READ, for finding where its time goes): client (default), store (no copy), none. */
const read = process.env.KF_READ ?? 'client';
const child = fork(new URL('./runtime-cluster-process.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const next = () => new Promise((resolve) => child.once('message', resolve));
process.on('exit', () => child.kill()); // an error here must not leave the cluster process behind
const { kubeconfigPath } = await next();
const create = async (ns, count = OBJECTS, intervalMs = undefined) => {
  child.send({ op: 'create', ns, count, data: {}, intervalMs });
  return next();
};
const PACED = Number(process.env.KF_PACED ?? 0);
const epochNow = () => performance.timeOrigin + performance.now();
/**
 * CPU ms of this process's main thread alone (Linux /proc schedstat, ns); the rest of cpuUsage is V8's
 * background threads — TurboFan compiling (a fresh runtime's hot path), GC helpers — and libuv's pool.
 */
const mainThreadMs = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
const until = async (cond) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 1));
};

/** KF_BURST_PROFILE=dir: a CPU profile (50 µs sampling) of each measured burst, as dir/<side>-<round>.cpuprofile. */
const profileDir = process.env.KF_BURST_PROFILE;
const inspector = profileDir ? new Session() : undefined;
if (inspector) {
  mkdirSync(profileDir, { recursive: true });
  inspector.connect();
  await inspector.post('Profiler.enable');
  await inspector.post('Profiler.setSamplingInterval', { interval: 50 });
}

const base = sides.includes('kubeforge-base') ? await import(`${process.env.KF_BASE_DIST}/runtime/index.js`) : undefined;

function kubeforge(ns, runtime = current) {
  const { BuiltinKinds, Manager } = runtime;
  const mgr = new Manager({ kubeConfig: kubeconfigPath, logger: pino({ level: 'silent' }), cache: { namespace: ns } });
  /** Each object's first reconcile: name → epoch ms it started. */
  const seen = new Map();
  mgr.controllerFor(BuiltinKinds.ConfigMap).withOptions({ maxConcurrentReconciles: workers }).complete(async (req) => {
    const startedAt = epochNow();
    let obj;
    if (read === 'client') obj = await mgr.client.get(BuiltinKinds.ConfigMap, req);
    else if (read === 'store') obj = mgr.getCache().informerFor(BuiltinKinds.ConfigMap).store.get(`${req.namespace}/${req.name}`);
    if (req.name.startsWith('cm-') && (obj === undefined || obj.metadata.name === req.name) && !seen.has(req.name)) seen.set(req.name, startedAt);
  });
  return { seen, start: () => mgr.start(), stop: async () => (await mgr.stop(), mgr.close()) };
}

function clientNode(ns) {
  // the copy kubeforge's cache read makes (like for like)
  return clientNodeBaseline({ kubeconfigPath, namespace: ns, workers, clone: cloneForClientNode, now: epochNow });
}

const makers = { kubeforge, 'kubeforge-base': (ns) => kubeforge(ns, base), 'client-node': clientNode };
const results = Object.fromEntries(sides.map((s) => [s, { cpu: [], main: [], cold: [], coldCpu: [], allocated: [], p50: [], p99: [], latencies: [] }]));
const percentile = (xs, p) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
/** KF_PACED: PACED creates 5 ms apart into a fresh runtime; each object's create order → first reconcile start (ms). */
async function pacedLatencies(side, ns) {
  const paced = makers[side](ns);
  await paced.start();
  globalThis.gc?.();
  const { sentAt } = await create(ns, PACED, 5);
  await until(() => paced.seen.size === PACED);
  await paced.stop();
  const out = [...paced.seen].map(([name, at]) => at - sentAt[name]);
  if (process.env.KF_PACED_WORST) console.log(side, 'worst', [...paced.seen].map(([name, at]) => [name, +(at - sentAt[name]).toFixed(1)]).sort((a, b) => b[1] - a[1]).slice(0, 5).join(' '));
  return out;
}
for (let round = 0; round <= rounds; round++) {
  const order = round % 2 === 0 ? sides : [...sides].reverse();
  for (const side of order) {
    const ns = `${side}-${round}`;
    const burst = makers[side](ns);
    await burst.start();
    globalThis.gc?.();
    const cpu0 = process.cpuUsage();
    const main0 = mainThreadMs();
    const heap0 = v8.getHeapStatistics().used_heap_size;
    if (inspector && round > 0) await inspector.post('Profiler.start');
    await create(ns);
    await until(() => burst.seen.size === OBJECTS);
    const cpu = process.cpuUsage(cpu0);
    const main = mainThreadMs() - main0;
    const allocated = v8.getHeapStatistics().used_heap_size - heap0;
    if (inspector && round > 0) writeFileSync(`${profileDir}/${side}-${round}.cpuprofile`, JSON.stringify((await inspector.post('Profiler.stop')).profile));
    await burst.stop();
    const cold = makers[side](ns);
    globalThis.gc?.();
    const coldCpu0 = process.cpuUsage();
    const t0 = performance.now();
    await cold.start();
    await until(() => cold.seen.size === OBJECTS);
    const coldMs = performance.now() - t0;
    const coldCpu = process.cpuUsage(coldCpu0);
    await cold.stop();
    const latencies = PACED > 0 ? await pacedLatencies(side, `${ns}-paced`) : [];
    if (round === 0) continue; // warm-up
    if (PACED > 0) {
      results[side].p50.push(percentile(latencies, 50));
      results[side].p99.push(percentile(latencies, 99));
      results[side].latencies.push(...latencies);
    }
    results[side].cpu.push((cpu.user + cpu.system) / 1000);
    results[side].allocated.push(allocated / 1024);
    results[side].main.push(main);
    results[side].cold.push(coldMs);
    results[side].coldCpu.push((coldCpu.user + coldCpu.system) / 1000);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const side of sides) {
  const r = results[side];
  const other = r.cpu.map((c, i) => c - r.main[i]);
  if (PACED > 0) console.log(`${side} (${workers} workers): paced latency, median of per-round p50 ${median(r.p50).toFixed(3)} ms [${r.p50.map((x) => x.toFixed(2)).join(' ')}], of per-round p99 ${median(r.p99).toFixed(2)} ms [${r.p99.map((x) => x.toFixed(1)).join(' ')}]; pooled p50 ${percentile(r.latencies, 50).toFixed(3)} p99 ${percentile(r.latencies, 99).toFixed(2)} ms`);
  console.log(`${side} (${workers} workers): burst CPU ${median(r.cpu).toFixed(1)} ms [${r.cpu.map((x) => x.toFixed(0)).join(' ')}] (main thread ${median(r.main).toFixed(1)} ms [${r.main.map((x) => x.toFixed(0)).join(' ')}], other threads ${median(other).toFixed(1)} ms), cold start ${median(r.cold).toFixed(1)} ms [${r.cold.map((x) => x.toFixed(0)).join(' ')}], cold CPU ${median(r.coldCpu).toFixed(1)} ms, allocated per burst ${median(r.allocated).toFixed(0)} KiB [${r.allocated.map((x) => x.toFixed(0)).join(' ')}]`);
}
child.send({ op: 'stop' });
