/**
 * A pod run as a process across a restart of the local cluster (`dataDir`): stopping the cluster ends
 * its processes; the restarted cluster's kubelet finds the pod Running with no process behind it and
 * starts it again at once, as a kubelet does after its node rebooted — restartCount up by one, the
 * last state Unknown (255), the same pod IP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLocalCluster, type LocalCluster } from '../../src/cluster/index.js';
import { Kubectl } from './kubectl-runner.js';
import { untilSettled } from './cluster-suite.js';

const imageDir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'process-image');
const dataDir = mkdtempSync(join(tmpdir(), 'kubeforge-process-restart-'));
const kubectl = new Kubectl(join(dataDir, 'kubeconfig'));
let cluster: LocalCluster | undefined;
const start = async (): Promise<LocalCluster> => (cluster = await startLocalCluster({ dataDir, images: { 'example.com/hello:v1': imageDir } }));

afterAll(async () => {
  await cluster?.stop();
  await kubectl.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
});

const until = <T>(what: string, check: () => Promise<T | undefined | false>): Promise<T> => untilSettled(cluster!, what, check);

const answers = async (ip: string): Promise<string | undefined> => {
  try {
    return await (await fetch(`http://${ip}:8080/ping`)).text();
  } catch {
    return undefined;
  }
};

test('after a restart the process is started again at once: restartCount 1, last state Unknown, same pod IP', async () => {
  await start();
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'survivor' }, spec: { containers: [{ name: 'app', image: 'example.com/hello:v1', env: [{ name: 'MODE', value: 'serve' }] }] } };
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify(pod));
  const ip = await until('the process answering', async () => {
    const p = JSON.parse(await kubectl.ok(['get', 'pod', 'survivor', '-o', 'json']));
    return p.status?.podIP && (await answers(p.status.podIP)) ? (p.status.podIP as string) : undefined;
  });
  await cluster!.stop();
  expect(await answers(ip)).toBeUndefined();
  await start();
  const cs = await until('the process started again', async () => {
    const p = JSON.parse(await kubectl.ok(['get', 'pod', 'survivor', '-o', 'json']));
    const status = p.status.containerStatuses[0];
    return status.restartCount === 1 && status.state.running && (await answers(p.status.podIP)) ? { ...status, podIP: p.status.podIP } : undefined;
  });
  expect(cs.podIP).toBe(ip);
  expect(cs.lastState.terminated).toMatchObject({ exitCode: 255, reason: 'Unknown' });
  expect(await answers(ip)).toBe('survivor answered GET /ping');
});
