/** Leader election on a Lease in the local cluster, on its virtual clock: two candidates, hand-over, expiry. */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import type { Lease } from 'kubernetes-types/coordination/v1.js';
import pino from 'pino';
import { BuiltinKinds } from '../client/kinds.js';
import { FixedDelayRateLimiter } from '../queue/rate-limiter.js';
import { LeaderElector, type LeaderElectionOptions } from './leader-election.js';
import { Manager } from './manager.js';
import { useManagersOnCluster } from './testdata/managers-on-cluster.js';

const suite = useManagersOnCluster();

const quietLogger = pino({ level: 'silent' });

function manager(leaderElection?: LeaderElectionOptions): Manager {
  const m = new Manager({ kubeConfig: suite.cluster.kubeconfigPath, clock: suite.cluster.clock, logger: quietLogger, rateLimiter: () => new FixedDelayRateLimiter(1000), ...(leaderElection ? { leaderElection } : {}) });
  suite.managers.push(m);
  return m;
}



describe('LeaderElector', () => {
  test('a crashed leader (lease not released) is replaced only after the lease duration', async () => {
    const io = manager();
    const events: string[] = [];
    const elector = (identity: string) =>
      new LeaderElector(io.apiReader(), suite.cluster.clock, { id: 'crash-test', namespace: 'default', identity }, { onStartedLeading: () => events.push(`${identity} leads`), onStoppedLeading: () => events.push(`${identity} stops`) });
    const a = elector('a');
    const b = elector('b');
    a.start();
    await suite.settle();
    b.start();
    await suite.settle();
    expect(events).toEqual(['a leads']);
    await suite.cluster.clock.advance(6_000);
    expect(b.isLeader()).toBe(false);
    const crashedAt = suite.cluster.clock.now();
    await a.stop({ release: false });
    // b last saw the lease change at most one retry period (2 s) before the crash; the lease lasts 15 s.
    await suite.cluster.clock.stepTo(crashedAt + 12_000);
    expect(b.isLeader()).toBe(false);
    await suite.cluster.clock.stepTo(crashedAt + 18_000);
    expect(b.isLeader()).toBe(true);
    const lease = await io.apiReader().get<Lease>(BuiltinKinds.Lease, { namespace: 'default', name: 'crash-test' });
    expect(lease.spec).toMatchObject({ holderIdentity: 'b', leaseDurationSeconds: 15, leaseTransitions: 1 });
    await b.stop();
    const released = await io.apiReader().get<Lease>(BuiltinKinds.Lease, { namespace: 'default', name: 'crash-test' });
    expect(released.spec?.holderIdentity).toBe('');
  });
});

describe('two managers with leader election', () => {
  test('only the leader reconciles; after a graceful stop the other takes over within the lease duration', async () => {
    const handled: Array<{ manager: string; name: string; at: number }> = [];
    const candidate = (id: string) => {
      const m = manager({ id: 'two-managers', namespace: 'default', identity: id });
      m.controllerFor(BuiltinKinds.ConfigMap).complete(async (req) => {
        if (req.namespace !== 'default' || !req.name.startsWith('le-')) return;
        if (!m.isLeader()) throw new Error(`${id} reconciled while not leading`);
        handled.push({ manager: id, name: req.name, at: suite.cluster.clock.now() });
      });
      return m;
    };
    const m1 = candidate('m1');
    const m2 = candidate('m2');
    await m1.start();
    await suite.settle();
    await m2.start();
    await suite.settle();
    expect([m1.isLeader(), m2.isLeader()]).toEqual([true, false]);

    await m1.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'le-1' } });
    await suite.settle();
    await suite.cluster.clock.advance(4_000);
    expect(handled.map((h) => `${h.manager}:${h.name}`)).toEqual(['m1:le-1']);

    const stoppedAt = suite.cluster.clock.now();
    await m1.stop();
    await m2.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'le-2' } });
    await suite.cluster.clock.advance(15_000);
    expect(m2.isLeader()).toBe(true);
    const byM2 = handled.filter((h) => h.manager === 'm2');
    expect(byM2.map((h) => h.name).sort()).toEqual(['le-1', 'le-2']);
    expect(Math.min(...byM2.map((h) => h.at)) - stoppedAt).toBeLessThanOrEqual(15_000);
    expect(handled.filter((h) => h.manager === 'm1').every((h) => h.at <= stoppedAt)).toBe(true);
    const text = await m2.metrics.registry.metrics();
    expect(text).toContain('leader_election_master_status{name="two-managers"} 1');
    // as client-go's LeaseLock: each new leader tells it in a Normal LeaderElection Event on the Lease
    await suite.settle();
    const events = (await m2.client.list(BuiltinKinds.Event, { namespace: 'default' })).filter((e) => e.reason === 'LeaderElection');
    expect(events.map((e) => ({ object: `${e.involvedObject.kind}/${e.involvedObject.name}`, type: e.type, message: e.message, source: e.source?.component }))).toEqual([
      { object: 'Lease/two-managers', type: 'Normal', message: 'm1 became leader', source: 'm1' },
      { object: 'Lease/two-managers', type: 'Normal', message: 'm2 became leader', source: 'm2' },
    ]);
  });
});
