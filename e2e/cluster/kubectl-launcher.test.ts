/** The launcher kubectl runs go through: each run's exit status, output and input as a direct execFile gives them. */
import { fileURLToPath } from 'node:url';
import { KubectlLauncher } from './kubectl-launcher-client.js';

const launcher = new KubectlLauncher(fileURLToPath(new URL('./kubectl-launcher.mjs', import.meta.url)));
const env = { PATH: process.env.PATH ?? '' };
const sh = (script: string, input?: string, timeout = 10_000) => launcher.run({ file: '/bin/sh', args: ['-c', script], env, input, timeout });

test('exit status, stdout, stderr and stdin of concurrent runs come back to their callers', async () => {
  launcher.hold();
  try {
    const [failed, echoed, environment] = await Promise.all([
      sh('echo out; echo err >&2; exit 3'),
      sh('tr a-z A-Z', 'kubectl input\n'),
      sh('echo "$PATH|$HOME"'),
    ]);
    expect(failed).toEqual({ code: 3, stdout: 'out\n', stderr: 'err\n' });
    expect(echoed).toEqual({ code: 0, stdout: 'KUBECTL INPUT\n', stderr: '' });
    expect(environment.stdout).toBe(`${env.PATH}|\n`);
  } finally {
    await launcher.release();
  }
});

test('a run killed at its timeout or not started answers 1; the last release still answers a run under way', async () => {
  launcher.hold();
  const killed = sh('sleep 5', undefined, 200);
  const missing = launcher.run({ file: '/nonexistent/kubectl', args: [], env, timeout: 1000 });
  const underWay = sh('sleep 0.2; echo done');
  const released = launcher.release();
  expect(await killed).toMatchObject({ code: 1, stdout: '' });
  expect(await missing).toMatchObject({ code: 1, stdout: '' });
  expect(await underWay).toEqual({ code: 0, stdout: 'done\n', stderr: '' });
  await released;
  // a run after the last release starts a new launcher
  launcher.hold();
  try {
    expect(await sh('echo again')).toEqual({ code: 0, stdout: 'again\n', stderr: '' });
  } finally {
    await launcher.release();
  }
});
