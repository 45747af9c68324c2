// Per-event cost of kubeforge's watch → handler → queue → worker path, for profiling (not a comparison):
// the cluster and the creator run in bench/runtime-cluster-process.mjs, this process runs only a Manager
// reconciling ConfigMaps. Prints CPU ms, heap allocated and GC counts per 1,000-event burst.
// Run on dist/: node --expose-gc [--cpu-prof] bench/runtime-profile.mjs [rounds] [allocation-profile.heapprofile]
import { fork } from 'node:child_process';
import { PerformanceObserver } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';
import fs from 'node:fs';
import v8 from 'node:v8';
import pino from 'pino';
import { BuiltinKinds, Manager } from '../dist/runtime/index.js';

const rounds = Number(process.argv[2] ?? 5);
/** With a path: an allocation profile of the measured bursts, collected objects included (sampled every 1 KiB). */
const allocationProfile = process.argv[3];
const inspector = allocationProfile ? new Session() : undefined;
inspector?.connect();
const child = fork(new URL('./runtime-cluster-process.mjs', import.meta.url), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const next = () => new Promise((resolve) => child.once('message', resolve));
const { kubeconfigPath } = await next();
let gcs = 0;
new PerformanceObserver((list) => (gcs += list.getEntries().length)).observe({ entryTypes: ['gc'] });
const allocated = () => v8.getHeapStatistics().used_heap_size;
for (let round = 0; round <= rounds; round++) {
  const ns = `prof-${round}`;
  const mgr = new Manager({ kubeConfig: kubeconfigPath, logger: pino({ level: 'silent' }), cache: { namespace: ns } });
  let reconciled = 0;
  let done;
  const all = new Promise((r) => (done = r));
  mgr.controllerFor(BuiltinKinds.ConfigMap).complete(async (req) => {
    await mgr.client.get(BuiltinKinds.ConfigMap, req);
    if (req.name.startsWith('cm-') && ++reconciled === 1000) done();
  });
  const running = mgr.start();
  await new Promise((r) => setTimeout(r, 300));
  globalThis.gc?.();
  const heap0 = allocated();
  const gc0 = gcs;
  if (inspector && round === 1) await inspector.post('HeapProfiler.startSampling', { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  const cpu0 = process.cpuUsage();
  child.send({ op: 'create', ns, count: 1000, data: { payload: 'x'.repeat(1024) } });
  await next();
  await all;
  const cpu = process.cpuUsage(cpu0);
  const heapGrowth = allocated() - heap0;
  if (round > 0) console.log(`round ${round}: cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms, heap growth ${(heapGrowth / 1024).toFixed(0)} KiB, gc events ${gcs - gc0}`);
  await mgr.stop();
  mgr.close();
  void running;
}
if (inspector) fs.writeFileSync(allocationProfile, JSON.stringify((await inspector.post('HeapProfiler.stopSampling')).profile));
child.send({ op: 'stop' });
process.exit(0);
