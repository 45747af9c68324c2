// CPU per watch event of the cache-only event path (watch → cache → handler → queue → worker → reconcile with a
// cached read and a copy), kubeforge vs client-node informer + Set queue, with no API server: a plain HTTP
// server in this process answers the list empty and writes watch events onto the open watch, GROUP events a
// turn, so both runtimes read the same bytes in the same chunks. Cheaper and steadier than a burst against the
// local cluster (bench/runtime-cpu-compare.mjs): EVENTS events a round, no server work but the writes (equal for
// both sides), so per-event differences of a microsecond show. Rounds alternate the sides; medians of CPU µs per
// event (process.cpuUsage over the events, all threads), of the main thread's alone (/proc schedstat), and of heap
// growth per event (allocation, with --max-semi-space-size=256 so that no scavenge runs inside a round).
// Run on dist/: node --expose-gc bench/runtime-event-path.mjs [rounds] [workers] [sides] — sides
// kubeforge,client-node (one process, shared) or one of them (run each alone, alternating processes).
// PACED=n (PACED_MS apart, default 2): latency instead — each event's write → its first reconcile's start on
// one clock, the runtime's own share of create→reconcile (median of per-round p50/p99 in µs).
// KF_DIST: another build of the runtime (a copy of dist/ made before a change). KF_HEAP_PROFILE=file: a sampling
// allocation profile (collected objects included) of the measured rounds, for finding what an event allocates.
import http from 'node:http';
import v8 from 'node:v8';
import { Session } from 'node:inspector/promises';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { clientNodeBaseline } from './client-node-baseline.mjs';

const runtime = await import(`${process.env.KF_DIST || '../dist'}/runtime/index.js`);
// The client-node side's clone: the same cloneJson as a module instance of its own (see runtime-cpu-compare.mjs).
const { cloneJson: cloneForClientNode } = await import(`${process.env.KF_DIST || '../dist'}/runtime/cache/copy.js?client-node`);
const rounds = Number(process.argv[2] ?? 9);
const workers = Number(process.argv[3] ?? 4);
const sides = (process.argv[4] ?? 'kubeforge,client-node').split(',');
const EVENTS = Number(process.env.EVENTS ?? 5000);
const GROUP = Number(process.env.GROUP ?? 4);

/** The open watches by namespace, and the resourceVersion counter. */
const watches = new Map();
let resourceVersion = 1000;
const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost');
  if (process.env.DEBUG_EVENT_PATH) console.error(req.method, req.url);
  const ns = url.pathname.split('/')[4];
  res.writeHead(200, { 'Content-Type': 'application/json' });
  if (url.searchParams.get('watch') === 'true') {
    watches.set(ns, res);
    res.flushHeaders();
    return;
  }
  res.end(JSON.stringify({ kind: 'ConfigMapList', apiVersion: 'v1', metadata: { resourceVersion: String(resourceVersion) }, items: [] }));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const dir = mkdtempSync(join(tmpdir(), 'kf-event-path-'));
const kubeconfigPath = join(dir, 'kubeconfig');
writeFileSync(kubeconfigPath, `apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: http://127.0.0.1:${server.address().port}\n    insecure-skip-tls-verify: true\nusers:\n- name: u\n  user:\n    token: t\ncontexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\n`);

/** A watch event as the local cluster writes it (with managedFields, as a created object has). */
function eventLine(ns, i) {
  const rv = String(++resourceVersion);
  const object = {
    kind: 'ConfigMap',
    apiVersion: 'v1',
    metadata: {
      name: `cm-${i}`,
      namespace: ns,
      uid: `6c1c5c1e-0000-4000-8000-${String(i).padStart(12, '0')}`,
      resourceVersion: rv,
      creationTimestamp: '2026-11-28T03:00:00Z',
      managedFields: [{ manager: 'bench', operation: 'Update', apiVersion: 'v1', time: '2026-11-28T03:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }],
    },
    data: {},
  };
  return `${JSON.stringify({ type: 'ADDED', object })}\n`;
}

/** Writes EVENTS events onto `ns`'s watch, GROUP a turn (one chunk each, as a busy server's writes coalesce). */
async function writeEvents(ns) {
  const res = watches.get(ns);
  for (let i = 0; i < EVENTS; ) {
    let text = '';
    for (let g = 0; g < GROUP && i < EVENTS; g++) text += eventLine(ns, i++);
    res.write(text);
    await new Promise((r) => setImmediate(r));
  }
}

/**
 * PACED=n: instead of the stream, n events one at a time, PACED_MS apart (a timer), each one's write →
 * its first reconcile's start (µs, one clock): the runtime's own share of the create→reconcile latency.
 */
const PACED = Number(process.env.PACED ?? 0);
async function writePaced(ns) {
  const res = watches.get(ns);
  const writtenAt = new Map();
  for (let i = 0; i < PACED; i++) {
    await new Promise((r) => setTimeout(r, Number(process.env.PACED_MS ?? 2)));
    const line = eventLine(ns, i);
    writtenAt.set(`cm-${i}`, performance.now());
    res.write(line);
  }
  return writtenAt;
}

const mainThreadMs = () => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
const until = async (cond) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 1));
};

function kubeforge(ns) {
  const { BuiltinKinds, Manager } = runtime;
  const mgr = new Manager({ kubeConfig: kubeconfigPath, logger: pino({ level: 'silent' }), cache: { namespace: ns } });
  /** Each object's first reconcile: name → performance.now() it started. */
  const seen = new Map();
  mgr.controllerFor(BuiltinKinds.ConfigMap).withOptions({ maxConcurrentReconciles: workers }).complete(async (req) => {
    const startedAt = performance.now();
    const obj = await mgr.client.get(BuiltinKinds.ConfigMap, req);
    if (obj.metadata.name === req.name && !seen.has(req.name)) seen.set(req.name, startedAt);
  });
  return { seen, start: () => mgr.start(), stop: async () => (await mgr.stop(), mgr.close()) };
}

function clientNode(ns) {
  const onError = (err) => {
    console.error('client-node informer failed:', err);
    process.exit(1);
  };
  return clientNodeBaseline({ kubeconfigPath, namespace: ns, workers, clone: cloneForClientNode, now: () => performance.now(), onError });
}

const heapProfile = process.env.KF_HEAP_PROFILE;
const inspector = heapProfile ? new Session() : undefined;
inspector?.connect();
const makers = { kubeforge, 'client-node': clientNode };
const results = Object.fromEntries(sides.map((s) => [s, { cpu: [], main: [], bytes: [], p50: [], p99: [] }]));
for (let round = 0; round <= rounds; round++) {
  for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
    const ns = `${side}-${round}`;
    const r = makers[side](ns);
    await r.start();
    await until(() => watches.has(ns));
    globalThis.gc?.();
    const cpu0 = process.cpuUsage();
    const main0 = mainThreadMs();
    const heap0 = v8.getHeapStatistics().used_heap_size;
    if (inspector && round === 1) await inspector.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    const writtenAt = PACED > 0 ? await writePaced(ns) : (await writeEvents(ns), undefined);
    await until(() => r.seen.size === (PACED > 0 ? PACED : EVENTS));
    const cpu = process.cpuUsage(cpu0);
    const main = mainThreadMs() - main0;
    const allocated = v8.getHeapStatistics().used_heap_size - heap0;
    await r.stop();
    watches.get(ns).end();
    watches.delete(ns);
    if (round === 0) continue; // warm-up
    if (writtenAt) {
      const latencies = [...r.seen].map(([name, at]) => (at - writtenAt.get(name)) * 1000).sort((a, b) => a - b);
      results[side].p50.push(latencies[Math.floor(latencies.length / 2)]);
      results[side].p99.push(latencies[Math.floor(latencies.length * 0.99)]);
      continue;
    }
    results[side].cpu.push(((cpu.user + cpu.system) * 1000) / 1000 / EVENTS);
    results[side].main.push((main * 1000) / EVENTS);
    results[side].bytes.push(allocated / EVENTS);
  }
}
if (inspector) writeFileSync(heapProfile, JSON.stringify((await inspector.post('HeapProfiler.stopSampling')).profile));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const side of sides) {
  if (PACED > 0) {
    const { p50, p99 } = results[side];
    console.log(`${side} (${workers} workers, ${PACED} events ${process.env.PACED_MS ?? 2} ms apart): write → reconcile start, median of per-round p50 ${median(p50).toFixed(1)} µs [${p50.map((x) => x.toFixed(0)).join(' ')}], of per-round p99 ${median(p99).toFixed(1)} µs [${p99.map((x) => x.toFixed(0)).join(' ')}]`);
    continue;
  }
  const { cpu, main, bytes } = results[side];
  console.log(`${side} (${workers} workers, ${EVENTS} events, ${GROUP} a chunk): CPU ${median(cpu).toFixed(2)} µs/event [${cpu.map((x) => x.toFixed(1)).join(' ')}], main thread ${median(main).toFixed(2)} µs/event [${main.map((x) => x.toFixed(1)).join(' ')}], heap growth ${median(bytes).toFixed(0)} bytes/event (all garbage but the cached object; exact with --max-semi-space-size=256, no scavenge inside a round)`);
}
server.closeAllConnections();
server.close();
