// Local cluster benchmarks (run: npm run bench:cluster). Start to first request served, then for N
// custom resources (default 10,000; BENCH_OBJECTS to change): create throughput over HTTPS, list
// latency, watch fan-out to 10 watchers, and heap per stored object; a 100-replica Deployment rolled out
// to Available and then to a new image on the virtual clock (pods start 2 s after scheduling; wall time),
// and heap per stored Pod; real kubectl 1.32's `api-resources` and `get all -A` against a 3-node cluster
// running a small shop (Deployments, Services, a StatefulSet with claims, a DaemonSet, a Job, a CronJob),
// each with a cold discovery cache (a fresh KUBECACHEDIR) and a warm one (BENCH_SHOW=1 prints the
// `get all -A` table). Medians on this machine.
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stringify } from 'yaml';
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

/** The 1.32 binary behind PATH's kubectl dispatcher when present (as the e2e harness runs it), else `kubectl`. */
function kubectlBinary() {
  try {
    const onPath = execFileSync('which', ['kubectl'], { encoding: 'utf8' }).trim();
    const direct = join(dirname(realpathSync(onPath)), 'kubectl.1.32');
    return existsSync(direct) ? direct : onPath;
  } catch {
    return 'kubectl';
  }
}

/** Runs kubectl with a private HOME and the given discovery cache directory; resolves with its wall time. */
function timedKubectl(binary, home, cacheDir, kubeconfig, args, input) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = execFile(binary, ['--kubeconfig', kubeconfig, ...args], { env: { PATH: process.env.PATH ?? '', HOME: home, KUBECACHEDIR: cacheDir }, maxBuffer: 16 << 20, timeout: 60_000 }, (err, stdout, stderr) => {
      const ms = performance.now() - t0;
      if (err) reject(new Error(`kubectl ${args.join(' ')} failed: ${err.message}\n${stderr}`));
      else resolve({ ms, stdout: String(stdout) });
    });
    child.stdin?.end(input);
  });
}

/** What `get all -A` lists: a small shop over two namespaces, as an operator's cluster might hold. */
function shopManifests() {
  const labels = (app) => ({ app });
  const podSpec = (app, image, port) => ({ metadata: { labels: labels(app) }, spec: { containers: [{ name: app, image, ...(port ? { ports: [{ containerPort: port }] } : {}) }] } });
  const deployment = (namespace, name, replicas, image, port) => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace }, spec: { replicas, selector: { matchLabels: labels(name) }, template: podSpec(name, image, port) } });
  const service = (namespace, name, port, headless = false) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace }, spec: { selector: labels(name), ...(headless ? { clusterIP: 'None' } : {}), ports: [{ port, targetPort: port }] } });
  const docs = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'monitoring' } },
    deployment('shop', 'web', 3, 'nginx:1.27', 80), service('shop', 'web', 80),
    deployment('shop', 'api', 3, 'ghcr.io/example/api:2.4.1', 8080), service('shop', 'api', 8080),
    deployment('shop', 'worker', 2, 'ghcr.io/example/worker:2.4.1'),
    { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'db', namespace: 'shop' }, spec: { serviceName: 'db', replicas: 3, selector: { matchLabels: labels('db') }, template: podSpec('db', 'postgres:17', 5432), volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] } },
    service('shop', 'db', 5432, true),
    { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'migrate', namespace: 'shop' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'migrate', image: 'ghcr.io/example/api:2.4.1', command: ['migrate', 'up'] }] } } } },
    { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'nightly-report', namespace: 'shop' }, spec: { schedule: '0 3 * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'report', image: 'ghcr.io/example/report:1.0' }] } } } } } },
    deployment('monitoring', 'grafana', 1, 'grafana/grafana:11.3.0', 3000), service('monitoring', 'grafana', 3000),
    { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'node-exporter', namespace: 'monitoring' }, spec: { selector: { matchLabels: labels('node-exporter') }, template: podSpec('node-exporter', 'prom/node-exporter:v1.8.2', 9100) } },
  ];
  return docs.map((d) => stringify(d)).join('---\n');
}

/** Steps the virtual clock a second at a time until every workload of the shop is ready and the Job done. */
async function untilShopReady(cluster) {
  const get = (resource, ns, name) => cluster.internals.store.get(resource, ns, name);
  const ready = () => {
    const deployments = [['shop', 'web'], ['shop', 'api'], ['shop', 'worker'], ['monitoring', 'grafana']].every(([ns, name]) => {
      const d = get('deployments.apps', ns, name);
      return d?.status?.availableReplicas === d?.spec.replicas && d?.status?.observedGeneration === d?.metadata.generation;
    });
    const db = get('statefulsets.apps', 'shop', 'db');
    const exporter = get('daemonsets.apps', 'monitoring', 'node-exporter');
    const migrate = get('jobs.batch', 'shop', 'migrate');
    return deployments && db?.status?.readyReplicas === 3 && exporter?.status?.desiredNumberScheduled > 0 && exporter.status.numberReady === exporter.status.desiredNumberScheduled && migrate?.status?.succeeded === 1;
  };
  for (let steps = 0; steps < 600; steps++) {
    await cluster.settle();
    if (ready()) return;
    await cluster.clock.advance(1000);
  }
  throw new Error('the shop did not come up in ten minutes of cluster time');
}

/**
 * kubectl latency: for each round, a fresh KUBECACHEDIR (cold: discovery fetched from the server and
 * written to disk), then the same command again on that cache (warm). Wall time of the whole process.
 */
async function kubectlLatency(rounds = 7) {
  const cluster = await startLocalCluster({ nodes: 3 });
  await cluster.settle();
  const binary = kubectlBinary();
  const home = mkdtempSync(join(tmpdir(), 'kubeforge-bench-kubectl-'));
  let caches = 0;
  const freshCache = () => join(home, `cache-${caches++}`);
  const run = (cacheDir, args, input) => timedKubectl(binary, home, cacheDir, cluster.kubeconfigPath, args, input);
  try {
    const version = JSON.parse((await run(freshCache(), ['version', '--client', '-o', 'json'])).stdout).clientVersion.gitVersion;
    await run(freshCache(), ['apply', '-f', '-'], shopManifests());
    await untilShopReady(cluster);
    const figures = { floor: [], apiResourcesCold: [], apiResourcesWarm: [], apiResourcesCached: [], getAllCold: [], getAllWarm: [] };
    const requests = { apiResourcesCold: 0, apiResourcesWarm: 0, apiResourcesCached: 0, getAllCold: 0, getAllWarm: 0 };
    /** Runs and counts the requests kubectl (the admin) sent the server. */
    const counted = async (cache, args, key) => {
      const before = cluster.requestLog().length;
      const r = await run(cache, args);
      requests[key] = cluster.requestLog().slice(before).filter((e) => e.user === 'kubeforge-admin').length;
      return r;
    };
    let resourceRows = 0;
    let getAllRows = 0;
    for (let i = 0; i < rounds; i++) {
      figures.floor.push((await run(freshCache(), ['version', '--client'])).ms);
      for (const [args, key] of [[['api-resources'], 'apiResources'], [['get', 'all', '-A'], 'getAll']]) {
        const cache = freshCache();
        const first = await counted(cache, args, `${key}Cold`);
        figures[`${key}Cold`].push(first.ms);
        const second = await counted(cache, args, `${key}Warm`);
        figures[`${key}Warm`].push(second.ms);
        if (first.stdout !== second.stdout) throw new Error(`kubectl ${args.join(' ')} printed differently cold and warm`);
        if (key === 'apiResources') {
          // Without --cached, api-resources invalidates the cache and fetches discovery again; with it, none.
          const cached = await counted(cache, [...args, '--cached'], 'apiResourcesCached');
          figures.apiResourcesCached.push(cached.ms);
          if (cached.stdout !== first.stdout) throw new Error('kubectl api-resources --cached printed differently');
          resourceRows = first.stdout.trim().split('\n').length - 1;
        }
        else getAllRows = first.stdout.split('\n').filter((line) => /^\S+\s+\S+\/\S+/.test(line)).length;
      }
    }
    const all = (await run(freshCache(), ['get', 'all', '-A'])).stdout;
    if (process.env.BENCH_SHOW) console.log(all);
    for (const expected of ['deployment.apps/web', 'statefulset.apps/db', 'daemonset.apps/node-exporter', 'cronjob.batch/nightly-report', 'job.batch/migrate', 'service/kubernetes', 'pod/db-2'])
      if (!all.includes(expected)) throw new Error(`kubectl get all -A does not show ${expected}:\n${all}`);
    return { version, binary, resourceRows, getAllRows, requests, ...Object.fromEntries(Object.entries(figures).map(([k, xs]) => [k, median(xs)])) };
  } finally {
    rmSync(home, { recursive: true, force: true });
    await cluster.stop();
  }
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
const k = await kubectlLatency();
console.log(`kubectl ${k.version} (process floor: version --client ${k.floor.toFixed(0)} ms), median of 7, cold = fresh KUBECACHEDIR, warm = same cache again:`);
console.log(`  kubectl api-resources (${k.resourceRows} resources): cold ${k.apiResourcesCold.toFixed(0)} ms (${k.requests.apiResourcesCold} requests), warm ${k.apiResourcesWarm.toFixed(0)} ms (${k.requests.apiResourcesWarm} requests: it refetches discovery unless --cached), warm --cached ${k.apiResourcesCached.toFixed(0)} ms (${k.requests.apiResourcesCached} requests)`);
console.log(`  kubectl get all -A (${k.getAllRows} objects on 3 nodes: Deployments, ReplicaSets, StatefulSet, DaemonSet, Job, CronJob, Services, Pods): cold ${k.getAllCold.toFixed(0)} ms (${k.requests.getAllCold} requests), warm ${k.getAllWarm.toFixed(0)} ms (${k.requests.getAllWarm} requests)`);
