/**
 * A server of the manager that cannot listen — a real port held by another listener, for the probes, the
 * metrics and the webhooks — makes start() reject with a BindError naming the server, the address as
 * configured and the port, and leaves nothing listening. EACCES (a low port without privileges) cannot be
 * provoked when the tests run as root, so its wording is checked on the errno error Node raises.
 */
import { Kubeconfig } from '../client/kubeconfig.js';
import net from 'node:net';
import pino from 'pino';
import { ManualClock } from '../../testing/manual-clock.js';
import { KindRegistry } from '../client/kinds.js';
import { BindError, bindFailure } from './bind-address.js';
import { Manager, type ManagerOptions } from './manager.js';

function offlineManager(options: Partial<ManagerOptions>): Manager {
  const kubeConfig = new Kubeconfig([{ name: 'c', server: 'https://127.0.0.1:1' }], [{ name: 'u' }], [{ name: 'x', cluster: 'c', user: 'u' }], 'x');
  return new Manager({ kubeConfig, clock: new ManualClock(0), logger: pino({ level: 'silent' }), ...options });
}

/** A listener on every interface holding a free port, as another process would. */
async function occupy(): Promise<{ port: number; close(): Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Whether something accepts connections on 127.0.0.1:port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

let held: { port: number; close(): Promise<void> };
beforeEach(async () => (held = await occupy()));
afterEach(async () => held.close());

async function startFailure(mgr: Manager): Promise<BindError> {
  try {
    await mgr.start();
  } catch (err) {
    return err as BindError;
  } finally {
    mgr.close();
  }
  throw new Error('start() succeeded on an occupied port');
}

test('health probes on a taken port: a BindError naming the server and the port', async () => {
  const err = await startFailure(offlineManager({ probeBindAddress: `:${held.port}` }));
  expect(err).toBeInstanceOf(BindError);
  expect(err).toMatchObject({ server: 'health probe', address: `:${held.port}`, port: held.port, code: 'EADDRINUSE', reason: `port ${held.port} is already in use` });
  expect(err.message).toBe(`health probe server: port ${held.port} is already in use`);
});

test('metrics on a taken port (after the probes started): a BindError, and the probes no longer listen', async () => {
  const mgr = offlineManager({ probeBindAddress: '127.0.0.1:0', metrics: { bindAddress: `:${held.port}`, secureServing: true, filter: 'none' } });
  const err = await startFailure(mgr);
  expect(err).toMatchObject({ server: 'metrics', address: `:${held.port}`, port: held.port, code: 'EADDRINUSE' });
  expect(mgr.probePort).toBeGreaterThan(0);
  expect(await accepts(mgr.probePort!)).toBe(false);
});

test('webhooks on a taken port: a BindError with the port', async () => {
  const mgr = offlineManager({ webhook: { host: '', port: held.port } });
  mgr.webhookServer.registerValidator(new KindRegistry().register({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true }), {});
  const err = await startFailure(mgr);
  expect(err).toMatchObject({ server: 'webhook', address: String(held.port), port: held.port, code: 'EADDRINUSE', reason: `port ${held.port} is already in use` });
});

test('EACCES and EADDRNOTAVAIL in words; other errors pass through unchanged', () => {
  const errno = (code: string): NodeJS.ErrnoException => Object.assign(new Error(`listen ${code}`), { code });
  expect(bindFailure('health probe', ':80', errno('EACCES'))).toMatchObject({ port: 80, reason: 'permission denied to listen on port 80 (ports below 1024 need privileges)' });
  expect(bindFailure('metrics', '10.255.255.1:8443', errno('EADDRNOTAVAIL'))).toMatchObject({ port: 8443, reason: 'the host of "10.255.255.1:8443" is not an address of this machine' });
  const other = new Error('certificate expired');
  expect(bindFailure('webhook', 9443, other)).toBe(other);
});
