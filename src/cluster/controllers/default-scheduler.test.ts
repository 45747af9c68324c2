import { afterEach, describe, expect, it } from '@jest/globals';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { addSchedulerPlugin } from './install.js';
import { fitErrorMessage } from './default-scheduler.js';
import { type ControllerFixture, startFixture } from './testdata/cluster-fixture.js';

let fx: ControllerFixture;
afterEach(async () => fx?.stop());

const container = (extra: Record<string, unknown> = {}) => ({ name: 'app', image: 'nginx:1.27', ...extra });
const readPod = (name: string) => fx.core.readNamespacedPod({ name, namespace: 'default' });
const scheduledCondition = async (name: string) => (await readPod(name)).status!.conditions!.find((c) => c.type === 'PodScheduled')!;

describe('default scheduler', () => {
  it('FitError texts: no nodes, a failing pre-filter, reasons counted and sorted with what preemption could do', () => {
    expect(fitErrorMessage(0, [])).toBe('no nodes available to schedule pods');
    expect(fitErrorMessage(2, [], { code: 'UnschedulableAndUnresolvable', reasons: ['pod has unbound immediate PersistentVolumeClaims'] })).toBe(
      '0/2 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
    expect(
      fitErrorMessage(3, [
        { code: 'Unschedulable', reasons: ['Insufficient cpu', 'Insufficient memory'] },
        { code: 'Unschedulable', reasons: ['Insufficient cpu'] },
        { code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match Pod's node affinity/selector"] },
      ]),
    ).toBe(
      "0/3 nodes are available: 1 Insufficient memory, 1 node(s) didn't match Pod's node affinity/selector, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.",
    );
  });

  it('preferred node affinity picks the preferred worker; required pod affinity with no match waits', async () => {
    fx = await startFixture({ nodes: 3 });
    const preferred = { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 50, preference: { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['kubeforge-worker2'] }] } }] } };
    for (const name of ['p1', 'p2', 'p3']) await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name }, spec: { affinity: preferred, containers: [container()] } } });
    await fx.cluster.settle();
    expect(await Promise.all(['p1', 'p2', 'p3'].map(async (n) => (await readPod(n)).spec!.nodeName))).toEqual(['kubeforge-worker2', 'kubeforge-worker2', 'kubeforge-worker2']);
    const needsDb = { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'db' } }, topologyKey: 'kubernetes.io/hostname' }] } };
    await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'web', labels: { app: 'web' } }, spec: { affinity: needsDb, containers: [container()] } } });
    await fx.cluster.settle();
    expect((await scheduledCondition('web')).message).toBe(
      "0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) didn't match pod affinity rules. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.",
    );
    // the db arrives: the waiting pod is retried and joins it
    await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'db', labels: { app: 'db' } }, spec: { nodeName: 'kubeforge-worker', containers: [container()] } } });
    await fx.cluster.settle();
    expect((await readPod('web')).spec!.nodeName).toBe('kubeforge-worker');
  });

  it('host ports conflict; scheduling gates hold a pod until removed', async () => {
    fx = await startFixture();
    const port = { ports: [{ containerPort: 80, hostPort: 8080 }] };
    await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'first' }, spec: { containers: [container(port)] } } });
    await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'second' }, spec: { containers: [container(port)] } } });
    await fx.cluster.settle();
    expect((await readPod('first')).spec!.nodeName).toBe('kubeforge-control-plane');
    expect((await scheduledCondition('second')).message).toBe(
      "0/1 nodes are available: 1 node(s) didn't have free ports for the requested pod ports. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
    );
    await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'gated' }, spec: { schedulingGates: [{ name: 'example.com/wait' }], containers: [container()] } } });
    await fx.cluster.settle();
    expect(await scheduledCondition('gated')).toMatchObject({ status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' });
    await fx.core.patchNamespacedPod(
      { name: 'gated', namespace: 'default', body: [{ op: 'remove', path: '/spec/schedulingGates' }] },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    );
    await fx.cluster.settle();
    expect((await readPod('gated')).spec!.nodeName).toBe('kubeforge-control-plane');
  });

  it('a plugin added later filters nodes and runs before binding', async () => {
    fx = await startFixture({ nodes: 2 });
    const bound: string[] = [];
    addSchedulerPlugin(fx.cluster.internals, {
      name: 'OnlyLabelled',
      filter: (pod, { node }) => (pod.metadata.labels?.picky && node.metadata.name !== 'kubeforge-control-plane' ? { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) were not picked'] } : undefined),
      preBind: (pod, node) => void bound.push(`${pod.metadata.name}@${node}`),
    });
    await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'picky', labels: { picky: 'yes' } }, spec: { containers: [container()] } } });
    await fx.cluster.settle();
    expect((await scheduledCondition('picky')).message).toBe(
      '0/2 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) were not picked. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
    await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'easy' }, spec: { containers: [container()] } } });
    await fx.cluster.settle();
    expect(bound).toEqual(['easy@kubeforge-worker']);
  });

  it('switched off: pods wait unbound; a pod naming its node still runs there', async () => {
    fx = await startFixture({ controllers: { scheduler: false } });
    await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'floating' }, spec: { containers: [container()] } } });
    await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'placed' }, spec: { nodeName: 'kubeforge-control-plane', containers: [container()] } } });
    await fx.cluster.settle();
    expect((await readPod('floating')).spec!.nodeName).toBeUndefined();
    expect((await readPod('floating')).status!.conditions).toBeUndefined();
    expect((await readPod('placed')).status!.phase).toBe('Running');
    expect(() => addSchedulerPlugin(fx.cluster.internals, { name: 'x' })).toThrow(/without the default scheduler/);
  });
});
