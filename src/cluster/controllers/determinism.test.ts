import { afterEach, describe, expect, it } from '@jest/globals';
import { type ControllerFixture, shell, startFixture } from './testdata/cluster-fixture.js';

let fx: ControllerFixture | undefined;
afterEach(async () => fx?.stop());

/** One scenario touching every built-in controller; returns a dump of what the cluster holds afterwards. */
async function scenario(seed: number): Promise<string> {
  fx = await startFixture({ seed });
  await fx.core.createNamespace({ body: { metadata: { name: 'work' } } });
  await fx.batch.createNamespacedCronJob({
    namespace: 'work',
    body: { metadata: { name: 'tick' }, spec: { schedule: '*/1 * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [shell('c', 'sleep 20')] } } } } } },
  });
  await fx.batch.createNamespacedJob({
    namespace: 'work',
    body: { metadata: { name: 'flaky' }, spec: { backoffLimit: 2, ttlSecondsAfterFinished: 3600, template: { spec: { restartPolicy: 'Never', containers: [shell('c', 'sleep 3; exit 1')] } } } },
  });
  await fx.core.createNamespacedPod({ namespace: 'work', body: { metadata: { name: 'server' }, spec: { containers: [shell('c', 'sleep infinity')] } } });
  await fx.cluster.clock.stepTo('2024-01-15T10:03:30Z');
  await fx.core.deleteNamespacedPod({ name: 'server', namespace: 'work' });
  await fx.cluster.settle();
  const dump = {
    namespaces: (await fx.core.listNamespace()).items,
    pods: (await fx.core.listNamespacedPod({ namespace: 'work' })).items,
    jobs: (await fx.batch.listNamespacedJob({ namespace: 'work' })).items,
    cronjobs: (await fx.batch.listNamespacedCronJob({ namespace: 'work' })).items,
    events: (await fx.core.listNamespacedEvent({ namespace: 'work' })).items,
    serviceAccounts: (await fx.core.listNamespacedServiceAccount({ namespace: 'work' })).items,
  };
  const text = JSON.stringify(dump);
  await fx.stop();
  fx = undefined;
  return text;
}

describe('determinism', () => {
  it('the same seed twice gives identical object dumps (names, uids, resourceVersions, events)', async () => {
    const first = await scenario(7);
    const second = await scenario(7);
    expect(first.length).toBeGreaterThan(10_000);
    expect(second).toBe(first);
    expect(first).toContain('tick-28421883');
    expect(first).toContain('BackoffLimitExceeded');
    const other = await scenario(8);
    expect(other).not.toBe(first);
  });
});
