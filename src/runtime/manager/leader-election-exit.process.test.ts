/**
 * The default on a lost lease, in a real process (kubeforge's compiled dist/, which `npm test` builds
 * first): a manager whose path to the server stalls logs "leader election lost" and exits with status 1
 * within its renew deadline, as a controller-runtime manager's main does. Real time is unavoidable here
 * (the child runs on the wall clock), so the lease timings are short: 3 s / 2 s / 0.5 s.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startLocalCluster } from '../../cluster/index.js';
import { StallingProxy } from '../../testing/stalling-proxy.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

test('a manager that cannot renew its lease exits 1 with "leader election lost"', async () => {
  const runtime = join(repoRoot, 'dist/runtime/index.js');
  if (!existsSync(runtime)) throw new Error('dist/ is missing: run `npx tsc -p tsconfig.build.json` (npm test does it first)');
  const cluster = await startLocalCluster({ authz: 'alwaysAllow' });
  const proxy = new StallingProxy({ host: '127.0.0.1', port: Number(new URL(cluster.url).port) });
  try {
    await proxy.start(new URL(cluster.url).protocol === 'https:' ? 'https' : 'http');
    const kubeconfig = `${cluster.kubeconfigPath}.via-proxy`;
    writeFileSync(kubeconfig, readFileSync(cluster.kubeconfigPath, 'utf8').split(cluster.url).join(proxy.url));
    const script = `
      import { Manager } from ${JSON.stringify(pathToFileURL(runtime).href)};
      const mgr = new Manager({ kubeConfig: process.argv[1], leaderElection: { id: 'exit-test', namespace: 'default', identity: 'child', leaseDurationMs: 3000, renewDeadlineMs: 2000, retryPeriodMs: 500 } });
      await mgr.runUntilSignal().then(() => process.exit(0));
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, kubeconfig], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stdout += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const deadline = Date.now() + 20_000;
    while (!stdout.includes('successfully acquired lease default/exit-test')) {
      if (Date.now() > deadline) throw new Error(`the child never led:\n${stdout}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const stalledAt = Date.now();
    proxy.stall();
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([exited, new Promise<'still running'>((r) => (timer = setTimeout(() => r('still running'), 10_000)))]);
    clearTimeout(timer);
    if (code === 'still running') child.kill('SIGKILL');
    expect(code).toBe(1);
    // Within the renew deadline (2 s) of its last renewal, plus process start-up slack.
    expect(Date.now() - stalledAt).toBeLessThan(6_000);
    const lost = stdout.split('\n').filter((l) => l.includes('"msg":"leader election lost"'));
    expect(lost).toHaveLength(1);
    expect(JSON.parse(lost[0]!)).toMatchObject({ level: 50, lease: 'default/exit-test' });
  } finally {
    proxy.heal();
    await proxy.stop();
    await cluster.stop();
  }
}, 40_000);
