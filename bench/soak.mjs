// Soak test (run: npm run bench:soak): are the heaps flat under sustained churn? Three processes: the API
// server (bench/soak-server.mjs: a local cluster alone), the manager (bench/soak-manager.mjs: a ConfigMap
// controller over an informer cache, 4 workers, each reconcile reads its object from the cache), and this
// driver. A churn loop creates, updates (3 times) and deletes ConfigMaps over a pool of names at a steady
// rate (SOAK_OPS writes/s, default 150), and two kubectl-like clients run beside it: a lister (a full LIST of
// the namespace every second) and a watcher (WATCH with timeoutSeconds=30, re-listed and re-watched when the
// server ends it, as a reflector does).
//
// Every SOAK_SAMPLE_SECONDS (default 15) the server and the manager each report their heap after two forced
// GCs (heapUsed and RSS). Warm-up: the baseline is the first sample taken once (a) 10 % of the run or 1
// minute has passed, whichever is longer, and (b) both of the server's bounded rings are full — the request
// log (10,000 entries by default) and the store's watch history (10,000 events) — so their fill is not
// counted as growth. Reported per process: every sample, baseline, last, max, last/baseline and max/baseline
// of heapUsed and RSS, and the operation rate. Exits 1 if last/baseline of either heapUsed exceeds
// 1 + SOAK_TOLERANCE (default 0.10).
//
// SOAK_MINUTES (default 30), SOAK_OPS, SOAK_SAMPLE_SECONDS, SOAK_POOL (names churned, default 200),
// SOAK_SNAPSHOTS=1 makes both processes write a heap snapshot at the baseline and at the end (for a diff in
// DevTools; writing one raises RSS by some 400 MiB that is not given back, so RSS figures of such a run are
// not comparable).
import { fork } from 'node:child_process';
import { Agent, request } from 'node:https';
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

/** A child process speaking the soak's IPC protocol: `ready` once, then one `sample` answer per request. */
function child(script, args) {
  const proc = fork(new URL(script, import.meta.url), args, { execArgv: ['--expose-gc'] });
  const waiting = [];
  let ready;
  const started = new Promise((resolve, reject) => {
    ready = resolve;
    proc.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
  proc.on('message', (m) => (m.type === 'ready' ? ready(m) : waiting.shift()?.(m)));
  return {
    started,
    ask: (type) => new Promise((resolve) => { waiting.push(resolve); proc.send({ type }); }),
    stop: () => new Promise((resolve) => { proc.once('exit', resolve); proc.send({ type: 'stop' }); }),
  };
}
const server = child('./soak-server.mjs', []);
const cluster = await server.started;
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

const manager = child('./soak-manager.mjs', [cluster.kubeconfigPath, ns]);
await manager.started;

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
    await Promise.all(batch.map((p) => p.catch((err) => ++counts.errors <= 5 && console.error(`churn: ${err}`))));
    tick++;
    const wait = started + tick * tickMs - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
})();

// kubectl-like lister.
const lister = (async () => {
  while (running) {
    const r = await call('GET', `${path}?limit=500`).catch((err) => ({ code: 0, body: String(err) }));
    if (r.code === 200) counts.list++;
    else if (++counts.errors <= 5) console.error(`list: ${r.code} ${r.body.slice(0, 200)}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
})();

// Reflector-like watcher: LIST, then WATCH from its resourceVersion with timeoutSeconds=30, repeat.
let watchReq;
const watcher = (async () => {
  while (running) {
    const list = await call('GET', path).catch((err) => ({ code: 0, body: String(err) }));
    if (list.code !== 200) {
      if (++counts.errors <= 5) console.error(`watcher's list: ${list.code} ${list.body.slice(0, 200)}`);
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
const t0 = performance.now();
const samples = { server: [], manager: [] };
let baselineIndex = -1;
const historyLimit = 10_000;
console.log(`soak: ${minutes} min, ${opsPerSecond} writes/s over ${pool} names, sample every ${sampleSeconds} s, warm-up ≥ ${(warmupMs / 1000).toFixed(0)} s and until the request log (${requestLogSize}) and watch history (${historyLimit}) are full`);
console.log('t(s)\tserver heap\tserver RSS\tmanager heap\tmanager RSS\twrites\treconciles\treqLog\twatchHist');
let reconciles = 0;
while (performance.now() - t0 < durationMs) {
  await new Promise((r) => setTimeout(r, sampleSeconds * 1000));
  const [s, m] = await Promise.all([server.ask('sample'), manager.ask('sample')]);
  const t = (performance.now() - t0) / 1000;
  reconciles = m.reconciles;
  const writes = counts.create + counts.update + counts.delete;
  samples.server.push({ t, heapUsed: s.heapUsed, rss: s.rss });
  samples.manager.push({ t, heapUsed: m.heapUsed, rss: m.rss });
  let mark = '';
  if (baselineIndex < 0 && t * 1000 >= warmupMs && s.requestLog >= requestLogSize && (s.watchHistory === undefined || s.watchHistory >= historyLimit)) {
    baselineIndex = samples.server.length - 1;
    mark = '\t<- baseline';
    if (snapshots) for (const snap of await Promise.all([server.ask('snapshot'), manager.ask('snapshot')])) console.log(`snapshot: ${snap.path}`);
  }
  console.log(`${t.toFixed(0)}\t${fmt(s.heapUsed)}\t${fmt(s.rss)}\t${fmt(m.heapUsed)}\t${fmt(m.rss)}\t${writes}\t${reconciles}\t${s.requestLog}\t${s.watchHistory ?? '?'}${mark}`);
}
if (snapshots) for (const snap of await Promise.all([server.ask('snapshot'), manager.ask('snapshot')])) console.log(`snapshot: ${snap.path}`);

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
  for (const [process, all] of Object.entries(samples)) {
    const after = all.slice(baselineIndex);
    const base = after[0];
    const last = after[after.length - 1];
    for (const key of ['heapUsed', 'rss']) {
      const max = Math.max(...after.map((s) => s[key]));
      console.log(`${process} ${key}: baseline ${fmt(base[key])} (t=${base.t.toFixed(0)} s), last ${fmt(last[key])}, max ${fmt(max)}; last/baseline ${(last[key] / base[key]).toFixed(3)}, max/baseline ${(max / base[key]).toFixed(3)}`);
    }
    const ratio = last.heapUsed / base.heapUsed;
    if (ratio > 1 + tolerance) {
      console.log(`FAIL: the ${process}'s heapUsed grew ${((ratio - 1) * 100).toFixed(1)} % (> ${(tolerance * 100).toFixed(0)} %)`);
      failed = true;
    } else console.log(`OK: the ${process}'s heapUsed is within ${(tolerance * 100).toFixed(0)} % of the baseline`);
  }
}
agent.destroy();
await manager.stop();
await server.stop();
process.exit(failed ? 1 : 0);
