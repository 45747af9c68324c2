/**
 * `make deploy-local` as a user runs it (issue 15): in a copy of examples/at, one command starts the local
 * cluster with the project's IMG mapped to the folder and the cert-manager stand-in, runs the project's own
 * `make deploy` against it and prints the KUBECONFIG= line; the manager then runs inside the cluster (its
 * pod Ready, its Lease held) until Ctrl-C (SIGINT to the process group) stops it all. Its `build`
 * prerequisite is taken as done (`make -o build`): dist/ is emitted beforehand (deploy-harness.ts), as the
 * deploy proofs do — make build's tsc of this example is e2e/examples/run-local.test.ts's, and make build
 * itself e2e/scaffold's — and make's kubeforge is the installed bin (no npx; run-local.test.ts says why).
 * Real clock (the cluster runs in the foreground as `kubeforge cluster start`), so waits are polled.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { Kubectl } from '../cluster/kubectl-runner.js';
import { prepareExample } from './deploy-harness.js';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const alive = (pid: number): boolean => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('make deploy-local: the cluster starts, make deploy runs the manager in it (pod Ready, Lease held), Ctrl-C stops everything', async () => {
  const example = prepareExample('at');
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE_OPTIONS' && k !== 'JEST_WORKER_ID' && k !== 'KUBECONFIG'));
  const child = spawn('make', ['-o', 'build', 'deploy-local', 'KUBEFORGE=node_modules/.bin/kubeforge'], { cwd: example.root, env: { ...env, KUBECACHEDIR: `${example.temp}/kubecache` }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  let kubectl: Kubectl | undefined;
  try {
    const end = Date.now() + 90_000;
    while (!/^the manager runs in the local cluster/m.test(output)) {
      if (Date.now() > end || child.exitCode !== null) throw new Error(`make deploy-local did not deploy (exit ${String(child.exitCode)}):\n${output}`);
      await sleep(200);
    }
    const kubeconfig = /^export KUBECONFIG=(\S+)$/m.exec(output)![1]!;
    expect(kubeconfig).toBe(`${example.root}/.kubeforge/deploy-cluster/kubeconfig`);
    expect(output).toContain('deployment.apps/at-controller-manager serverside-applied');
    kubectl = new Kubectl(kubeconfig);
    let pods: any[] = [];
    for (const stop = Date.now() + 45_000; Date.now() < stop; await sleep(500)) {
      pods = JSON.parse(await kubectl.ok(['get', 'pods', '-n', 'at-system', '-l', 'control-plane=controller-manager', '-o', 'json'])).items;
      if (pods.length === 1 && pods[0].status?.conditions?.some((c: any) => c.type === 'Ready' && c.status === 'True')) break;
    }
    expect(pods.map((p) => p.status.conditions.find((c: any) => c.type === 'Ready')?.status)).toEqual(['True']);
    expect(pods[0].status.containerStatuses[0]).toMatchObject({ image: 'controller:latest', ready: true });
    expect(await kubectl.ok(['get', 'lease', '-n', 'at-system', 'at-leader.my.domain', '-o', 'jsonpath={.spec.holderIdentity}'])).toMatch(new RegExp(`^${pods[0].metadata.name}_`));
  } finally {
    kubectl?.cleanup();
    if (alive(child.pid!)) process.kill(-child.pid!, 'SIGINT');
    for (let i = 0; i < 100 && alive(child.pid!); i++) await sleep(100);
    if (alive(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
    rmSync(dirname(example.root), { recursive: true, force: true });
  }
  expect(alive(child.pid!)).toBe(false);
}, 150_000);
