/**
 * DeleteOptions as client-go sends them (what kubectl drain relies on): a DELETE whose body is a
 * protobuf DeleteOptions (envelope `v1`/`DeleteOptions`), and an Eviction whose own deleteOptions carry
 * dryRun while the request names none (`kubectl drain --dry-run=server`) — propagateDryRun's rules.
 */
import { startLocalCluster, type LocalCluster } from '../local-cluster.js';

let cluster: LocalCluster;
afterEach(() => cluster?.stop());

/** The body kubectl 1.32 sent for `drain --disable-eviction --grace-period=0`: DeleteOptions{gracePeriodSeconds: 0}. */
const protobufGraceZero = Buffer.from('6b3873000a130a027631120d44656c6574654f7074696f6e73120208001a002200', 'hex');

async function call(method: string, path: string, body?: Buffer | string, contentType = 'application/json'): Promise<{ code: number; json: any }> {
  const res = await fetch(new URL(path, cluster.url), {
    method,
    headers: { Authorization: `Bearer ${cluster.adminToken}`, 'Content-Type': contentType, Accept: 'application/json' },
    ...(body === undefined ? {} : { body }),
  });
  const text = await res.text();
  return { code: res.status, json: text ? JSON.parse(text) : undefined };
}

async function start(): Promise<void> {
  cluster = await startLocalCluster({ tls: false, now: '2026-11-22T10:00:00Z' });
  await cluster.settle();
}

async function runningPod(name: string, labels: Record<string, string> = {}, annotations: Record<string, string> = {}): Promise<void> {
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name, labels, annotations }, spec: { terminationGracePeriodSeconds: 30, containers: [{ name: 'c', image: 'nginx:1.27' }] } };
  expect((await call('POST', '/api/v1/namespaces/default/pods', JSON.stringify(pod))).code).toBe(201);
  await cluster.settle();
}

const pod = (name: string) => call('GET', `/api/v1/namespaces/default/pods/${name}`);
const evict = (name: string, deleteOptions: Record<string, unknown>, query = '') =>
  call('POST', `/api/v1/namespaces/default/pods/${name}/eviction${query}`, JSON.stringify({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name }, deleteOptions }));

test('a DELETE with a protobuf DeleteOptions body is decoded: gracePeriodSeconds 0 removes the pod at once', async () => {
  await start();
  // the app would take 20 s to stop: only a grace period of 0 removes the pod without the clock moving
  for (const name of ['slow-json', 'slow-protobuf']) await runningPod(name, {}, { 'sim.kubeforge.io/stop-delay': '20s' });
  expect((await call('DELETE', '/api/v1/namespaces/default/pods/slow-json', '{"gracePeriodSeconds":0}')).code).toBe(200);
  expect((await call('DELETE', '/api/v1/namespaces/default/pods/slow-protobuf', protobufGraceZero, 'application/vnd.kubernetes.protobuf')).code).toBe(200);
  await cluster.settle();
  expect((await pod('slow-json')).code).toBe(404);
  expect((await pod('slow-protobuf')).code).toBe(404);
  // without options the pod lingers for its grace period
  await runningPod('slow-default', {}, { 'sim.kubeforge.io/stop-delay': '20s' });
  expect((await call('DELETE', '/api/v1/namespaces/default/pods/slow-default')).code).toBe(200);
  await cluster.settle();
  expect((await pod('slow-default')).json.metadata.deletionGracePeriodSeconds).toBe(30);
});

test('a protobuf body that is no DeleteOptions is a 400, as before', async () => {
  await start();
  await runningPod('web');
  const reply = await call('DELETE', '/api/v1/namespaces/default/pods/web', Buffer.from('k8s\0garbage', 'latin1'), 'application/vnd.kubernetes.protobuf');
  expect(reply.code).toBe(400);
  expect((await pod('web')).code).toBe(200);
});

test('an eviction dry run named only in the Eviction’s deleteOptions (kubectl drain --dry-run=server) evicts nothing', async () => {
  await start();
  await runningPod('web-a', { app: 'web' });
  await runningPod('web-b', { app: 'web' });
  const budget = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'web' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } };
  expect((await call('POST', '/apis/policy/v1/namespaces/default/poddisruptionbudgets', JSON.stringify(budget))).code).toBe(201);
  await cluster.settle();
  const before = (await call('GET', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/web')).json.status;
  expect(before.disruptionsAllowed).toBe(1);

  for (const [options, query] of [[{ dryRun: ['All'] }, ''], [{}, '?dryRun=All'], [{ dryRun: ['All'] }, '?dryRun=All']] as const) {
    const reply = await evict('web-a', options, query);
    expect(reply).toEqual({ code: 201, json: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } });
  }
  await cluster.settle();
  const after = await pod('web-a');
  expect(after.json.metadata.deletionTimestamp).toBeUndefined();
  expect((after.json.status.conditions ?? []).map((c: any) => c.type)).not.toContain('DisruptionTarget');
  expect((await call('GET', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/web')).json.status).toEqual(before);

  // a real eviction still goes through
  expect((await evict('web-a', {})).code).toBe(201);
  await cluster.settle();
  expect((await pod('web-a')).code).toBe(404);
});

test('request and body naming different dry runs: the plain error EvictionREST returns, a 500 with no reason', async () => {
  await start();
  await runningPod('web');
  const reply = await evict('web', { dryRun: ['All', 'All'] }, '?dryRun=All');
  expect(reply).toEqual({
    code: 500,
    json: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Non-matching dry-run options in request and content: [All] and [All All]', code: 500 },
  });
  expect((await pod('web')).json.metadata.deletionTimestamp).toBeUndefined();
});
