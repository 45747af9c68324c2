import { afterEach, describe, expect, it } from '@jest/globals';
import { type ControllerFixture, shell, startFixture } from './testdata/cluster-fixture.js';

let fx: ControllerFixture;
afterEach(async () => fx?.stop());

describe('ttl-after-finished controller', () => {
  it('deletes a finished Job and its pods ttlSecondsAfterFinished after completion (Foreground)', async () => {
    fx = await startFixture();
    await fx.batch.createNamespacedJob({
      namespace: 'default',
      body: { metadata: { name: 'short-lived' }, spec: { ttlSecondsAfterFinished: 60, template: { spec: { restartPolicy: 'Never', containers: [shell('c', 'sleep 2')] } } } },
    });
    await fx.cluster.settle();
    await fx.advance(2000); // completes at 10:00:02
    await fx.advance(59_000);
    expect((await fx.batch.listNamespacedJob({ namespace: 'default' })).items.map((j) => j.metadata!.name)).toEqual(['short-lived']);
    await fx.advance(1000);
    expect((await fx.batch.listNamespacedJob({ namespace: 'default' })).items).toEqual([]);
    expect((await fx.core.listNamespacedPod({ namespace: 'default' })).items).toEqual([]);
    const ttlDelete = fx.cluster.requestLog().find((e) => e.user === 'system:serviceaccount:kube-system:ttl-after-finished-controller');
    expect(ttlDelete).toMatchObject({ verb: 'delete', resource: 'jobs', name: 'short-lived', code: 200 });
  });

  it('switched off: the finished Job stays', async () => {
    fx = await startFixture({ controllers: { ttl: false } });
    await fx.batch.createNamespacedJob({
      namespace: 'default',
      body: { metadata: { name: 'kept' }, spec: { ttlSecondsAfterFinished: 0, template: { spec: { restartPolicy: 'Never', containers: [shell('c', 'true')] } } } },
    });
    await fx.advance(10_000);
    expect((await fx.batch.listNamespacedJob({ namespace: 'default' })).items.map((j) => j.metadata!.name)).toEqual(['kept']);
  });
});
