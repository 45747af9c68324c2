// Soak test (run: npm run bench:soak): is the heap flat under sustained churn? One process runs a local
// cluster and a manager with a ConfigMap controller (informer cache, 4 workers, each reconcile reads its
// object from the cache). A churn loop creates, updates (3 times) and deletes ConfigMaps over a pool of names
// at a steady rate (SOAK_OPS writes/s, default 150), and two kubectl-like clients run beside it: a lister
// (a full LIST of the namespace every second) and a watcher (WATCH with timeoutSeconds=30, re-listed and
// re-watched when the server ends it, as a reflector does).
//
// Every SOAK_SAMPLE_SECONDS (default 15) the heap is sampled after two forced GCs (heapUsed and RSS).
// Warm-up: the baseline is the first sample taken once (a) 10 % of the run or 1 minute has passed,
// whichever is longer, and (b) both bounded rings are full — the server's request log (10,000 entries by
// default) and the store's watch history (10,000 events) — so their fill is not counted as growth.
// Reported: every sample, baseline, last, max, last/baseline and max/baseline of heapUsed, and the
// operation rate. Exits 1 if last/baseline of heapUsed exceeds 1 + SOAK_TOLERANCE (default 0.10).
//
// SOAK_MINUTES (default 30), SOAK_OPS, SOAK_SAMPLE_SECONDS, SOAK_POOL (names churned, default 200),
// SOAK_SNAPSHOTS=1 writes a heap snapshot at the baseline and at the end (for a diff in DevTools; writing
// one raises RSS by some 400 MiB that is not given back, so RSS figures of such a run are not comparable).
// Needs --expose-gc.
import { Agent, request } from 'node:https';
import { writeHeapSnapshot } from 'node:v8';
import pino from 'pino';
import { startLocalCluster } from '../dist/cluster/index.js';
import { BuiltinKinds, Manager } from '../dist/runtime/index.js';

if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc');
  process.exit(2);
}
const minutes = Number(process.env.SOAK_MINUTES ?? 30);
const opsPerSecond = Number(process.env.SOAK_OPS ?? 150);
const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? 15);
const pool = Number(process.env.SOAK_POOL ?? 200);
const tolerance = Number(process.env.SOAK_TOLERANCE ?? 0.1);
const snapshots = process.env.SOAK_SNAPSHOTS === '1';
const durationMs = minutes * 60_000;
const warmupMs = Math.max(60_000, durationMs * 0.1);
const ns = 'soak';
const MiB = 1024 * 1024;
const fmt = (b) => `${(b / MiB).toFixed(1)} MiB`;

const cluster = await startLocalCluster();
const agent = new Agent({ keepAlive: true, maxSockets: 16 });
const requestLogSize = 10_000;

function call(method, path, body) {
  return new Promise((resolve, reject) => {
    const url = new URL(path, cluster.url);
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, agent, ca: cluster.caCertPem, headers: { Authorization: `Bearer ${cluster.adminToken}`, 'Content-Type': method === 'PATCH' ? 'application/merge-patch+json' : 'application/json' } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ code: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

await call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });

// The manager: a ConfigMap controller over an informer cache.
const mgr = new Manager({ kubeConfig: cluster.kubeconfigPath, logger: pino({ level: 'silent' }), cache: { namespace: ns } });
let reconciles = 0;
mgr.controllerFor(BuiltinKinds.ConfigMap).complete(async (req) => {
  try {
    await mgr.client.get(BuiltinKinds.ConfigMap, req);
  } catch {
    // deleted since the event: the usual not-found
  }
  reconciles++;
});
await mgr.start();

let running = true;
const counts = { create: 0, update: 0, delete: 0, list: 0, watchEvents: 0, watchRestarts: 0, errors: 0 };

// Churn: each name goes created → updated ×3 → deleted → created … ; names are picked round-robin.
const path = `/api/v1/namespaces/${ns}/configmaps`;
const state = new Array(pool).fill(-1); // -1 absent, else updates done
let seq = 0;
async function churnOne(i) {
  const name = `cm-${i}`;
  const s = state[i];
  let r;
  if (s < 0) {
    r = await call('POST', path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels: { app: 'soak' } }, data: { n: String(seq++), payload: 'x'.repeat(256) } });
    counts.create++;
    state[i] = 0;
  } else if (s < 3) {
    r = await call('PATCH', `${path}/${name}`, { data: { n: String(seq++) } });
    counts.update++;
    state[i] = s + 1;
  } else {
    r = await call('DELETE', `${path}/${name}`);
    counts.delete++;
    state[i] = -1;
  }
  if (r.code >= 300) {
    counts.errors++;
    if (counts.errors <= 5) console.error(`churn ${name}: ${r.code} ${r.body.slice(0, 200)}`);
  }
}
const churn = (async () => {
  const tickMs = 100;
  const perTick = opsPerSecond / (1000 / tickMs);
  let owed = 0;
  let next = 0;
  const started = performance.now();
  let tick = 0;
  while (running) {
    owed += perTick;
    const batch = [];
    while (owed >= 1) {
      owed -= 1;
      batch.push(churnOne(next));
      next = (next + 1) % pool;
    }
    await Promise.all(batch.map((p) => p.catch(() => counts.errors++)));
    tick++;
    const wait = started + tick * tickMs - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
})();

// kubectl-like lister.
const lister = (async () => {
  while (running) {
    const r = await call('GET', `${path}?limit=500`).catch(() => ({ code: 0 }));
    if (r.code === 200) counts.list++;
    else counts.errors++;
    await new Promise((r) => setTimeout(r, 1000));
  }
})();

// Reflector-like watcher: LIST, then WATCH from its resourceVersion with timeoutSeconds=30, repeat.
let watchReq;
const watcher = (async () => {
  while (running) {
    const list = await call('GET', path).catch(() => ({ code: 0 }));
    if (list.code !== 200) {
      counts.errors++;
      await new Promise((r) => setTimeout(r, 1000));
      continue;
    }
    const rv = JSON.parse(list.body).metadata.resourceVersion;
    await new Promise((resolve) => {
      const url = new URL(`${path}?watch=true&allowWatchBookmarks=true&timeoutSeconds=30&resourceVersion=${rv}`, cluster.url);
      watchReq = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, ca: cluster.caCertPem, headers: { Authorization: `Bearer ${cluster.adminToken}` } }, (res) => {
        let buf = '';
        res.on('data', (c) => {
          buf += c;
          let nl;
          while ((nl = buf.indexOf('\n')) >= 0) {
            buf = buf.slice(nl + 1);
            counts.watchEvents++;
          }
        });
        res.on('end', resolve);
        res.on('error', resolve);
      });
      watchReq.on('error', resolve);
      watchReq.end();
    });
    counts.watchRestarts++;
  }
})();

// Sampling.
function sample() {
  globalThis.gc();
  globalThis.gc();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, rss: m.rss };
}
const t0 = performance.now();
const samples = [];
let baselineIndex = -1;
const history = () => cluster.internals.store.history?.length;
const historyLimit = 10_000;
console.log(`soak: ${minutes} min, ${opsPerSecond} writes/s over ${pool} names, sample every ${sampleSeconds} s, warm-up ≥ ${(warmupMs / 1000).toFixed(0)} s and until the request log (${requestLogSize}) and watch history (${historyLimit}) are full`);
console.log('t(s)\theapUsed\tRSS\twrites\treconciles\treqLog\twatchHist');
while (performance.now() - t0 < durationMs) {
  await new Promise((r) => setTimeout(r, sampleSeconds * 1000));
  const s = sample();
  const t = (performance.now() - t0) / 1000;
  const reqLog = cluster.requestLog().length;
  const hist = history();
  const writes = counts.create + counts.update + counts.delete;
  samples.push({ t, ...s, writes });
  let mark = '';
  if (baselineIndex < 0 && t * 1000 >= warmupMs && reqLog >= requestLogSize && (hist === undefined || hist >= historyLimit)) {
    baselineIndex = samples.length - 1;
    mark = '\t<- baseline';
    if (snapshots) console.log(`snapshot: ${writeHeapSnapshot()}`);
  }
  console.log(`${t.toFixed(0)}\t${fmt(s.heapUsed)}\t${fmt(s.rss)}\t${writes}\t${reconciles}\t${reqLog}\t${hist ?? '?'}${mark}`);
}
if (snapshots) console.log(`snapshot: ${writeHeapSnapshot()}`);

running = false;
watchReq?.destroy();
await Promise.allSettled([churn, lister, watcher]);
const elapsed = (performance.now() - t0) / 1000;
const writes = counts.create + counts.update + counts.delete;
console.log(`\nops: ${writes} writes (${(writes / elapsed).toFixed(1)}/s: ${counts.create} creates, ${counts.update} updates, ${counts.delete} deletes), ${reconciles} reconciles (${(reconciles / elapsed).toFixed(1)}/s), ${counts.list} lists, ${counts.watchEvents} watch events over ${counts.watchRestarts} watches, ${counts.errors} errors`);
let failed = false;
if (baselineIndex < 0) {
  console.log('no baseline: the run ended before warm-up did (raise SOAK_MINUTES)');
  failed = true;
} else {
  const after = samples.slice(baselineIndex);
  const base = after[0];
  const last = after[after.length - 1];
  for (const key of ['heapUsed', 'rss']) {
    const max = Math.max(...after.map((s) => s[key]));
    console.log(`${key}: baseline ${fmt(base[key])} (t=${base.t.toFixed(0)} s), last ${fmt(last[key])}, max ${fmt(max)}; last/baseline ${(last[key] / base[key]).toFixed(3)}, max/baseline ${(max / base[key]).toFixed(3)}`);
  }
  const ratio = last.heapUsed / base.heapUsed;
  if (ratio > 1 + tolerance) {
    console.log(`FAIL: heapUsed grew ${((ratio - 1) * 100).toFixed(1)} % (> ${(tolerance * 100).toFixed(0)} %)`);
    failed = true;
  } else console.log(`OK: heapUsed within ${(tolerance * 100).toFixed(0)} % of the baseline`);
}
agent.destroy();
await mgr.stop();
mgr.close();
await cluster.stop();
process.exit(failed ? 1 : 0);
