/**
 * `startLocalCluster({ dataDir })`: a stopped and restarted cluster keeps its objects, its
 * resourceVersion counter, its CA, tokens and port — kubectl with the old kubeconfig just works — and
 * custom resources stay served; history is not kept, so a watch from before the restart gets 410.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalCluster, type LocalCluster } from '../../src/cluster/index.js';
import { Kubectl } from './kubectl-runner.js';

const dataDir = mkdtempSync(join(tmpdir(), 'kubeforge-persist-'));
const kubectl = new Kubectl(join(dataDir, 'kubeconfig'));
let cluster: LocalCluster | undefined;
const start = async (fresh = false): Promise<LocalCluster> => (cluster = await startLocalCluster({ dataDir, fresh, now: '2026-11-22T10:00:00Z' }));

afterAll(async () => {
  await cluster?.stop();
  await kubectl.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
});

const widgets = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.com }
spec:
  group: example.com
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget }
  versions:
  - name: v1
    served: true
    storage: true
    schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } }
`;

/** The first event of a watch from `rv`, read raw with the kubeconfig's CA and token. */
function firstWatchEvent(url: string, ca: string, token: string, path: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { ca, headers: { authorization: `Bearer ${token}` } }, (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += String(chunk);
        const line = text.split('\n')[0];
        if (text.includes('\n')) {
          req.destroy();
          resolve({ status: res.statusCode, event: JSON.parse(line!) });
        }
      });
      res.on('end', () => resolve({ status: res.statusCode, event: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('objects, counter, CA, tokens, port and custom resources survive a restart; old watches get 410', async () => {
  let c = await start(true);
  const firstUrl = c.url;
  const firstCa = c.caCertPem;
  await kubectl.ok(['create', 'configmap', 'kept', '--from-literal=k=v']);
  await kubectl.ok(['apply', '-f', '-'], widgets);
  await c.settle();
  await kubectl.ok(['apply', '-f', '-'], 'apiVersion: example.com/v1\nkind: Widget\nmetadata: { name: w1, namespace: default }\nspec: { size: 3 }\n');
  await kubectl.ok(['create', 'configmap', 'gone', '--from-literal=k=v']);
  await kubectl.ok(['delete', 'configmap', 'gone']);
  const saToken = (await kubectl.ok(['create', 'token', 'default', '-n', 'default'])).trim();
  const before = JSON.parse(await kubectl.ok(['get', 'configmap', 'kept', '-o', 'json']));
  const widgetBefore = JSON.parse(await kubectl.ok(['get', 'widget', 'w1', '-o', 'json']));
  const rvBefore = c.internals.store.resourceVersion;
  await c.stop();

  c = await start();
  expect(c.url).toBe(firstUrl);
  expect(c.caCertPem).toBe(firstCa);
  expect(c.internals.store.resourceVersion).toBe(rvBefore);
  // the old kubeconfig (same CA, same admin token, same port) still works
  const after = JSON.parse(await kubectl.ok(['get', 'configmap', 'kept', '-o', 'json']));
  expect(after.metadata).toEqual(before.metadata);
  expect(after.data).toEqual({ k: 'v' });
  expect((await kubectl.run(['get', 'configmap', 'gone'])).stderr).toContain('configmaps "gone" not found');
  // the CRD is served again and its object kept
  const widgetAfter = JSON.parse(await kubectl.ok(['get', 'widget', 'w1', '-o', 'json']));
  expect([widgetAfter.metadata.uid, widgetAfter.metadata.resourceVersion, widgetAfter.spec]).toEqual([widgetBefore.metadata.uid, widgetBefore.metadata.resourceVersion, { size: 3 }]);
  // the service-account token signed before the restart still authenticates
  const review = JSON.parse(await kubectl.ok(['create', '-o', 'json', '-f', '-'], JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: saToken } })));
  expect(review.status).toMatchObject({ authenticated: true, user: { username: 'system:serviceaccount:default:default' } });
  // resourceVersions go on from where they were; uids and generated names do not repeat
  const next = JSON.parse(await kubectl.ok(['create', 'configmap', 'after', '--from-literal=k=v', '-o', 'json']));
  expect(Number(next.metadata.resourceVersion)).toBeGreaterThan(rvBefore);
  expect(next.metadata.uid).not.toBe(before.metadata.uid);
  // a watch from before the restart: history is not kept, so 410 Expired as after a compaction
  const { event } = await firstWatchEvent(c.url, c.caCertPem, c.adminToken, `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${before.metadata.resourceVersion}`);
  expect(event).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
  await c.stop();

  // --fresh starts empty with a new CA
  c = await start(true);
  expect(c.caCertPem).not.toBe(firstCa);
  expect((await kubectl.run(['get', 'configmap', 'kept'])).stderr).toContain('configmaps "kept" not found');
  expect(readFileSync(join(dataDir, 'kubeconfig'), 'utf8')).toContain(c.adminToken);
}, 60_000);

test('one cluster per data directory: a second start, in this process or another, is refused and changes nothing', async () => {
  await cluster?.stop(); // the previous test's last cluster
  const c = await start();
  await kubectl.ok(['create', 'configmap', 'owner-data', '--from-literal=k=v']);
  // In this process: the directory's database is locked by the running cluster.
  await expect(startLocalCluster({ dataDir, fresh: true })).rejects.toThrow(`data directory ${dataDir} is in use by another local cluster`);
  // In another process (an OS file lock, not a flag in memory): `kubeforge cluster start --data-dir … --fresh`.
  const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const second = spawnSync(process.execPath, [join(repoRoot, 'bin/kubeforge.js'), 'cluster', 'start', '--data-dir', dataDir, '--fresh', '--port', '0'], { encoding: 'utf8', timeout: 30_000 });
  expect(second.status).toBe(1);
  expect(second.stderr).toContain(`data directory ${dataDir} is in use by another local cluster`);
  expect(second.stderr).not.toMatch(/\n\s+at /); // one message, no stack trace
  // The running cluster was not disturbed (--fresh did not empty it) and keeps writing.
  expect(JSON.parse(await kubectl.ok(['get', 'configmap', 'owner-data', '-o', 'json'])).data).toEqual({ k: 'v' });
  await kubectl.ok(['create', 'configmap', 'still-writing', '--from-literal=k=v']);
  await c.stop();
  // Once stopped, the directory is free again and kept everything.
  const again = await start();
  expect(JSON.parse(await kubectl.ok(['get', 'configmap', 'still-writing', '-o', 'json'])).data).toEqual({ k: 'v' });
  await again.stop();
  cluster = undefined;
}, 60_000);
