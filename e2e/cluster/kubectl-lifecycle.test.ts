/**
 * Real kubectl: get -w (Table watch), delete with a finalizer (deletionTimestamp, then gone when the
 * finalizer is removed), field selectors on events, dry-run, RBAC denial for a user without roles,
 * and identical object dumps for the same seed.
 */
import { startLocalCluster } from '../../src/cluster/index.js';
import { useClusterSuite } from './cluster-suite.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const suite = useClusterSuite();
const kubectl = suite.kubectl;
const dir = mkdtempSync(join(tmpdir(), 'kubeforge-lifecycle-'));

afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('kubectl get -w prints the table, then a row per change', async () => {
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'watched' }, data: { a: '1' } }));
  const home = mkdtempSync(join(dir, 'home-'));
  const child = spawn('kubectl', ['--kubeconfig', suite.cluster.kubeconfigPath, 'get', 'cm', 'watched', '-w'], { env: { PATH: process.env.PATH ?? '', HOME: home, KUBECACHEDIR: join(home, 'c') } });
  let out = '';
  child.stdout.on('data', (d) => (out += String(d)));
  const waitFor = async (cond: () => boolean): Promise<void> => {
    for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  };
  await waitFor(() => out.includes('watched'));
  await kubectl.ok(['patch', 'cm', 'watched', '--type=merge', '-p', '{"data":{"b":"2"}}']);
  await waitFor(() => out.trim().split('\n').length >= 3);
  child.kill();
  const lines = out.trim().split('\n');
  expect(lines[0]).toMatch(/^NAME\s+DATA\s+AGE$/);
  expect(lines[1]).toMatch(/^watched\s+1\s+\d+s$/);
  expect(lines[2]).toMatch(/^watched\s+2\s+\d+s$/);
});

test('delete with a finalizer sets deletionTimestamp; removing the finalizer deletes the object', async () => {
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'held', finalizers: ['example.com/hold'] } }));
  expect(await kubectl.ok(['delete', 'cm', 'held', '--wait=false'])).toContain('configmap "held" deleted');
  const held = JSON.parse(await kubectl.ok(['get', 'cm', 'held', '-o', 'json']));
  expect(held.metadata.deletionTimestamp).toBe('2026-11-22T10:00:00Z');
  const r = await kubectl.run(['patch', 'cm', 'held', '--type=merge', '-p', '{"metadata":{"finalizers":["example.com/hold","example.com/new"]}}']);
  expect(r.stderr).toContain('Forbidden: no new finalizers can be added if the object is being deleted');
  await kubectl.ok(['patch', 'cm', 'held', '--type=json', '-p', '[{"op":"remove","path":"/metadata/finalizers"}]']);
  expect((await kubectl.run(['get', 'cm', 'held'])).stderr).toContain('configmaps "held" not found');
});

test('events are selectable by involvedObject fields, across core/v1 and events.k8s.io/v1', async () => {
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({
    apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'e1' }, eventTime: '2026-11-22T10:00:00.000000Z', type: 'Normal', reason: 'SawCompletedJob',
    action: 'Sync', reportingController: 'cronjob-controller', reportingInstance: 'x', note: 'Saw completed job: hello-1',
    regarding: { apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', namespace: 'default', uid: 'u1' },
  }));
  const out = await kubectl.ok(['get', 'events.v1.', '--field-selector', 'involvedObject.kind=CronJob,involvedObject.name=hello', '-o', 'json']);
  const items = JSON.parse(out).items;
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({ apiVersion: 'v1', kind: 'Event', message: 'Saw completed job: hello-1', reportingComponent: 'cronjob-controller', involvedObject: { name: 'hello' } });
  const bad = await kubectl.run(['get', 'pods', '--field-selector', 'spec.foo=x']);
  expect(bad.stderr).toContain('field label not supported: spec.foo');
  const plain = await kubectl.run(['get', 'configmaps', '--field-selector', 'spec.foo=x']);
  expect(plain.stderr).toContain('"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"');
});

test('dry-run creates nothing', async () => {
  await kubectl.ok(['create', '--dry-run=server', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'dry' } }));
  expect((await kubectl.run(['get', 'cm', 'dry'])).code).toBe(1);
});

test('a user without roles is refused with the real Forbidden message; system:masters is not', async () => {
  const r = await suite.kubectlAs('alice').run(['get', 'configmaps']);
  expect(r.stderr).toContain('Error from server (Forbidden): configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"');
  const root = suite.kubectlAs('root', ['system:masters']);
  expect(await root.ok(['get', 'ns', 'default', '-o', 'name'])).toBe('namespace/default\n');
});

test('the same seed and the same writes give identical object dumps', async () => {
  const dump = async (): Promise<string> => {
    const c = await startLocalCluster({ now: '2026-11-22T10:00:00Z', seed: 7 });
    const cm = c.internals.catalog.find('', 'v1', 'configmaps')!;
    c.internals.operations.create(cm, 'default', { metadata: { generateName: 'gen-' }, data: { a: '1' } }, { fieldManager: 'test' });
    await c.clock.advance(61_000);
    c.internals.operations.create(cm, 'default', { metadata: { name: 'fixed' } }, { fieldManager: 'test' });
    // the CA's key pair comes from WebCrypto, not from the seed: mask the published CA bundle
    const text = JSON.stringify(c.internals.store.list('configmaps')).replaceAll(c.caCertPem.replaceAll('\n', '\\n'), '<ca>');
    await c.stop();
    return text;
  };
  const [a, b] = [await dump(), await dump()];
  expect(a).toBe(b);
  expect(a).toContain('"creationTimestamp":"2026-11-22T10:01:01Z"');
});

describe('on a cluster with inert pods and no controllers', () => {
  const quiet = useClusterSuite({ pods: 'inert', controllers: { garbageCollector: false, namespace: false, serviceAccount: false, job: false, cronJob: false, ttl: false } });
  const k = quiet.kubectl;

  test('a bound pod is deleted gracefully; --force --grace-period=0 removes it at once', async () => {
    await k.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: 80 }, { containerPort: 53, protocol: 'UDP' }] }] } }));
    const pod = JSON.parse(await k.ok(['get', 'pod', 'p', '-o', 'json']));
    expect(pod.spec.containers[0].ports).toEqual([{ containerPort: 80, protocol: 'TCP' }, { containerPort: 53, protocol: 'UDP' }]);
    expect(pod.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
    expect(pod.spec).toMatchObject({ restartPolicy: 'Always', terminationGracePeriodSeconds: 30, serviceAccountName: 'default', dnsPolicy: 'ClusterFirst' });
    expect(pod.metadata.generation).toBeUndefined();
    await k.ok(['delete', 'pod', 'p', '--wait=false']);
    const deleting = JSON.parse(await k.ok(['get', 'pod', 'p', '-o', 'json']));
    expect(deleting.metadata.deletionTimestamp).toBe('2026-11-22T10:00:30Z');
    expect(deleting.metadata.deletionGracePeriodSeconds).toBe(30);
    await k.ok(['delete', 'pod', 'p', '--force', '--grace-period=0']);
    expect((await k.run(['get', 'pod', 'p'])).stderr).toContain('pods "p" not found');
  });
});

test('injected faults answer matching requests with the given status', async () => {
  const remove = suite.cluster.injectFault({ verb: 'list', resource: 'configmaps', status: 500, times: 1, message: 'boom' });
  const r = await kubectl.run(['get', 'cm']);
  expect(r.stderr).toContain('boom');
  expect(await kubectl.ok(['get', 'cm', '-o', 'name'])).toContain('configmap/');
  remove();
  expect(suite.cluster.requestLog().some((e) => e.verb === 'list' && e.resource === 'configmaps' && e.code === 500)).toBe(true);
});

describe('on a plain-HTTP cluster', () => {
  const plain = useClusterSuite({ tls: false, controllers: { garbageCollector: false, namespace: false, serviceAccount: false, job: false, cronJob: false, ttl: false }, pods: 'inert' });

  test('tls: false serves plain HTTP where kubectl (which sends no token over http) acts as the admin', async () => {
    expect(plain.cluster.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await plain.kubectl.ok(['get', 'ns', 'default', '-o', 'name'])).toBe('namespace/default\n');
  });
});
