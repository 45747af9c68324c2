// The soak's API-server process (forked by bench/soak.mjs): a local cluster alone in its process, so its heap
// is measured apart from the manager's. Speaks to the driver over IPC: sends { type: 'ready', … } once the
// cluster is up; answers { type: 'sample' } with its heap after two forced GCs and the fill of its bounded rings.
import { writeHeapSnapshot } from 'node:v8';
import { startLocalCluster } from '../dist/cluster/index.js';

const cluster = await startLocalCluster();
const heap = () => {
  globalThis.gc();
  globalThis.gc();
  const m = process.memoryUsage();
  return { heapUsed: m.heapUsed, rss: m.rss };
};
process.on('message', async (message) => {
  if (message.type === 'sample') {
    const requestLog = cluster.requestLog().length;
    const watchHistory = cluster.internals.store.history?.length;
    process.send({ type: 'sample', ...heap(), requestLog, watchHistory });
  } else if (message.type === 'snapshot') {
    process.send({ type: 'snapshot', path: writeHeapSnapshot() });
  } else if (message.type === 'stop') {
    await cluster.stop();
    process.exit(0);
  }
});
process.send({ type: 'ready', url: cluster.url, caCertPem: cluster.caCertPem, adminToken: cluster.adminToken, kubeconfigPath: cluster.kubeconfigPath });
