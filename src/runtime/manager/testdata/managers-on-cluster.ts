/**
 * For tests of several managers on one local cluster: a fresh cluster on its virtual clock before each test
 * (its settle hook waits for the cluster and every manager the test made), and after each test every manager
 * stopped and closed and the cluster stopped. Push the managers you make onto `managers`.
 */
import { startLocalCluster } from '../../../cluster/index.js';
import { settle } from '../../../testing/settle.js';
import type { Manager } from '../manager.js';

export type LocalCluster = Awaited<ReturnType<typeof startLocalCluster>>;

export interface ManagersOnCluster {
  /** This test's cluster (set before each test). */
  readonly cluster: LocalCluster;
  /** The managers this test made; stopped and closed after it. */
  readonly managers: Manager[];
  /** Waits until the cluster and every manager are idle (what the clock's settle hook does). */
  settle(): Promise<void>;
}

export function useManagersOnCluster(now = '2024-01-15T10:00:00Z'): ManagersOnCluster {
  let cluster: LocalCluster | undefined;
  const managers: Manager[] = [];
  const suite: ManagersOnCluster = {
    get cluster() {
      if (!cluster) throw new Error('the cluster starts before each test');
      return cluster;
    },
    managers,
    settle: () => settle({ settleCluster: () => suite.cluster.settle(), managers: () => managers, hasDueTimers: () => suite.cluster.clock.hasDueTimers(), recentActivity: () => [] }),
  };
  beforeEach(async () => {
    managers.length = 0;
    const started = await startLocalCluster({ authz: 'alwaysAllow', now });
    cluster = started;
    started.clock.setSettleHook(() => suite.settle());
  });
  afterEach(async () => {
    for (const m of managers) {
      await m.stop();
      m.close();
    }
    await cluster?.stop();
    cluster = undefined;
  });
  return suite;
}
