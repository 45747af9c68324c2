import { afterEach, describe, expect, it } from '@jest/globals';
import { type ControllerFixture, shell, startFixture } from './testdata/cluster-fixture.js';
import { Kubectl } from './testdata/kubectl.js';

let fx: ControllerFixture;
let cli: Kubectl | undefined;
afterEach(async () => {
  await fx?.stop();
  cli?.dispose();
  cli = undefined;
});

async function jobWithPod(name: string): Promise<string> {
  await fx.batch.createNamespacedJob({ namespace: 'default', body: { metadata: { name }, spec: { template: { spec: { restartPolicy: 'Never', containers: [shell('c', 'sleep 1000')] } } } } });
  await fx.cluster.settle();
  const pods = (await fx.core.listNamespacedPod({ namespace: 'default', labelSelector: `job-name=${name}` })).items;
  expect(pods).toHaveLength(1);
  return pods[0]!.metadata!.name!;
}

async function configMap(name: string, owners: Array<{ name: string; uid: string; block?: boolean }> = []): Promise<string> {
  const created = await fx.core.createNamespacedConfigMap({
    namespace: 'default',
    body: {
      metadata: {
        name,
        ownerReferences: owners.map((o) => ({ apiVersion: 'v1', kind: 'ConfigMap', name: o.name, uid: o.uid, ...(o.block ? { blockOwnerDeletion: true } : {}) })),
      },
    },
  });
  return created.metadata!.uid!;
}

const names = async (): Promise<string[]> => (await fx.core.listNamespacedConfigMap({ namespace: 'default' })).items.map((c) => c.metadata!.name!).filter((n) => n !== 'kube-root-ca.crt');

describe('garbage collector', () => {
  it('background: deleting the owner deletes its dependents, recursively', async () => {
    fx = await startFixture();
    const owner = await configMap('owner');
    const child = await configMap('child', [{ name: 'owner', uid: owner }]);
    await configMap('grandchild', [{ name: 'child', uid: child }]);
    await fx.cluster.settle();
    await fx.core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'default', body: { propagationPolicy: 'Background' } });
    await fx.cluster.settle();
    expect(await names()).toEqual([]);
    const gcWrites = fx.cluster.requestLog().filter((e) => e.user === 'system:serviceaccount:kube-system:generic-garbage-collector');
    expect(gcWrites.map((e) => `${e.verb} ${e.name}`)).toEqual(['delete child', 'delete grandchild']);
  });

  it('a dependent with another live owner only loses the dangling reference', async () => {
    fx = await startFixture();
    const a = await configMap('owner-a');
    const b = await configMap('owner-b');
    await configMap('shared', [{ name: 'owner-a', uid: a }, { name: 'owner-b', uid: b }]);
    await fx.core.deleteNamespacedConfigMap({ name: 'owner-a', namespace: 'default' });
    await fx.cluster.settle();
    const shared = await fx.core.readNamespacedConfigMap({ name: 'shared', namespace: 'default' });
    expect(shared.metadata!.ownerReferences!.map((r) => r.name)).toEqual(['owner-b']);
  });

  it('a dependent whose owner uid does not match the live object is collected (dangling owner)', async () => {
    fx = await startFixture();
    await configMap('owner');
    await configMap('orphaned', [{ name: 'owner', uid: '00000000-0000-4000-8000-000000000000' }]);
    await fx.cluster.settle();
    expect(await names()).toEqual(['owner']);
  });

  it('foreground: the owner waits with foregroundDeletion until blocking dependents are gone', async () => {
    fx = await startFixture({ controllers: { garbageCollector: true } });
    const owner = await configMap('owner');
    await configMap('blocker', [{ name: 'owner', uid: owner, block: true }]);
    // a finalizer on the dependent keeps it (and therefore the owner) around
    await fx.core.patchNamespacedConfigMap({ name: 'blocker', namespace: 'default', body: [{ op: 'add', path: '/metadata/finalizers', value: ['example.com/hold'] }] });
    await fx.core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'default', body: { propagationPolicy: 'Foreground' } });
    await fx.cluster.settle();
    const waiting = await fx.core.readNamespacedConfigMap({ name: 'owner', namespace: 'default' });
    expect(waiting.metadata!.finalizers).toEqual(['foregroundDeletion']);
    expect(waiting.metadata!.deletionTimestamp).toBeDefined();
    const blocker = await fx.core.readNamespacedConfigMap({ name: 'blocker', namespace: 'default' });
    expect(blocker.metadata!.deletionTimestamp).toBeDefined();
    // deleted in foreground itself; having no dependents, its own foregroundDeletion is released at once
    expect(blocker.metadata!.finalizers).toEqual(['example.com/hold']);
    await fx.core.patchNamespacedConfigMap({ name: 'blocker', namespace: 'default', body: [{ op: 'remove', path: '/metadata/finalizers' }] });
    await fx.cluster.settle();
    expect(await names()).toEqual([]);
  });

  it('foreground: dependents without blockOwnerDeletion do not hold the owner', async () => {
    fx = await startFixture();
    const owner = await configMap('owner');
    await configMap('loose', [{ name: 'owner', uid: owner }]);
    await fx.core.patchNamespacedConfigMap({ name: 'loose', namespace: 'default', body: [{ op: 'add', path: '/metadata/finalizers', value: ['example.com/hold'] }] });
    await fx.core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'default', body: { propagationPolicy: 'Foreground' } });
    await fx.cluster.settle();
    expect(await names()).toEqual(['loose']);
  });

  it('orphan: dependents lose the owner reference and stay; the orphan finalizer is removed', async () => {
    fx = await startFixture();
    const owner = await configMap('owner');
    await configMap('kept', [{ name: 'owner', uid: owner, block: true }]);
    await fx.core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'default', body: { propagationPolicy: 'Orphan' } });
    await fx.cluster.settle();
    expect(await names()).toEqual(['kept']);
    const kept = await fx.core.readNamespacedConfigMap({ name: 'kept', namespace: 'default' });
    expect(kept.metadata!.ownerReferences).toBeUndefined();
  });

  it('switched off: dependents stay', async () => {
    fx = await startFixture({ controllers: { garbageCollector: false } });
    const owner = await configMap('owner');
    await configMap('child', [{ name: 'owner', uid: owner }]);
    await fx.core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'default' });
    await fx.cluster.settle();
    expect(await names()).toEqual(['child']);
  });

  it('kubectl delete job --cascade=foreground: the pods go first, then the Job', async () => {
    fx = await startFixture();
    cli = new Kubectl(fx.cluster.kubeconfigPath);
    await jobWithPod('fg');
    expect(await cli.run('delete', 'job', 'fg', '--cascade=foreground', '--wait=false')).toContain('job.batch "fg" deleted');
    await fx.cluster.settle();
    expect((await fx.batch.listNamespacedJob({ namespace: 'default' })).items).toEqual([]);
    expect((await fx.core.listNamespacedPod({ namespace: 'default' })).items).toEqual([]);
  });

  it('kubectl delete job --cascade=orphan keeps the pod, without its owner reference', async () => {
    fx = await startFixture();
    cli = new Kubectl(fx.cluster.kubeconfigPath);
    const pod = await jobWithPod('orph');
    await cli.run('delete', 'job', 'orph', '--cascade=orphan');
    await fx.cluster.settle();
    const kept = await fx.core.readNamespacedPod({ name: pod, namespace: 'default' });
    expect(kept.metadata!.ownerReferences).toBeUndefined();
    expect(kept.status!.phase).toBe('Running');
  });

  it('kubectl delete job (background, the default cascade) removes the pod', async () => {
    fx = await startFixture();
    cli = new Kubectl(fx.cluster.kubeconfigPath);
    await jobWithPod('bg');
    await cli.run('delete', 'job', 'bg');
    await fx.cluster.settle();
    expect((await fx.core.listNamespacedPod({ namespace: 'default' })).items).toEqual([]);
  });
});
