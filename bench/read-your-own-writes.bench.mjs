// Read-your-own-writes, on or off, measured (for the "default on?" decision): a local cluster on the real
// clock in a child process (bench/runtime-cluster-process.mjs, so the watch and the write answer cross
// processes as with a real API server); a controller whose reconcile reads its ConfigMap from the cache, patches an
// annotation, and reads it again at once (the read-after-write a reconciler does before its next step).
// Per run: how many of those second reads were stale (older than the patch's answer), the wall time for
// OBJECTS objects, and the reads that waited or fell back. Run on dist/: node bench/read-your-own-writes.bench.mjs [rounds]
import pino from 'pino';
import { fork } from 'node:child_process';
import { BuiltinKinds, Manager } from '../dist/runtime/index.js';

const OBJECTS = Number(process.env.OBJECTS ?? 300);
const rounds = Number(process.argv[2] ?? 5);
const child = fork(new URL('./runtime-cluster-process.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const cluster = await new Promise((resolve) => child.once('message', resolve));
const until = async (cond) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 1));
};

async function run(ns, enabled) {
  const mgr = new Manager({ kubeConfig: cluster.kubeconfigPath, logger: pino({ level: process.env.LOG ?? 'silent' }), cache: { namespace: ns }, readYourOwnWrites: { enabled } });
  const done = new Set();
  let stale = 0;
  mgr.controllerFor(BuiltinKinds.ConfigMap).complete(async (req) => {
    if (done.has(req.name) || !req.name.startsWith('cm-')) return;
    const cm = await mgr.client.get(BuiltinKinds.ConfigMap, req);
    const patched = await mgr.client.patch(cm, { metadata: { annotations: { step: 'patched' } } });
    const again = await mgr.client.get(BuiltinKinds.ConfigMap, req);
    if (Number(again.metadata.resourceVersion) < Number(patched.metadata.resourceVersion)) stale++;
    done.add(req.name);
  });
  const admin = mgr.apiReader();
  await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await mgr.start();
  const started = performance.now();
  await Promise.all(Array.from({ length: OBJECTS }, (_, i) => admin.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: ns, name: `cm-${i}` } })));
  await until(() => done.size === OBJECTS);
  const ms = performance.now() - started;
  await mgr.stop();
  mgr.close();
  return { stale, ms };
}

const results = { off: [], on: [] };
for (let round = 0; round <= rounds; round++) {
  for (const enabled of round % 2 ? [true, false] : [false, true]) {
    const r = await run(`ryow-${round}-${enabled}`, enabled);
    if (round > 0) results[enabled ? 'on' : 'off'].push(r);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [name, rs] of Object.entries(results)) {
  console.log(`readYourOwnWrites ${name}: stale second reads ${median(rs.map((r) => r.stale))} of ${OBJECTS} (per round ${rs.map((r) => r.stale).join(' ')}), ${OBJECTS} reconciled in ${median(rs.map((r) => r.ms)).toFixed(0)} ms (per round ${rs.map((r) => r.ms.toFixed(0)).join(' ')})`);
}
child.send({ op: 'stop' });
