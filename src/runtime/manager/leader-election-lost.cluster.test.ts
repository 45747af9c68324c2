/**
 * Losing the lease, as client-go and controller-runtime: a leader whose renewals hang (a StallingProxy
 * holds them) stops leading at its renew deadline, not later — it logs "leader election lost", its
 * controllers stop, and by default the process exits 1; a leader that sees another holder steps down at
 * once; releaseOnCancel decides whether a clean stop frees the lease.
 */
import { readFileSync } from 'node:fs';
import { jest } from '@jest/globals';
import { Kubeconfig } from '../client/kubeconfig.js';
import type { Lease } from 'kubernetes-types/coordination/v1.js';
import pino from 'pino';
import { startLocalCluster } from '../../cluster/index.js';
import { settle } from '../../testing/settle.js';
import { StallingProxy } from '../../testing/stalling-proxy.js';
import { Client } from '../client/client.js';
import { BuiltinKinds, defaultKindRegistry } from '../client/kinds.js';
import { Transport } from '../client/transport.js';
import { Manager, type ManagerOptions } from './manager.js';

type Cluster = Awaited<ReturnType<typeof startLocalCluster>>;
let cluster: Cluster;
let proxy: StallingProxy;
let managers: Manager[] = [];
let settled: Manager[] = [];
let logLines: Array<{ level: number; msg: string; reason?: string }> = [];

function manager(identity: string, options: Partial<ManagerOptions> & { viaProxy?: boolean } = {}): Manager {
  const { viaProxy, ...rest } = options;
  const text = readFileSync(cluster.kubeconfigPath, 'utf8');
  const kubeConfig = Kubeconfig.fromString(viaProxy ? text.split(cluster.url).join(proxy.url) : text);
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line)) });
  const m = new Manager({ kubeConfig, clock: cluster.clock, logger, leaderElection: { id: 'lost-test', namespace: 'default', identity }, ...rest });
  managers.push(m);
  settled.push(m);
  return m;
}

beforeEach(async () => {
  managers = [];
  settled = [];
  logLines = [];
  cluster = await startLocalCluster({ authz: 'alwaysAllow', now: '2024-01-15T10:00:00Z' });
  proxy = new StallingProxy({ host: '127.0.0.1', port: Number(new URL(cluster.url).port) });
  await proxy.start(new URL(cluster.url).protocol === 'https:' ? 'https' : 'http');
  cluster.clock.setSettleHook(() => settle({ settleCluster: () => cluster.settle(), managers: () => settled, hasDueTimers: () => cluster.clock.hasDueTimers(), recentActivity: () => [] }));
});

afterEach(async () => {
  proxy.heal();
  for (const m of managers) {
    await m.stop();
    m.close();
  }
  await proxy.stop();
  await cluster.stop();
  jest.restoreAllMocks();
});

/** Read straight from the server (not through the proxy). */
async function lease(): Promise<Lease> {
  const kc = Kubeconfig.fromFile(cluster.kubeconfigPath);
  const transport = new Transport(kc);
  try {
    return await new Client(transport, defaultKindRegistry).get<Lease>(BuiltinKinds.Lease, { namespace: 'default', name: 'lost-test' });
  } finally {
    transport.close();
  }
}

test('a leader whose renewals hang stops at its renew deadline, logs "leader election lost" and exits 1', async () => {
  const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  const m = manager('stalled', { viaProxy: true });
  let reconciles = 0;
  m.controllerFor(BuiltinKinds.ConfigMap).complete(() => void reconciles++);
  await m.start();
  await cluster.clock.advance(0); // settle: the first campaign is on the wire when start() resolves
  await cluster.clock.advance(1_000);
  expect(m.isLeader()).toBe(true);
  const acquiredAt = new Date((await lease()).spec!.renewTime!).getTime();
  expect(reconciles).toBeGreaterThan(0);

  proxy.stall();
  settled = [];
  // Renewals now hang; the deadline counts from the last successful renewal's start.
  const lastRenew = new Date((await lease()).spec!.renewTime!).getTime();
  expect(lastRenew).toBeGreaterThanOrEqual(acquiredAt);
  await cluster.clock.stepTo(lastRenew + 10_000 - 1);
  expect(m.isLeader()).toBe(true);
  expect(exit).not.toHaveBeenCalled();
  await cluster.clock.stepTo(lastRenew + 10_000);
  expect(m.isLeader()).toBe(false);
  expect(exit).toHaveBeenCalledWith(1);
  const lost = logLines.filter((l) => l.msg === 'leader election lost');
  expect(lost).toHaveLength(1);
  expect(lost[0]).toMatchObject({ level: 50 });
  expect(m.controllerList()[0]!.workQueue()?.isShuttingDown()).toBe(true);
  await expect(m.client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'after-loss' } })).rejects.toThrow('leader election lost');
});

test("a leader that sees another holder's valid lease steps down at once ('campaign' keeps it as a standby)", async () => {
  const m = manager('first', { onLeaderElectionLost: 'campaign' });
  await m.start();
  await cluster.clock.advance(0); // settle: the first campaign is on the wire when start() resolves
  await cluster.clock.advance(1_000);
  expect(m.isLeader()).toBe(true);
  const current = await lease();
  const now = new Date(cluster.clock.now()).toISOString().replace('Z', '000Z');
  current.spec = { ...current.spec, holderIdentity: 'intruder', renewTime: now, acquireTime: now, leaseDurationSeconds: 15 };
  await m.apiReader().update(current);
  await cluster.clock.advance(2_000);
  expect(m.isLeader()).toBe(false);
  expect(logLines.filter((l) => l.msg === 'leader election lost').map((l) => l.reason)).toEqual(['lease default/lost-test is held by intruder']);
  // A standby again: it takes the lease back once the intruder stops renewing.
  await cluster.clock.advance(20_000);
  expect(m.isLeader()).toBe(true);
  await expect(m.client.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'writes-again' } })).resolves.toBeDefined();
});

test('releaseOnCancel (default true) frees the lease on a clean stop; false leaves it to expire', async () => {
  const a = manager('keeps', { leaderElection: { id: 'lost-test', namespace: 'default', identity: 'keeps', releaseOnCancel: false } });
  await a.start();
  await cluster.clock.advance(0);
  await cluster.clock.advance(1_000);
  expect(a.isLeader()).toBe(true);
  await a.stop();
  expect((await lease()).spec?.holderIdentity).toBe('keeps');

  const b = manager('releases');
  await b.start();
  await cluster.clock.advance(0);

  await cluster.clock.advance(20_000);
  expect(b.isLeader()).toBe(true);
  await b.stop();
  expect((await lease()).spec?.holderIdentity).toBe('');
});
