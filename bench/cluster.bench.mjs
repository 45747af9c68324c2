// Local cluster benchmarks (run: npm run bench:cluster). Start to first request served, then for N
// custom resources (default 10,000; BENCH_OBJECTS to change): create throughput over HTTPS, list
// latency, watch fan-out to 10 watchers, and heap per stored object. Medians on this machine.
import { Agent, request } from 'node:https';
import { startLocalCluster } from '../dist/cluster/index.js';

const objects = Number(process.env.BENCH_OBJECTS ?? 10_000);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function call(cluster, agent, method, path, body) {
  return new Promise((resolve, reject) => {
    const url = new URL(path, cluster.url);
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, agent, ca: cluster.caCertPem, headers: { Authorization: `Bearer ${cluster.adminToken}`, 'Content-Type': 'application/json' } },
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

async function startToFirstRequest() {
  const times = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    const cluster = await startLocalCluster({ controllers: { garbageCollector: false, namespace: false, serviceAccount: false, job: false, cronJob: false, ttl: false }, pods: 'inert' });
    const agent = new Agent({ keepAlive: true });
    const r = await call(cluster, agent, 'GET', '/version');
    times.push(performance.now() - t0);
    if (r.code !== 200) throw new Error(`/version answered ${r.code}`);
    agent.destroy();
    await cluster.stop();
  }
  return median(times);
}

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'widgets.bench.kubeforge.io' },
  spec: {
    group: 'bench.kubeforge.io', scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer', minimum: 0 }, color: { type: 'string' } } } } } } }],
  },
};

async function volume() {
  const cluster = await startLocalCluster(process.env.BENCH_NO_CONTROLLERS ? { controllers: { garbageCollector: false, namespace: false, serviceAccount: false, job: false, cronJob: false, ttl: false }, pods: 'inert' } : {});
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  await call(cluster, agent, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  await cluster.settle();
  const path = '/apis/bench.kubeforge.io/v1/namespaces/default/widgets';
  const watchers = [];
  let delivered = 0;
  for (let i = 0; i < 10; i++) {
    const url = new URL(`${path}?watch=true&resourceVersion=${cluster.internals.store.resourceVersion}`, cluster.url);
    watchers.push(request({ host: url.hostname, port: url.port, path: url.pathname + url.search, ca: cluster.caCertPem, headers: { Authorization: `Bearer ${cluster.adminToken}` } }, (res) => {
      let buf = '';
      res.on('data', (c) => {
        buf += c;
        const lines = buf.split('\n');
        buf = lines.pop();
        delivered += lines.length;
      });
    }).end());
  }
  await new Promise((r) => setTimeout(r, 200));
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  const inFlight = 8;
  let next = 0;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (next < objects) {
      const i = next++;
      const r = await call(cluster, agent, 'POST', path, { apiVersion: 'bench.kubeforge.io/v1', kind: 'Widget', metadata: { name: `w-${i}` }, spec: { size: i, color: 'red' } });
      if (r.code !== 201) throw new Error(`create answered ${r.code}: ${r.body}`);
    }
  }));
  const createSeconds = (performance.now() - t0) / 1000;
  for (let i = 0; i < 100 && delivered < objects * 10; i++) await new Promise((r) => setTimeout(r, 50));
  const fanOutSeconds = (performance.now() - t0) / 1000;
  global.gc?.();
  const heapPerObject = (process.memoryUsage().heapUsed - heapBefore) / objects;
  const lists = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    const r = await call(cluster, agent, 'GET', path);
    lists.push(performance.now() - t);
    if (JSON.parse(r.body).items.length !== objects) throw new Error('list is short');
  }
  for (const w of watchers) w.destroy();
  agent.destroy();
  await cluster.stop();
  return { createPerSecond: objects / createSeconds, listMs: median(lists), delivered, fanOutSeconds, heapPerObject };
}

const start = await startToFirstRequest();
console.log(`start to first request served (median of 7): ${start.toFixed(0)} ms (goal < 200 ms)`);
const v = await volume();
console.log(`${objects} custom resources: create ${v.createPerSecond.toFixed(0)}/s over HTTPS (8 in flight); list all ${v.listMs.toFixed(0)} ms (median of 5)`);
console.log(`watch fan-out: ${v.delivered} events to 10 watchers, all delivered ${v.fanOutSeconds.toFixed(2)} s after the first create`);
console.log(`heap per stored object (incl. history): ${(v.heapPerObject / 1024).toFixed(1)} KiB${global.gc ? '' : ' (run with --expose-gc for a steadier figure)'}`);
