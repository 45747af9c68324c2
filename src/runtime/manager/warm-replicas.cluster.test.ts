/**
 * Warm replicas (controller-runtime 0.21's EnableWarmup) on the local cluster's virtual clock: two managers
 * with one leader-election id; the standby, warmed up, has listed and watched its kinds and queued their
 * keys before it leads, so on failover it reconciles without a LIST (a cold standby lists first). A leader
 * that loses its lease exits 1 by default, as controller-runtime's; with onLeaderElectionLost 'campaign' it
 * stays up as a warm standby and, winning the lease again, reconciles from its warm cache without a LIST.
 */
import { jest } from '@jest/globals';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import type { Lease } from 'kubernetes-types/coordination/v1.js';
import pino from 'pino';
import { BuiltinKinds } from '../client/kinds.js';
import { FixedDelayRateLimiter } from '../queue/rate-limiter.js';
import { Manager } from './manager.js';
import { useManagersOnCluster } from './testdata/managers-on-cluster.js';

const suite = useManagersOnCluster();
const KEYS = 5;

interface Failover {
  /** ConfigMap LISTs the cluster answered after the leader stopped (only the standby runs then). */
  listsAfterFailover: number;
  /** Keys in the standby's queue, and its informers, just before it took the lease. */
  queuedBeforeLeading: number | undefined;
  informersBeforeLeading: number;
  /** Virtual ms from the leader's stop to the standby's first reconcile of each key. */
  reconciledAfterMs: number[];
  /** Reconciles a manager ran while not leading (must stay 0: warmup starts no workers). */
  reconciledWhileNotLeading: number;
}

async function failover(enableWarmup: boolean): Promise<Failover> {
  const reconciled = new Map<string, number>();
  let reconciledWhileNotLeading = 0;
  const candidate = (identity: string) => {
    const m = new Manager({
      kubeConfig: suite.cluster.kubeconfigPath,
      clock: suite.cluster.clock,
      logger: pino({ level: 'silent' }),
      rateLimiter: () => new FixedDelayRateLimiter(1000),
      leaderElection: { id: 'warm', namespace: 'default', identity },
      controller: { enableWarmup },
    });
    suite.managers.push(m);
    m.controllerFor(BuiltinKinds.ConfigMap).complete(async (req) => {
      if (req.namespace !== 'default' || !req.name.startsWith('warm-')) return;
      if (!m.isLeader()) {
        reconciledWhileNotLeading++;
        throw new Error(`${identity} reconciled while not leading`);
      }
      if (identity === 'standby' && !reconciled.has(req.name)) reconciled.set(req.name, suite.cluster.clock.now());
    });
    return m;
  };
  const leader = candidate('leader');
  const standby = candidate('standby');
  await leader.start();
  await suite.settle();
  await standby.start();
  for (let i = 0; i < KEYS; i++) await leader.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: `warm-${i}` } });
  await suite.settle();
  expect([leader.isLeader(), standby.isLeader()]).toEqual([true, false]);

  const logBefore = suite.cluster.requestLog().length;
  const stoppedAt = suite.cluster.clock.now();
  await leader.stop();
  const queuedBeforeLeading = standby.controllerList()[0]!.workQueue()?.len();
  const informersBeforeLeading = standby.getCache().allInformers().filter((i) => i.hasSynced()).length;
  await suite.cluster.clock.advance(15_000);
  expect(standby.isLeader()).toBe(true);
  const listsAfterFailover = suite.cluster.requestLog().slice(logBefore).filter((e) => e.verb === 'list' && e.resource === 'configmaps').length;
  return { listsAfterFailover, queuedBeforeLeading, informersBeforeLeading, reconciledAfterMs: [...reconciled.values()].map((at) => at - stoppedAt), reconciledWhileNotLeading };
}

test('a warm standby has synced caches and queued keys before it leads, and reconciles after failover with no LIST', async () => {
  const warm = await failover(true);
  expect(warm.informersBeforeLeading).toBe(1);
  expect(warm.queuedBeforeLeading).toBeGreaterThanOrEqual(KEYS);
  expect(warm.reconciledAfterMs).toHaveLength(KEYS);
  expect(warm.listsAfterFailover).toBe(0);
  expect(warm.reconciledWhileNotLeading).toBe(0);
  // reconciled within the standby's next election retry (2 s), as the cold one is on the virtual clock
  expect(Math.max(...warm.reconciledAfterMs)).toBeLessThanOrEqual(2_000);
});

test('a cold standby (warmup off, the default) starts its caches only on gaining the lease: it LISTs after failover', async () => {
  const cold = await failover(false);
  expect(cold.informersBeforeLeading).toBe(0);
  expect(cold.queuedBeforeLeading).toBeUndefined();
  expect(cold.reconciledAfterMs).toHaveLength(KEYS);
  expect(cold.listsAfterFailover).toBeGreaterThanOrEqual(1);
  expect(cold.reconciledWhileNotLeading).toBe(0);
});

/** Another holder ('intruder') renews the lease now: the leader sees a valid lease not its own and steps down. */
async function intrude(m: Manager, id: string): Promise<void> {
  const lease = await m.apiReader().get<Lease>(BuiltinKinds.Lease, { namespace: 'default', name: id });
  const now = new Date(suite.cluster.clock.now()).toISOString().replace('Z', '000Z');
  lease.spec = { ...lease.spec, holderIdentity: 'intruder', renewTime: now, acquireTime: now, leaseDurationSeconds: 15 };
  await m.apiReader().update(lease);
}

/** A warm leader of the ConfigMaps named warm-*, recording each reconcile and whether it led then. */
async function warmLeader(options: { onLeaderElectionLost?: 'exit' | 'campaign' }): Promise<{ m: Manager; reconciles: Array<{ name: string; leading: boolean }> }> {
  const reconciles: Array<{ name: string; leading: boolean }> = [];
  const m = new Manager({
    kubeConfig: suite.cluster.kubeconfigPath,
    clock: suite.cluster.clock,
    logger: pino({ level: 'silent' }),
    rateLimiter: () => new FixedDelayRateLimiter(1000),
    leaderElection: { id: 'rewarm', namespace: 'default', identity: 'only' },
    controller: { enableWarmup: true },
    ...options,
  });
  suite.managers.push(m);
  m.controllerFor(BuiltinKinds.ConfigMap).complete(async (req) => {
    if (req.namespace === 'default' && req.name.startsWith('warm-')) reconciles.push({ name: req.name, leading: m.isLeader() });
  });
  await m.start();
  for (let i = 0; i < KEYS; i++) await m.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: `warm-${i}` } });
  await suite.cluster.clock.advance(1_000);
  expect(m.isLeader()).toBe(true);
  expect(new Set(reconciles.map((r) => r.name)).size).toBe(KEYS);
  return { m, reconciles };
}

test('by default a warm leader that loses its lease exits 1, as controller-runtime, and does not warm up again', async () => {
  const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  try {
    const { m } = await warmLeader({});
    await intrude(m, 'rewarm');
    await suite.cluster.clock.advance(2_000);
    expect(m.isLeader()).toBe(false);
    expect(exit).toHaveBeenCalledWith(1);
    await suite.settle();
    // its controller stopped and stays stopped: no standby queue
    expect(m.controllerList()[0]!.workQueue()?.isShuttingDown()).toBe(true);
  } finally {
    exit.mockRestore();
  }
});

test("with onLeaderElectionLost 'campaign' a warm leader that loses its lease stays a warm standby: no reconciles, keys queued, and on winning again it reconciles with no new LIST", async () => {
  const { m, reconciles } = await warmLeader({ onLeaderElectionLost: 'campaign' });
  const logBefore = suite.cluster.requestLog().length;
  await intrude(m, 'rewarm');
  await suite.cluster.clock.advance(2_000);
  expect(m.isLeader()).toBe(false);
  reconciles.length = 0;
  // A standby again, warm: its informer stays synced, and a ConfigMap made now is queued, not reconciled.
  await m.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'warm-while-standby' } });
  await suite.settle();
  expect(reconciles).toEqual([]);
  expect(m.getCache().allInformers().filter((i) => i.hasSynced())).toHaveLength(1);
  const queue = m.controllerList()[0]!.workQueue();
  expect(queue?.isShuttingDown()).toBe(false);
  expect(queue?.len()).toBeGreaterThanOrEqual(KEYS + 1);
  // The intruder stops renewing: past its 15 s lease the manager leads again and reconciles every key.
  await suite.cluster.clock.advance(20_000);
  expect(m.isLeader()).toBe(true);
  expect(new Set(reconciles.map((r) => r.name))).toEqual(new Set([...Array.from({ length: KEYS }, (_, i) => `warm-${i}`), 'warm-while-standby']));
  expect(reconciles.filter((r) => !r.leading)).toEqual([]);
  const lists = suite.cluster.requestLog().slice(logBefore).filter((e) => e.verb === 'list' && e.resource === 'configmaps');
  expect(lists).toEqual([]);
});
