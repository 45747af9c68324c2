/**
 * SIGTERM ends an operator's process within gracefulShutdownTimeoutMs even when every worker is stuck in a
 * reconcile whose request to the API server never gets an answer (a server that accepts the connection and never says a word, not even the TLS handshake):
 * a real Node process running kubeforge's compiled runtime, as `make run` does, exits non-zero in time.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const CHECKOUT = path.resolve(import.meta.dirname, '../../..');
const runtimeDist = path.join(CHECKOUT, 'dist/runtime/index.js');

let silentServer: Server;
const sockets: Socket[] = [];
let tmp: string;

beforeAll(async () => {
  if (!existsSync(runtimeDist)) throw new Error(`${runtimeDist} is not built: run \`npx tsc -p tsconfig.build.json\` (npm test does) first`);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'kubeforge-sigterm-'));
  silentServer = createServer((socket) => {
    socket.on('error', () => {}); // the operator resets its requests when the grace period ends
    sockets.push(socket);
  }); // accepts, never answers
  await new Promise<void>((resolve) => silentServer.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => silentServer.close(() => resolve()));
  rmSync(tmp, { recursive: true, force: true });
});

/** The operator: four workers, each stuck in a GET the server never answers; SIGTERM handled by runUntilSignal. */
function operatorScript(kubeconfigPath: string, graceMs: number): string {
  return `
import { BuiltinKinds, Controller, EventChannel, Manager, channelSource, enqueueRequestForObject } from ${JSON.stringify(runtimeDist)};
const mgr = new Manager({ kubeConfig: ${JSON.stringify(kubeconfigPath)}, gracefulShutdownTimeoutMs: ${graceMs} });
const channel = new EventChannel();
let stuck = 0;
const controller = new Controller('stuck', async (req) => {
  if (++stuck === 4) process.stdout.write('all workers stuck\\n');
  await mgr.apiReader().get(BuiltinKinds.ConfigMap, req);
});
controller.watch(channelSource(channel), enqueueRequestForObject());
mgr.addController(controller);
const running = mgr.runUntilSignal();
setTimeout(() => { for (const name of ['a', 'b', 'c', 'd']) channel.send({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'ns', name } }); }, 50);
running.then(() => process.exit(0), (err) => { process.stderr.write('manager: ' + err.message + '\\n'); process.exitCode = 1; });
`;
}

test('SIGTERM with four reconciles stuck on a silent server ends the process within the grace period, non-zero', async () => {
  const port = (silentServer.address() as { port: number }).port;
  const kubeconfig = path.join(tmp, 'kubeconfig');
  writeFileSync(kubeconfig, `apiVersion: v1\nkind: Config\nclusters: [{ name: c, cluster: { server: 'https://127.0.0.1:${port}', insecure-skip-tls-verify: true } }]\nusers: [{ name: u, user: { token: t } }]\ncontexts: [{ name: x, context: { cluster: c, user: u } }]\ncurrent-context: x\n`);
  const script = path.join(tmp, 'operator.mjs');
  writeFileSync(script, operatorScript(kubeconfig, 500));
  const child = spawn(process.execPath, [script], { cwd: tmp, env: { ...process.env, KUBEFORGE_LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdoutText = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ code: number | null; at: number }>((resolve) => child.on('exit', (code) => resolve({ code, at: Date.now() })));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => { stdoutText += c.toString(); if (stdoutText.includes('all workers stuck')) resolve(); });
    void exited.then(() => reject(new Error(`operator exited early:\n${stderr}`)));
  });
  const signalled = Date.now();
  child.kill('SIGTERM');
  const bound = new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 10_000).unref());
  const outcome = await Promise.race([exited, bound]);
  if (outcome === 'still running') child.kill('SIGKILL');
  expect(outcome).not.toBe('still running');
  const { code, at } = outcome as { code: number | null; at: number };
  if (code !== 1) console.log('CHILD', stderr, stdoutText);
  expect(code).toBe(1);
  expect(at - signalled).toBeGreaterThanOrEqual(450);
  expect(stderr).toContain('manager: failed waiting for all runnables to end within grace period of 0.5s: context deadline exceeded');
});
