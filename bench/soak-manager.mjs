// The soak's manager process (forked by bench/soak.mjs): a ConfigMap controller over an informer cache
// (4 workers, each reconcile reads its object from the cache), alone in its process against the soak's
// server. IPC: argv[2] is the kubeconfig path and argv[3] the namespace; sends { type: 'ready' } once
// started; answers { type: 'sample' } with its heap after two forced GCs and the reconciles so far.
import { writeHeapSnapshot } from 'node:v8';
import pino from 'pino';
import { BuiltinKinds, Manager } from '../dist/runtime/index.js';

const [kubeConfig, namespace] = process.argv.slice(2);
const mgr = new Manager({ kubeConfig, logger: pino({ level: 'silent' }), cache: { namespace } });
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
process.on('message', async (message) => {
  if (message.type === 'sample') {
    globalThis.gc();
    globalThis.gc();
    const m = process.memoryUsage();
    process.send({ type: 'sample', heapUsed: m.heapUsed, rss: m.rss, reconciles });
  } else if (message.type === 'snapshot') {
    process.send({ type: 'snapshot', path: writeHeapSnapshot() });
  } else if (message.type === 'stop') {
    await mgr.stop();
    mgr.close();
    process.exit(0);
  }
});
process.send({ type: 'ready' });
