import { afterEach, describe, expect, it } from '@jest/globals';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { scriptPods } from './install.js';
import { type ControllerFixture, shell, startFixture } from './testdata/cluster-fixture.js';

let fx: ControllerFixture;
afterEach(async () => fx?.stop());

const readPod = (name: string) => fx.core.readNamespacedPod({ name, namespace: 'default' });

describe('kubelet simulator', () => {
  it('binds, starts and runs a pod with kubelet-shaped status; the node exists', async () => {
    fx = await startFixture();
    const node = await fx.core.readNode({ name: 'kubeforge-control-plane' });
    expect(node.status!.nodeInfo!.kubeletVersion).toMatch(/^v1\.32\./);
    await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'web', annotations: { 'sim.kubeforge.io/start-delay': '3s' } }, spec: { containers: [shell('web', 'sleep infinity')] } } });
    await fx.cluster.settle();
    let pod = await readPod('web');
    expect(pod.spec!.nodeName).toBe('kubeforge-control-plane');
    expect(pod.status!.phase).toBe('Pending');
    expect(pod.status!.containerStatuses![0]!.state!.waiting!.reason).toBe('ContainerCreating');
    expect(pod.status!.hostIP).toBe('172.18.0.2');
    await fx.advance(3000);
    pod = await readPod('web');
    expect(pod.status!.phase).toBe('Running');
    expect(pod.status!.podIP).toBe('10.244.0.2');
    expect(pod.status!.conditions!.map((c) => `${c.type}=${c.status}`)).toEqual([
      'PodReadyToStartContainers=True', 'Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True',
    ]);
    expect(pod.status!.containerStatuses![0]).toMatchObject({ name: 'web', ready: true, started: true, restartCount: 0, image: 'docker.io/library/busybox:1.36' });
    const events = (await fx.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=web' })).items;
    expect(events.map((e) => `${e.reportingComponent} ${e.reason} ${e.message}`)).toEqual([
      'default-scheduler Scheduled Successfully assigned default/web to kubeforge-control-plane',
      'kubelet Pulling Pulling image "busybox:1.36"',
      'kubelet Pulled Successfully pulled image "busybox:1.36" in 3s (3s including waiting). Image size: 2155 bytes.',
      'kubelet Created Created container: web',
      'kubelet Started Started container web',
    ]);
    expect(events[0]).toMatchObject({ action: 'Binding', reportingInstance: 'default-scheduler-kubeforge-control-plane' });
    expect(events[0]!.eventTime).toMatch(/^2024-01-15T10:00:00\.\d{6}Z$/);
    expect(events[1]).toMatchObject({ source: { component: 'kubelet', host: 'kubeforge-control-plane' }, involvedObject: { fieldPath: 'spec.containers{web}' } });
  });

  it('restartPolicy OnFailure restarts a failing container with CrashLoopBackOff back-off', async () => {
    fx = await startFixture();
    await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'crash' }, spec: { restartPolicy: 'OnFailure', containers: [shell('c', 'sleep 2; exit 1')] } } });
    await fx.cluster.settle();
    await fx.advance(2000);
    let cs = (await readPod('crash')).status!.containerStatuses![0]!;
    expect(cs.restartCount).toBe(1);
    expect(cs.state!.waiting!.reason).toBe('CrashLoopBackOff');
    expect(cs.lastState!.terminated).toMatchObject({ exitCode: 1, reason: 'Error' });
    await fx.advance(10_000);
    cs = (await readPod('crash')).status!.containerStatuses![0]!;
    expect(cs.state!.running).toBeDefined();
    expect((await readPod('crash')).status!.phase).toBe('Running');
  });

  it('at its next status sync after a cordon or uncordon, the kubelet records NodeNotSchedulable / NodeSchedulable about its node', async () => {
    fx = await startFixture({ nodes: 2 });
    const nodeEvents = async (): Promise<string[]> =>
      (await fx.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.kind=Node' })).items.map((e) => `${e.source!.host} ${e.type} ${e.reason} ${e.message}`);
    const cordon = (unschedulable: boolean) => fx.core.patchNode({ name: 'kubeforge-worker', body: { spec: { unschedulable } } }, setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch));
    await cordon(true);
    await fx.cluster.settle();
    // nothing before the kubelet's 10 s status sync comes round
    expect(await nodeEvents()).toEqual([]);
    await fx.advance(10_000);
    expect(await nodeEvents()).toEqual(['kubeforge-worker Normal NodeNotSchedulable Node kubeforge-worker status is now: NodeNotSchedulable']);
    const [event] = (await fx.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'reason=NodeNotSchedulable' })).items;
    expect(event!.involvedObject).toEqual({ kind: 'Node', name: 'kubeforge-worker', uid: 'kubeforge-worker' });
    expect(event).toMatchObject({ source: { component: 'kubelet', host: 'kubeforge-worker' }, reportingComponent: 'kubelet', reportingInstance: 'kubeforge-worker', count: 1 });
    // later syncs of an unchanged node record nothing more
    await fx.advance(30_000);
    expect(await nodeEvents()).toHaveLength(1);
    await cordon(false);
    await fx.advance(10_000);
    expect((await nodeEvents()).slice(1)).toEqual(['kubeforge-worker Normal NodeSchedulable Node kubeforge-worker status is now: NodeSchedulable']);
  });

  it('graceful deletion: the pod is stopped (143) and removed', async () => {
    fx = await startFixture();
    await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'stopme' }, spec: { containers: [shell('c', 'sleep infinity')] } } });
    await fx.cluster.settle();
    await fx.core.deleteNamespacedPod({ name: 'stopme', namespace: 'default' });
    await fx.cluster.settle();
    expect((await fx.core.listNamespacedPod({ namespace: 'default' })).items).toEqual([]);
  });

  it('outcome=unschedulable leaves the pod Pending with PodScheduled=False', async () => {
    fx = await startFixture();
    await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'nowhere', annotations: { 'sim.kubeforge.io/outcome': 'unschedulable' } }, spec: { containers: [shell('c', 'true')] } } });
    await fx.cluster.settle();
    const pod = await readPod('nowhere');
    expect(pod.spec!.nodeName).toBeUndefined();
    expect(pod.status!.conditions).toEqual([expect.objectContaining({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' })]);
  });

  it('scriptPods overrides the behaviour of matching pods without annotations', async () => {
    fx = await startFixture();
    const undo = scriptPods(fx.cluster.internals, { labels: { app: 'scripted' } }, { runDurationMs: 4000, exitCode: 9 });
    await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'scripted', labels: { app: 'scripted' } }, spec: { restartPolicy: 'Never', containers: [shell('c', 'sleep infinity')] } } });
    await fx.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'plain' }, spec: { restartPolicy: 'Never', containers: [shell('c', 'sleep infinity')] } } });
    await fx.cluster.settle();
    await fx.advance(4000);
    expect((await readPod('scripted')).status!.containerStatuses![0]!.state!.terminated).toMatchObject({ exitCode: 9, reason: 'Error' });
    expect((await readPod('scripted')).status!.phase).toBe('Failed');
    expect((await readPod('plain')).status!.phase).toBe('Running');
    undo();
    expect(() => scriptPods({} as any, {}, {})).toThrow(/without the kubelet simulator/);
  });
});
