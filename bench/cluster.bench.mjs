// Local cluster benchmarks (run: npm run bench:cluster). Start to first request served, then for N
// custom resources (default 10,000; BENCH_OBJECTS to change): create throughput over HTTPS, list
// latency, watch fan-out to 10 watchers, and heap per stored object; a 100-replica Deployment rolled out
// to Available and then to a new image on the virtual clock (pods start 2 s after scheduling; wall time),
// and heap per stored Pod. Medians on this machine.
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

const replicas = Number(process.env.BENCH_REPLICAS ?? 100);

/** Steps the virtual clock a second at a time until the Deployment has rolled out; returns the steps taken. */
async function untilRolledOut(cluster, name) {
  for (let steps = 0; steps < 3600; steps++) {
    await cluster.settle();
    const d = cluster.internals.store.get('deployments.apps', 'default', name);
    const s = d?.status ?? {};
    const done = s.observedGeneration === d.metadata.generation && s.updatedReplicas === replicas && s.replicas === replicas && s.availableReplicas === replicas;
    if (done) return steps;
    await cluster.clock.advance(1000);
  }
  throw new Error(`deployment ${name} did not roll out in an hour of cluster time`);
}

async function deploymentRollout() {
  const cluster = await startLocalCluster({});
  await cluster.settle();
  const deployments = cluster.internals.catalog.find('apps', 'v1', 'deployments');
  const body = {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'bench' },
    spec: {
      replicas, selector: { matchLabels: { app: 'bench' } },
      template: { metadata: { labels: { app: 'bench' }, annotations: { 'sim.kubeforge.io/start-delay': '2s' } }, spec: { containers: [{ name: 'app', image: 'nginx:1.26' }] } },
    },
  };
  let t = performance.now();
  cluster.internals.operations.create(deployments, 'default', body, { fieldManager: 'bench' });
  const firstSteps = await untilRolledOut(cluster, 'bench');
  const toAvailable = performance.now() - t;
  t = performance.now();
  const current = cluster.internals.store.get('deployments.apps', 'default', 'bench');
  const next = structuredClone(current);
  next.spec.template.spec.containers[0].image = 'nginx:1.27';
  cluster.internals.operations.update(deployments, 'default', 'bench', next, { fieldManager: 'bench' });
  const secondSteps = await untilRolledOut(cluster, 'bench');
  const toNewImage = performance.now() - t;
  await cluster.stop();
  return { toAvailable, toNewImage, firstSteps, secondSteps };
}

/** Heap per stored Pod: pods as a kubelet leaves them Running (status, conditions, container status). */
async function heapPerPod() {
  const count = 2000;
  const cluster = await startLocalCluster({ pods: 'inert', controllers: { garbageCollector: false, namespace: false, serviceAccount: false, job: false, cronJob: false, ttl: false } });
  const pods = cluster.internals.catalog.find('', 'v1', 'pods');
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < count; i++) {
    const created = cluster.internals.operations.create(pods, 'default', {
      apiVersion: 'v1', kind: 'Pod',
      metadata: { generateName: 'bench-5869d7778c-', labels: { app: 'bench', 'pod-template-hash': '5869d7778c' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'bench-5869d7778c', uid: '4b1ad2b2-7d2e-4bb0-9a55-0d4b3c1f6a10', controller: true, blockOwnerDeletion: true }] },
      spec: { nodeName: 'kubeforge-node', containers: [{ name: 'app', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
    }, { fieldManager: 'bench' }).object;
    const at = created.metadata.creationTimestamp;
    created.status = {
      phase: 'Running', hostIP: '10.0.0.1', hostIPs: [{ ip: '10.0.0.1' }], podIP: `10.244.${i >> 8}.${i & 255}`, podIPs: [{ ip: `10.244.${i >> 8}.${i & 255}` }], startTime: at, qosClass: 'BestEffort',
      conditions: ['PodReadyToStartContainers', 'Initialized', 'Ready', 'ContainersReady', 'PodScheduled'].map((type) => ({ type, status: 'True', lastProbeTime: null, lastTransitionTime: at })),
      containerStatuses: [{ name: 'app', state: { running: { startedAt: at } }, lastState: {}, ready: true, restartCount: 0, image: 'docker.io/library/nginx:1.27', imageID: `docker.io/library/nginx@sha256:${'ab'.repeat(32)}`, containerID: `containerd://${String(i).padStart(64, '0')}`, started: true }],
    };
    cluster.internals.operations.update(pods, 'default', created.metadata.name, created, { fieldManager: 'kubelet', subresource: 'status' });
  }
  global.gc?.();
  const perPod = (process.memoryUsage().heapUsed - before) / count;
  await cluster.stop();
  return perPod;
}

const start = await startToFirstRequest();
console.log(`start to first request served (median of 7): ${start.toFixed(0)} ms (goal < 200 ms)`);
const v = await volume();
console.log(`${objects} custom resources: create ${v.createPerSecond.toFixed(0)}/s over HTTPS (8 in flight); list all ${v.listMs.toFixed(0)} ms (median of 5)`);
console.log(`watch fan-out: ${v.delivered} events to 10 watchers, all delivered ${v.fanOutSeconds.toFixed(2)} s after the first create`);
console.log(`heap per stored object (incl. history): ${(v.heapPerObject / 1024).toFixed(1)} KiB${global.gc ? '' : ' (run with --expose-gc for a steadier figure)'}`);
const rounds = [];
for (let i = 0; i < 3; i++) rounds.push(await deploymentRollout());
console.log(
  `${replicas}-replica Deployment (pods start 2 s after scheduling, 25%/25% rolling): created → Available ${median(rounds.map((r) => r.toAvailable)).toFixed(0)} ms, ` +
    `new image → rolled out ${median(rounds.map((r) => r.toNewImage)).toFixed(0)} ms wall (median of 3; ${rounds[0].firstSteps} and ${rounds[0].secondSteps} s of cluster time)`,
);
const perPod = await heapPerPod();
console.log(`heap per stored Pod (Running, with its watch history): ${(perPod / 1024).toFixed(1)} KiB${global.gc ? '' : ' (run with --expose-gc for a steadier figure)'}`);
