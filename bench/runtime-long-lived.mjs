// CPU per 1,000-event burst of ONE long-lived runtime (a cluster-wide watch; each burst into a fresh
// namespace), kubeforge or client-node informer + Set queue: what a long-running operator pays per event,
// without the V8 (re)compilation a fresh runtime per phase adds in bench/runtime.bench.ts. Run each side in
// its own process, alternating: node --expose-gc bench/runtime-long-lived.mjs [rounds] [workers] kubeforge|client-node
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node';
// KF_DIST: another build of the runtime (a copy of dist/ made before a change), to compare old and new.
const runtime = await import(process.env.KF_DIST ? `${process.env.KF_DIST}/runtime/index.js` : '../dist/runtime/index.js');
const rounds = Number(process.argv[2] ?? 8);
const workers = Number(process.argv[3] ?? 4);
const child = fork(new URL('./runtime-cluster-process.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const next = () => new Promise((resolve) => child.once('message', resolve));
const { kubeconfigPath } = await next();
/** CPU ms of the main thread alone (Linux /proc, 10 ms ticks); the rest of cpuUsage is V8's GC and compiler threads. */
const mainThreadMs = () => { const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
const until = async (cond) => { while (!cond()) await new Promise((r) => setTimeout(r, 1)); };
function kubeforge() {
  const { BuiltinKinds, Manager } = runtime;
  const mgr = new Manager({ kubeConfig: kubeconfigPath, logger: pino({ level: 'silent' }) });
  const seen = new Set();
  mgr.controllerFor(BuiltinKinds.ConfigMap).withOptions({ maxConcurrentReconciles: workers }).complete(async (req) => {
    await mgr.client.get(BuiltinKinds.ConfigMap, req);
    if (req.name.startsWith('cm-')) seen.add(`${req.namespace}/${req.name}`);
  });
  return { seen, start: () => mgr.start() };
}
function clientNode() {
  const kc = new KubeConfig(); kc.loadFromFile(kubeconfigPath);
  const api = kc.makeApiClient(CoreV1Api);
  const informer = makeInformer(kc, `/api/v1/configmaps`, () => api.listConfigMapForAllNamespaces());
  const seen = new Set(), queue = new Set(), processing = new Set(), dirty = new Set(), idle = [];
  const add = (k) => { if (processing.has(k)) dirty.add(k); else if (!queue.has(k)) { queue.add(k); idle.pop()?.(); } };
  const enqueue = (o) => o.metadata?.name?.startsWith('cm-') && add(`${o.metadata.namespace}/${o.metadata.name}`);
  informer.on('add', enqueue); informer.on('update', enqueue);
  const worker = async () => { for (;;) { const n = queue.values().next(); if (n.done) { await new Promise((r) => idle.push(r)); continue; }
    queue.delete(n.value); processing.add(n.value); const [ns, name] = n.value.split('/'); runtime.cloneJson(informer.get(name, ns)); /* the copy kubeforge's cache read makes (like for like) */ await Promise.resolve(); seen.add(n.value); processing.delete(n.value); if (dirty.delete(n.value)) add(n.value); } };
  return { seen, start: async () => { for (let i = 0; i < workers; i++) void worker(); await informer.start(); } };
}
const only = process.argv[4];
const sides = only === 'kubeforge' ? { kubeforge: kubeforge() } : { 'client-node': clientNode() };
for (const s of Object.values(sides)) await s.start();
const cpuMs = [];
const mainMs = [];
for (let round = 0; round <= rounds; round++) {
  const before = Object.fromEntries(Object.entries(sides).map(([k, s]) => [k, s.seen.size]));
  globalThis.gc?.();
  const c0 = process.cpuUsage();
  const m0 = mainThreadMs();
  child.send({ op: 'create', ns: `p-${round}`, count: 1000, data: {} }); await next();
  await until(() => Object.entries(sides).every(([k, s]) => s.seen.size === before[k] + 1000));
  const c = process.cpuUsage(c0);
  if (round > 0) cpuMs.push((c.user + c.system) / 1000); // round 0: warm-up
  if (round > 0) mainMs.push(mainThreadMs() - m0);
}
const med = [...cpuMs].sort((a, b) => a - b)[Math.floor(cpuMs.length / 2)];
const mainMed = [...mainMs].sort((a, b) => a - b)[Math.floor(mainMs.length / 2)];
console.log(only, 'long-lived runtime, CPU per burst median', med.toFixed(1), '[', cpuMs.map((x) => x.toFixed(0)).join(' '), '], main thread', mainMed, '[', mainMs.join(' '), ']');
child.send({ op: 'stop' }); process.exit(0);
