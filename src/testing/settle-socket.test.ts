/**
 * settle() waits for data still in a socket between the cluster and the manager: the manager looks idle
 * (nothing queued, no request in flight) while a watch event the server wrote has not been read yet —
 * under load the kernel may hand it over some time after the write. The counts come from both ends of
 * each connection: the cluster's `connectionBytes` and the manager's `transport.connections()`.
 */
import type { Manager } from '../runtime/manager/manager.js';
import type { Request } from '../runtime/client/object.js';
import { BuiltinKinds } from '../runtime/client/kinds.js';
import { settle, type SettleTarget } from './settle.js';
import { startTestEnv, type TestEnv } from './test-env.js';

/** A manager with nothing queued, running or requested: only the bytes in flight keep settle() waiting. */
const idleManager = {
  isIdle: () => true,
  progress: () => 0,
  controllerList: () => [],
  getCache: () => ({ allInformers: () => [] }),
  transport: { pending: () => 0 },
} as unknown as Manager;

test('settle() does not return while bytes are in flight, however idle the manager looks', async () => {
  let inFlight = 1200;
  let settledWith: number | undefined;
  const target: SettleTarget = {
    settleCluster: async () => {},
    managers: () => [idleManager],
    bytesInFlight: () => inFlight,
    hasDueTimers: () => false,
    recentActivity: () => [],
  };
  const delivered = new Promise<void>((resolve) =>
    setTimeout(() => {
      inFlight = 0;
      resolve();
    }, 50),
  );
  await settle(target, { maxIdleWaitMs: 5000 }).then(() => (settledWith = inFlight));
  await delivered;
  expect(settledWith).toBe(0);
});

test('bytes that never arrive fail settle() with the count in its dump', async () => {
  const target: SettleTarget = { settleCluster: async () => {}, managers: () => [idleManager], bytesInFlight: () => 512, hasDueTimers: () => false, recentActivity: () => [] };
  await expect(settle(target, { maxIdleWaitMs: 100 })).rejects.toThrow(/manager did not go idle within 100 ms[\s\S]*bytes in flight between the cluster and the managers: 512/);
});

describe('on a test environment', () => {
  let env: TestEnv;
  const reconciled: string[] = [];

  beforeAll(async () => {
    env = await startTestEnv({ now: '2024-01-15T10:00:00Z', authz: 'alwaysAllow' });
    env.manager
      .controllerFor(BuiltinKinds.ConfigMap)
      .complete(async (req: Request) => {
        if (req.namespace === 'default' && req.name !== 'kube-root-ca.crt') reconciled.push(req.name);
      });
    await env.startManager();
  });

  afterAll(async () => {
    await env?.stop();
  });

  /** Per connection of the manager: its own counts and the cluster's for the same connection. */
  const bothEnds = () => env.manager.transport.connections().map((client) => ({ client, server: env.cluster.connectionBytes(client.localPort) }));

  test('both ends of each connection count the same bytes once settled (TLS plaintext on both sides)', async () => {
    const created = await env.kubectl(['create', 'configmap', 'counted', '-n', 'default']);
    expect(created).toMatchObject({ code: 0 });
    await env.settle();
    expect(reconciled).toEqual(['counted']);
    const ends = bothEnds();
    expect(ends.length).toBeGreaterThan(0);
    for (const { client, server } of ends) {
      expect(server).toEqual({ read: client.written, written: client.read });
      // the list, the watch and its events: more than a handshake's worth each way
      expect(Math.min(client.read, client.written)).toBeGreaterThan(100);
    }
  });
});
