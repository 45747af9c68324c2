// The baseline the runtime benchmarks compare kubeforge with: what a TypeScript user writes today — the
// @kubernetes/client-node 1.4 informer on one namespace's ConfigMaps plus a de-duplicating `Set` queue drained by
// `workers` async workers (a key is never in two workers at once: one changed while processing is queued again
// after, as kubeforge's queue does). Each reconcile copies the object the informer holds with `clone` (the copy
// kubeforge's cached read makes: like for like) and notes, per `cm-` name, when its first reconcile started.
// One module for bench/runtime-cpu-compare.mjs and bench/runtime-event-path.mjs, so both measure the same loop.
import { CoreV1Api, KubeConfig, makeInformer } from '@kubernetes/client-node';

/**
 * @param {{ kubeconfigPath: string, namespace: string, workers: number, clone: (o: object) => any, now: () => number, onError?: (err: unknown) => void }} options
 * @returns {{ seen: Map<string, number>, start: () => Promise<void>, stop: () => Promise<void> }}
 */
export function clientNodeBaseline({ kubeconfigPath, namespace, workers, clone, now, onError }) {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const api = kc.makeApiClient(CoreV1Api);
  const informer = makeInformer(kc, `/api/v1/namespaces/${namespace}/configmaps`, () => api.listNamespacedConfigMap({ namespace }));
  /** Each object's first reconcile: name → now() it started. */
  const seen = new Map();
  const queue = new Set();
  const processing = new Set();
  const dirty = new Set();
  const idle = [];
  let running = true;
  const add = (name) => {
    if (processing.has(name)) dirty.add(name);
    else if (!queue.has(name)) {
      queue.add(name);
      idle.pop()?.();
    }
  };
  const enqueue = (o) => o.metadata?.name?.startsWith('cm-') && add(o.metadata.name);
  informer.on('add', enqueue);
  informer.on('update', enqueue);
  if (onError) {
    informer.on('error', (err) => {
      if (running) onError(err); // stop() aborts the watch
    });
  }
  const worker = async () => {
    while (running) {
      const n = queue.values().next();
      if (n.done) {
        await new Promise((r) => idle.push(r));
        continue;
      }
      queue.delete(n.value);
      processing.add(n.value);
      const startedAt = now();
      const copy = clone(informer.get(n.value, namespace));
      await Promise.resolve();
      if (copy.metadata.name === n.value && !seen.has(n.value)) seen.set(n.value, startedAt);
      processing.delete(n.value);
      if (dirty.delete(n.value)) add(n.value);
    }
  };
  let pool;
  return {
    seen,
    start: async () => {
      pool = Promise.all(Array.from({ length: workers }, worker));
      await informer.start();
    },
    stop: async () => {
      running = false;
      for (const w of idle.splice(0)) w();
      await pool;
      await informer.stop();
    },
  };
}
