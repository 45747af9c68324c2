/**
 * Issue 13's partition measurement: two managers with one leader-election id; the leader reaches the
 * server through a StallingProxy, the standby directly. While the leader's writes are on the wire, its path
 * stalls (every byte held, every connection open); the sources change; the virtual clock moves past the
 * lease; the path heals. Never may both managers act at once (no key reconciled by both at the same
 * moment, no reconcile started while both call themselves leader) and no write of the stalled leader may
 * land after the standby took over (every target matches its source). Run ten times in a row.
 */
import { readFileSync } from 'node:fs';
import { Kubeconfig, type KubeConfigLike } from '../client/kubeconfig.js';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import pino from 'pino';
import { startLocalCluster } from '../../cluster/index.js';
import { settle } from '../../testing/settle.js';
import { StallingProxy } from '../../testing/stalling-proxy.js';
import { BuiltinKinds } from '../client/kinds.js';
import { Manager } from '../manager/manager.js';
import { newPredicate } from '../predicate/predicate.js';

const NS = 'partition';
const KEYS = 20;
const RUNS = Number(process.env.PARTITION_RUNS ?? 10);
const quietLogger = pino({ level: 'silent' });

type Cluster = Awaited<ReturnType<typeof startLocalCluster>>;

/** Waits (real time, bounded) for a condition driven by sockets, not by the clock. */
async function until(what: string, cond: () => boolean, maxMs = 10_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

interface Outcome {
  leaderDuringStall: boolean[];
  overlaps: number;
  bothLeading: number;
  /** Targets whose value differs from their source's. */
  stale: string[];
  /** Targets last written by the deposed leader: the standby rewrote every one, so these landed after. */
  lateWrites: string[];
  writtenByStandby: number;
  leaderAfter: string[];
  proxy: { heldBytesDropped: number; heldBytesDelivered: number };
}

async function partitionRun(): Promise<Outcome> {
  const cluster: Cluster = await startLocalCluster({ authz: 'alwaysAllow', now: '2024-01-15T10:00:00Z' });
  const proxy = new StallingProxy({ host: '127.0.0.1', port: Number(new URL(cluster.url).port) });
  const managers: Manager[] = [];
  try {
    await proxy.start(new URL(cluster.url).protocol === 'https:' ? 'https' : 'http');
    const viaProxy = Kubeconfig.fromString(readFileSync(cluster.kubeconfigPath, 'utf8').split(cluster.url).join(proxy.url));

    let healthy: Manager[] = [];
    cluster.clock.setSettleHook(() =>
      settle({ settleCluster: () => cluster.settle(), managers: () => healthy, hasDueTimers: () => cluster.clock.hasDueTimers(), recentActivity: () => [] }),
    );

    const active = new Map<string, Set<string>>();
    let overlaps = 0;
    let bothLeading = 0;
    let holdWrites: Promise<void> | undefined;
    const candidate = (identity: string, kubeConfig: KubeConfigLike | string): Manager => {
      const m = new Manager({
        kubeConfig,
        clock: cluster.clock,
        logger: quietLogger,
        leaderElection: { id: 'partition-test', namespace: 'default', identity },
        onLeaderElectionLost: 'campaign',
        client: { timeoutOnManagerClock: true },
      });
      managers.push(m);
      m.controllerFor(BuiltinKinds.ConfigMap)
        .withEventFilter(newPredicate((o) => o.metadata?.namespace === NS && (o.metadata?.name ?? '').startsWith('src-')))
        .withOptions({ maxConcurrentReconciles: KEYS })
        .complete(async (req) => {
          const running = active.get(req.name) ?? new Set<string>();
          active.set(req.name, running);
          if (running.size > 0) overlaps++;
          if (managers.every((x) => x.isLeader())) bothLeading++;
          running.add(identity);
          try {
            const src = await m.client.get<ConfigMap>(BuiltinKinds.ConfigMap, req);
            if (holdWrites) await holdWrites;
            await m.client.apply<ConfigMap>(
              { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS, name: req.name.replace('src-', 'dst-') }, data: { v: src.data?.v ?? '', by: identity } },
              { fieldManager: 'partition-test', force: true },
            );
          } finally {
            running.delete(identity);
          }
        });
      return m;
    };

    const leader = candidate('stalled', viaProxy);
    const standby = candidate('standby', cluster.kubeconfigPath);
    const admin = standby.apiReader();
    const setSources = (v: string) =>
      Promise.all(Array.from({ length: KEYS }, (_, i) => admin.apply<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS, name: `src-${i}` }, data: { v } }, { fieldManager: 'test', force: true })));

    await admin.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    await setSources('1');
    healthy = [leader, standby];
    await leader.start();
    await cluster.settle();
    await cluster.clock.advance(0);
    await standby.start();
    await cluster.clock.advance(0); // settle: its first campaign is on the wire when start() resolves
    await cluster.clock.advance(4_000);
    expect([leader.isLeader(), standby.isLeader()]).toEqual([true, false]);

    // The leader's reconciles of the new values reach the write, then its path stalls under them.
    let release = (): void => {};
    holdWrites = new Promise<void>((r) => (release = r));
    await setSources('2');
    await until('the leader to hold every key at its write', () => [...active.values()].filter((s) => s.has('stalled')).length === KEYS);
    healthy = [standby];
    proxy.stall();
    holdWrites = undefined;
    release();
    await until('the stalled leader to send its writes', () => proxy.heldBytes() > 0);

    // The world moves on while the leader is cut off; the lease runs out on the virtual clock.
    await setSources('3');
    await cluster.clock.advance(30_000);
    const leaderDuringStall = [leader.isLeader(), standby.isLeader()];

    // The path heals: whatever the stalled leader still had on the wire is delivered now.
    proxy.heal();
    await until('the healed leader to drain its requests', () => leader.transport.pending() === 0 && proxy.heldBytes() === 0, 20_000);
    healthy = [leader, standby];
    await cluster.clock.advance(4_000);

    const stale: string[] = [];
    const lateWrites: string[] = [];
    let writtenByStandby = 0;
    for (let i = 0; i < KEYS; i++) {
      const src = await admin.get<ConfigMap>(BuiltinKinds.ConfigMap, { namespace: NS, name: `src-${i}` });
      const dst = await admin.get<ConfigMap>(BuiltinKinds.ConfigMap, { namespace: NS, name: `dst-${i}` });
      if (dst.data?.v !== src.data?.v) stale.push(`dst-${i}: ${dst.data?.v} by ${dst.data?.by}, source ${src.data?.v}`);
      if (dst.data?.by === 'standby') writtenByStandby++;
      else lateWrites.push(`dst-${i}: ${dst.data?.v} by ${dst.data?.by}`);
    }
    return { leaderDuringStall, overlaps, bothLeading, stale, lateWrites, writtenByStandby, leaderAfter: managers.filter((m) => m.isLeader()).map((m) => (m === leader ? 'stalled' : 'standby')), proxy: { heldBytesDropped: proxy.bytesDropped(), heldBytesDelivered: proxy.heldBytesDelivered() } };
  } finally {
    proxy.heal();
    for (const m of managers) {
      await m.stop();
      m.close();
    }
    await proxy.stop();
    await cluster.stop();
  }
}

describe('a leader whose network stalls', () => {
  test.each(Array.from({ length: RUNS }, (_, i) => i + 1))('steps down before the standby acts; none of its writes lands late (run %i)', async () => {
    const outcome = await partitionRun();
    if (process.env.PARTITION_REPORT) console.log(JSON.stringify(outcome));
    expect(outcome.leaderDuringStall).toEqual([false, true]);
    expect(outcome.stale).toEqual([]);
    expect(outcome.lateWrites).toEqual([]);
    expect(outcome.overlaps).toBe(0);
    expect(outcome.bothLeading).toBe(0);
    expect(outcome.writtenByStandby).toBe(KEYS);
    expect(outcome.leaderAfter).toEqual(['standby']);
  }, 60_000);
});
