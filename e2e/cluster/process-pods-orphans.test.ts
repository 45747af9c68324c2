/**
 * A container process never outlives its cluster: `kubeforge cluster start --image …` runs in a child process
 * with a pod of the mapped image; the child is killed with SIGKILL (no exit hook runs), and the pod's process
 * ends by itself — it watches the kubelet's link (fd 3), which the kernel closes with the cluster's process.
 * Real processes, so real time: the waits only bound how long a loaded machine may take.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const image = join(repoRoot, 'e2e/cluster/fixtures/process-image');
const dir = mkdtempSync(join(tmpdir(), 'kubeforge-orphans-'));
let host: ChildProcess | undefined;

afterAll(() => {
  if (host?.exitCode === null) host.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Pids of processes whose environment holds KUBEFORGE_POD_IP=<ip>. */
function processesOfPod(ip: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`KUBEFORGE_POD_IP=${ip}`)) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}

async function within(ms: number, what: string, probe: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('SIGKILL of the process running the cluster ends its pods\' processes', async () => {
  const kubeconfig = join(dir, 'kubeconfig');
  host = spawn(process.execPath, [join(repoRoot, 'bin/kubeforge.js'), 'cluster', 'start', '--port', '0', '--kubeconfig', kubeconfig, '--image', `hello=${image}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  host.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  await within(60_000, 'the KUBECONFIG line', () => out.includes('export KUBECONFIG='));
  const kubectl = (args: string[], input?: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const child = execFile('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: dir, KUBECACHEDIR: join(dir, 'cache') } }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}: ${stderr}`)) : resolve(stdout),
      );
      child.stdin?.end(input ?? '');
    });
  const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'hello' }, spec: { containers: [{ name: 'app', image: 'hello', env: [{ name: 'MODE', value: 'serve' }] }] } };
  await kubectl(['apply', '-f', '-'], JSON.stringify(pod));
  let ip = '';
  await within(60_000, 'the pod listening', async () => {
    ip = (await kubectl(['get', 'pod', 'hello', '-o', 'jsonpath={.status.podIP}']).catch(() => '')).trim();
    return ip !== '' && (await kubectl(['logs', 'hello']).catch(() => '')).includes(`listening on ${ip}:8080`);
  });
  const pids = processesOfPod(ip);
  expect(pids).toHaveLength(1);

  host.kill('SIGKILL');
  await within(15_000, `the pod's process ${pids[0]} ending`, () => processesOfPod(ip).length === 0);
}, 120_000);
