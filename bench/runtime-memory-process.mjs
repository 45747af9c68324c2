// Heap per cached object of one runtime, measured in a fresh process for bench/runtime.bench.ts, so nothing
// another runtime left behind can be freed inside the measured window (in one shared process the same cache
// measured 0.1–2.3 KiB per object depending on what ran before it). A first cache (kept running) lists
// `<namespace>-warmup` beforehand, so the code of the list path is compiled and the connection is open
// before the measured window: the figure is the objects' cost, not the process's first-use costs.
// Started with child_process.fork and --expose-gc; argv: <kubeforge|kubeforge-frozen|client-node>
// <kubeconfigPath> <namespace> <objects>. Sends { bytesPerObject } once the cache holds every object, then exits.
import pino from 'pino';
import { CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node';
import { BuiltinKinds, Cache, Manager } from '../dist/runtime/index.js';

const [side, kubeconfigPath, namespace, objectsArg] = process.argv.slice(2);
const objects = Number(objectsArg);
/** Objects the bench creates in `<namespace>-warmup`. */
const WARMUP_OBJECTS = 50;

function heapUsed() {
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

async function until(cond) {
  while (!cond()) await new Promise((r) => setTimeout(r, 1));
}

async function kubeforge(frozen) {
  const admin = new Manager({ kubeConfig: kubeconfigPath, logger: pino({ level: 'silent' }) });
  const startCache = async (ns) => {
    const cache = new Cache({ client: admin.apiReader(), transport: admin.transport, kinds: admin.kinds, namespace: ns, frozen });
    cache.informerFor(BuiltinKinds.ConfigMap);
    cache.start();
    await cache.waitForCacheSync();
    return cache;
  };
  const warmup = await startCache(`${namespace}-warmup`);
  const before = heapUsed();
  const cache = await startCache(namespace);
  const bytes = (heapUsed() - before) / objects;
  keepAlive(warmup, cache);
  return bytes;
}

async function clientNode() {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const api = kc.makeApiClient(CoreV1Api);
  const startInformer = async (ns, count) => {
    const informer = makeInformer(kc, `/api/v1/namespaces/${ns}/configmaps`, () => api.listNamespacedConfigMap({ namespace: ns }));
    await informer.start();
    await until(() => informer.list(ns).length >= count);
    return informer;
  };
  const warmup = await startInformer(`${namespace}-warmup`, WARMUP_OBJECTS);
  const before = heapUsed();
  const informer = await startInformer(namespace, objects);
  const bytes = (heapUsed() - before) / objects;
  keepAlive(warmup, informer);
  return bytes;
}

/** Holds both caches until the process exits, so neither can be collected inside the window. */
function keepAlive(...caches) {
  globalThis.__keptCaches = caches;
}

const bytesPerObject = side === 'client-node' ? await clientNode() : await kubeforge(side === 'kubeforge-frozen');
process.send({ bytesPerObject }, () => process.exit(0));
