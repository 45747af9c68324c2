import { afterEach, describe, expect, it } from '@jest/globals';
import { namespaceConditions } from './namespace-controller.js';
import { type ControllerFixture, shell, startFixture } from './testdata/cluster-fixture.js';
import { Kubectl } from './testdata/kubectl.js';

let fx: ControllerFixture;
let cli: Kubectl | undefined;
afterEach(async () => {
  await fx?.stop();
  cli?.dispose();
  cli = undefined;
});

async function kubectl(...args: string[]): Promise<string> {
  cli ??= new Kubectl(fx.cluster.kubeconfigPath);
  return cli.run(...args);
}

async function populate(ns: string): Promise<void> {
  await fx.core.createNamespace({ body: { metadata: { name: ns } } });
  await fx.cluster.settle();
  await fx.core.createNamespacedConfigMap({ namespace: ns, body: { metadata: { name: 'settings' }, data: { a: '1' } } });
  await fx.core.createNamespacedPod({ namespace: ns, body: { metadata: { name: 'web' }, spec: { containers: [shell('web', 'sleep infinity')] } } });
  await fx.batch.createNamespacedJob({ namespace: ns, body: { metadata: { name: 'once' }, spec: { template: { spec: { restartPolicy: 'Never', containers: [shell('c', 'sleep 100')] } } } } });
  await fx.cluster.settle();
}

const namespaceNames = async (): Promise<string[]> => (await fx.core.listNamespace()).items.map((n) => n.metadata!.name!);

describe('namespace lifecycle and service accounts', () => {
  it('a new namespace gets the default ServiceAccount and kube-root-ca.crt', async () => {
    fx = await startFixture();
    await fx.core.createNamespace({ body: { metadata: { name: 'team-a' } } });
    await fx.cluster.settle();
    const sa = await fx.core.readNamespacedServiceAccount({ name: 'default', namespace: 'team-a' });
    expect(sa.metadata!.name).toBe('default');
    const ca = await fx.core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'team-a' });
    expect(ca.data!['ca.crt']).toBe(fx.cluster.caCertPem);
    // deleted → recreated
    await fx.core.deleteNamespacedServiceAccount({ name: 'default', namespace: 'team-a' });
    await fx.cluster.settle();
    expect((await fx.core.readNamespacedServiceAccount({ name: 'default', namespace: 'team-a' })).metadata!.uid).not.toBe(sa.metadata!.uid);
    expect(fx.cluster.requestLog().some((e) => e.user === 'system:serviceaccount:kube-system:service-account-controller' && e.verb === 'create')).toBe(true);
  });

  it('kubectl delete namespace finishes: content goes, then the namespace', async () => {
    fx = await startFixture();
    await populate('doomed');
    expect(await kubectl('delete', 'namespace', 'doomed', '--wait=false')).toContain('namespace "doomed" deleted');
    await fx.cluster.settle();
    expect(await namespaceNames()).not.toContain('doomed');
    expect(await kubectl('get', 'namespaces', '-o', 'name')).not.toContain('doomed');
  });

  it('a finalizer that is never removed keeps the namespace Terminating until it is removed', async () => {
    fx = await startFixture();
    await populate('stuck');
    await fx.core.patchNamespacedConfigMap({ name: 'settings', namespace: 'stuck', body: [{ op: 'add', path: '/metadata/finalizers', value: ['example.com/cleanup'] }] });
    await fx.core.deleteNamespace({ name: 'stuck' });
    await fx.advance(3_600_000);
    const ns = await fx.core.readNamespace({ name: 'stuck' });
    expect(ns.status!.phase).toBe('Terminating');
    expect(ns.spec!.finalizers).toEqual(['kubernetes']);
    // the conditions are published while it waits, and writing them does not remove the namespace
    const conditions = Object.fromEntries((ns.status!.conditions ?? []).map((c) => [c.type, c]));
    expect(conditions.NamespaceFinalizersRemaining?.status).toBe('True');
    expect(conditions.NamespaceFinalizersRemaining?.message).toContain('example.com/cleanup');
    expect((await fx.core.listNamespacedPod({ namespace: 'stuck' })).items).toEqual([]);
    await fx.core.patchNamespacedConfigMap({ name: 'settings', namespace: 'stuck', body: [{ op: 'remove', path: '/metadata/finalizers' }] });
    await fx.cluster.settle();
    expect(await namespaceNames()).not.toContain('stuck');
  });

  it('reports remaining content and finalizers in the upstream condition texts', () => {
    const remaining = { resources: new Map([['configmaps', 1], ['widgets.example.com', 2]]), finalizers: new Map([['example.com/cleanup', 3]]) };
    const byType = Object.fromEntries(namespaceConditions(remaining, [], Date.parse('2024-01-15T10:00:00Z')).map((c) => [c.type, `${c.status} ${c.reason}: ${c.message}`]));
    expect(byType).toEqual({
      NamespaceDeletionDiscoveryFailure: 'False ResourcesDiscovered: All resources successfully discovered',
      NamespaceDeletionGroupVersionParsingFailure: 'False ParsedGroupVersions: All legacy kube types successfully parsed',
      NamespaceDeletionContentFailure: 'False ContentDeleted: All content successfully deleted, may be waiting on finalization',
      NamespaceContentRemaining: 'True SomeResourcesRemain: Some resources are remaining: configmaps has 1 resource instances, widgets.example.com has 2 resource instances',
      NamespaceFinalizersRemaining: 'True SomeFinalizersRemain: Some content in the namespace has finalizers remaining: example.com/cleanup in 3 resource instances',
    });
    const cleared = namespaceConditions({ resources: new Map(), finalizers: new Map() }, [], 0).map((c) => `${c.type}=${c.status}/${c.reason}`);
    expect(cleared.slice(3)).toEqual(['NamespaceContentRemaining=False/ContentRemoved', 'NamespaceFinalizersRemaining=False/ContentHasNoFinalizers']);
  });

  it('switched off: the namespace stays Terminating as on envtest', async () => {
    fx = await startFixture({ controllers: { namespace: false } });
    await fx.core.createNamespace({ body: { metadata: { name: 'kept' } } });
    await fx.core.deleteNamespace({ name: 'kept' });
    await fx.advance(60_000);
    expect((await fx.core.readNamespace({ name: 'kept' })).status!.phase).toBe('Terminating');
  });
});
