import { afterEach, describe, expect, it } from '@jest/globals';
import { AppsV1Api, KubeConfig } from '@kubernetes/client-node';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject } from '../store/object-store.js';
import { type ControllerFixture, startFixture } from './testdata/cluster-fixture.js';
import { daemonPodNode, daemonPodTolerations, shouldRunOn } from './daemonset-controller.js';

let fx: ControllerFixture;
let apps: AppsV1Api;
afterEach(async () => fx?.stop());

async function start(options: Parameters<typeof startFixture>[0] = {}): Promise<void> {
  fx = await startFixture(options);
  const kc = new KubeConfig();
  kc.loadFromFile(fx.cluster.kubeconfigPath);
  apps = kc.makeApiClient(AppsV1Api);
}

const node = (name: string, labels: Record<string, string> = {}, taints: unknown[] = []): KubeObject =>
  ({ metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } }, spec: { taints } }) as KubeObject;

function daemonSet(name: string, podSpec: Record<string, unknown> = {}, spec: Record<string, unknown> = {}): any {
  return {
    metadata: { name },
    spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }], ...podSpec } }, ...spec },
  };
}

const pods = async (app: string) => (await fx.core.listNamespacedPod({ namespace: 'default', labelSelector: `app=${app}` })).items;

describe('daemon pod placement', () => {
  it('runs where the node selector, required affinity and taints allow', () => {
    expect(shouldRunOn({ spec: {} }, node('a'))).toBe(true);
    expect(shouldRunOn({ spec: { nodeSelector: { disk: 'ssd' } } }, node('a'))).toBe(false);
    expect(shouldRunOn({ spec: { nodeSelector: { disk: 'ssd' } } }, node('a', { disk: 'ssd' }))).toBe(true);
    const gpu = { spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'gpu', operator: 'Exists' }] }] } } } } };
    expect(shouldRunOn(gpu, node('a'))).toBe(false);
    expect(shouldRunOn(gpu, node('a', { gpu: '1' }))).toBe(true);
    const tainted = node('cp', {}, [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
    expect(shouldRunOn({ spec: {} }, tainted)).toBe(false);
    expect(shouldRunOn({ spec: { tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }] } }, tainted)).toBe(true);
    // the controller's own tolerations: an unschedulable (cordoned) node still runs daemon pods
    expect(shouldRunOn({ spec: {} }, node('c', {}, [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' }]))).toBe(true);
    expect(shouldRunOn({ spec: {} }, node('n', {}, [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }]))).toBe(false);
    expect(shouldRunOn({ spec: { hostNetwork: true } }, node('n', {}, [{ key: 'node.kubernetes.io/network-unavailable', effect: 'NoSchedule' }]))).toBe(true);
    expect(daemonPodTolerations(false)).toHaveLength(6);
  });

  it('reads a daemon pod\'s node from nodeName or its matchFields affinity', () => {
    const pinned = { metadata: { name: 'p' }, spec: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['w1'] }] }] } } } } } as KubeObject;
    expect(daemonPodNode(pinned)).toBe('w1');
    expect(daemonPodNode({ ...pinned, spec: { ...asStored<Pod>(pinned).spec, nodeName: 'w2' } } as KubeObject)).toBe('w2');
  });
});

describe('daemonset controller', () => {
  it('a node selector no node matches: nothing desired, nothing created', async () => {
    await start();
    await apps.createNamespacedDaemonSet({ namespace: 'default', body: daemonSet('picky', { nodeSelector: { disk: 'ssd' } }) });
    await fx.cluster.settle();
    expect(await pods('picky')).toEqual([]);
    const ds = await apps.readNamespacedDaemonSet({ namespace: 'default', name: 'picky' });
    expect(ds.status).toMatchObject({ desiredNumberScheduled: 0, currentNumberScheduled: 0, numberReady: 0, numberMisscheduled: 0, observedGeneration: 1 });
  });

  it('labelling the node makes the daemon pod appear (nodes are watched)', async () => {
    await start();
    await apps.createNamespacedDaemonSet({ namespace: 'default', body: daemonSet('late', { nodeSelector: { disk: 'ssd' } }) });
    await fx.cluster.settle();
    const [only] = (await fx.core.listNode()).items;
    await fx.core.patchNode({ name: only!.metadata!.name!, body: [{ op: 'add', path: '/metadata/labels/disk', value: 'ssd' }] });
    await fx.cluster.settle();
    const [pod] = await pods('late');
    expect(pod!.spec!.nodeName).toBe(only!.metadata!.name);
    expect(pod!.metadata!.ownerReferences).toEqual([expect.objectContaining({ kind: 'DaemonSet', name: 'late', controller: true, blockOwnerDeletion: true })]);
  });

  it('maxSurge 1: the new pod starts beside the old one, which goes once the new one is available', async () => {
    await start();
    await apps.createNamespacedDaemonSet({ namespace: 'default', body: daemonSet('surge', { terminationGracePeriodSeconds: 5 }, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } } }) });
    await fx.cluster.settle();
    const [old] = await pods('surge');
    await apps.patchNamespacedDaemonSet({ namespace: 'default', name: 'surge', body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'busybox:1.37' }] });
    await fx.cluster.settle();
    const after = await pods('surge');
    expect(after.map((p) => p.spec!.containers[0]!.image).sort()).toEqual(['busybox:1.37']);
    expect(after[0]!.metadata!.name).not.toBe(old!.metadata!.name);
    const events = (await fx.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=surge' })).items.map((e) => e.reason);
    expect(events).toEqual(['SuccessfulCreate', 'SuccessfulCreate', 'SuccessfulDelete']);
  });

  it('maxUnavailable 0 with maxSurge 0 is refused with the validation message', async () => {
    await start();
    const body = daemonSet('stuck', {}, { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } });
    await expect(apps.createNamespacedDaemonSet({ namespace: 'default', body })).rejects.toMatchObject({
      code: 422,
      body: expect.stringContaining('spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:\\"\\"}: may not be 0 when `maxSurge` is 0'),
    });
  });

  it('is switched off with controllers.daemonSet: false', async () => {
    await start({ controllers: { daemonSet: false } });
    await apps.createNamespacedDaemonSet({ namespace: 'default', body: daemonSet('off') });
    await fx.cluster.settle();
    expect(await pods('off')).toEqual([]);
  });
});
