// The API server and the object creator for bench/runtime.bench.ts, in their own process so neither
// competes with the runtime under test for its event loop. Started with child_process.fork; messages:
//   → { kubeconfigPath }                       once the local cluster (real clock, alwaysAllow) serves
//   ← { op: 'create', ns, count, data, intervalMs? }  creates the namespace, then `count` ConfigMaps cm-0..:
//                                               a burst with 20 requests in flight over one keep-alive agent,
//                                               or with intervalMs, one at a time, paced intervalMs apart
//   → { op: 'created', sentAt, createMs }       sentAt[name] = epoch ms (performance.timeOrigin-based) just
//                                               before the create request was written; createMs = the whole run
//   ← { op: 'stop' }                            stops the cluster and exits
import { Agent, request } from 'node:https';
import { startLocalCluster } from '../dist/cluster/index.js';

const IN_FLIGHT = 20;
const epochNow = () => performance.timeOrigin + performance.now();

const cluster = await startLocalCluster({
  clock: 'real',
  authz: 'alwaysAllow',
  pods: 'inert',
  controllers: { garbageCollector: false, serviceAccount: false, job: false, cronJob: false, ttl: false },
});
const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT, ca: cluster.caCertPem });

function post(path, body) {
  return new Promise((resolve, reject) => {
    const url = new URL(path, cluster.url);
    const text = JSON.stringify(body);
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', agent, headers: { Authorization: `Bearer ${cluster.adminToken}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`POST ${path}: ${res.statusCode} ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`))));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

async function createAll(ns, count, data, intervalMs) {
  await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  const sentAt = {};
  const started = performance.now();
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const name = `cm-${next++}`;
      if (intervalMs) await new Promise((r) => setTimeout(r, intervalMs));
      sentAt[name] = epochNow();
      await post(`/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: ns, name }, data });
    }
  };
  await Promise.all(Array.from({ length: intervalMs ? 1 : IN_FLIGHT }, lane));
  return { sentAt, createMs: performance.now() - started };
}

process.on('message', async (msg) => {
  if (msg.op === 'create') {
    try {
      process.send({ op: 'created', ...(await createAll(msg.ns, msg.count, msg.data ?? {}, msg.intervalMs)) });
    } catch (err) {
      process.send({ op: 'error', message: String(err?.stack ?? err) });
    }
  } else if (msg.op === 'stop') {
    agent.destroy();
    await cluster.stop();
    process.exit(0);
  }
});
process.send({ kubeconfigPath: cluster.kubeconfigPath });
