import { afterEach, describe, expect, it } from '@jest/globals';
import { AppsV1Api, KubeConfig } from '@kubernetes/client-node';
import { type ControllerFixture, startFixture } from './testdata/cluster-fixture.js';
import { canonicalJson, fnv32a, revisionHash, safeEncode } from './controller-revisions.js';
import { ordinalOf } from './statefulset-controller.js';

let fx: ControllerFixture;
let apps: AppsV1Api;
afterEach(async () => fx?.stop());

async function start(options: Parameters<typeof startFixture>[0] = {}): Promise<void> {
  fx = await startFixture(options);
  const kc = new KubeConfig();
  kc.loadFromFile(fx.cluster.kubeconfigPath);
  apps = kc.makeApiClient(AppsV1Api);
}

function statefulSet(name: string, spec: Record<string, unknown> = {}, annotations?: Record<string, string>): any {
  return {
    metadata: { name },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name }, ...(annotations ? { annotations } : {}) }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
      ...spec,
    },
  };
}

const podNames = async (app: string): Promise<string[]> =>
  (await fx.core.listNamespacedPod({ namespace: 'default', labelSelector: `app=${app}` })).items.map((p) => p.metadata!.name!).sort();
const readSet = (name: string) => apps.readNamespacedStatefulSet({ namespace: 'default', name });

describe('controller revisions', () => {
  it('hashes as FNV-32a rendered through SafeEncodeString', () => {
    expect(fnv32a('')).toBe(0x811c9dc5);
    expect(fnv32a('a')).toBe(0xe40c292c);
    expect(safeEncode(0)).toBe('4');
    expect(safeEncode(1234)).toBe('5678');
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: 3 }] })).toBe('{"a":[{"c":3,"d":2}],"b":1}');
    expect(revisionHash({ x: 1 })).toBe(revisionHash({ x: 1 }));
    expect(revisionHash({ x: 1 }, 1)).not.toBe(revisionHash({ x: 1 }));
  });

  it('reads ordinals only from <set>-<n> names', () => {
    expect(ordinalOf('web', 'web-12')).toBe(12);
    expect(ordinalOf('web', 'web-x')).toBe(-1);
    expect(ordinalOf('a.b', 'aXb-1')).toBe(-1);
  });
});

describe('statefulset controller', () => {
  it('OrderedReady waits for each pod to be Running and Ready before the next', async () => {
    await start();
    await apps.createNamespacedStatefulSet({ namespace: 'default', body: statefulSet('slow', {}, { 'sim.kubeforge.io/start-delay': '10s' }) });
    await fx.cluster.settle();
    expect(await podNames('slow')).toEqual(['slow-0']);
    expect((await readSet('slow')).status).toMatchObject({ replicas: 1, availableReplicas: 0 });
    await fx.advance(10_000);
    expect(await podNames('slow')).toEqual(['slow-0', 'slow-1']);
    await fx.advance(10_000);
    await fx.advance(10_000);
    expect(await podNames('slow')).toEqual(['slow-0', 'slow-1', 'slow-2']);
    expect((await readSet('slow')).status).toMatchObject({ replicas: 3, readyReplicas: 3, availableReplicas: 3 });
  });

  it('Parallel creates every pod at once', async () => {
    await start();
    await apps.createNamespacedStatefulSet({ namespace: 'default', body: statefulSet('par', { podManagementPolicy: 'Parallel' }, { 'sim.kubeforge.io/start-delay': '10s' }) });
    await fx.cluster.settle();
    expect(await podNames('par')).toEqual(['par-0', 'par-1', 'par-2']);
    expect((await readSet('par')).status?.readyReplicas).toBeUndefined();
  });

  it('OnDelete leaves pods at their revision until they are deleted', async () => {
    await start();
    await apps.createNamespacedStatefulSet({ namespace: 'default', body: statefulSet('od', { replicas: 2, updateStrategy: { type: 'OnDelete' } }) });
    await fx.cluster.settle();
    const set = await readSet('od');
    expect(set.spec?.updateStrategy).toEqual({ type: 'OnDelete' });
    await apps.patchNamespacedStatefulSet({ namespace: 'default', name: 'od', body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.28' }] });
    await fx.cluster.settle();
    const image = async (n: string) => (await fx.core.readNamespacedPod({ namespace: 'default', name: n })).spec!.containers[0]!.image;
    expect([await image('od-0'), await image('od-1')]).toEqual(['nginx:1.27', 'nginx:1.27']);
    const after = await readSet('od');
    expect(after.status).toMatchObject({ currentReplicas: 2, observedGeneration: 2 });
    expect(after.status?.updatedReplicas).toBeUndefined();
    await fx.core.deleteNamespacedPod({ namespace: 'default', name: 'od-1' });
    await fx.cluster.settle();
    expect([await image('od-0'), await image('od-1')]).toEqual(['nginx:1.27', 'nginx:1.28']);
    expect((await readSet('od')).status).toMatchObject({ currentReplicas: 1, updatedReplicas: 1 });
  });

  it('minReadySeconds: pods count as available only after being ready that long', async () => {
    await start();
    await apps.createNamespacedStatefulSet({ namespace: 'default', body: statefulSet('mr', { replicas: 1, minReadySeconds: 30 }) });
    await fx.cluster.settle();
    expect((await readSet('mr')).status).toMatchObject({ readyReplicas: 1, availableReplicas: 0 });
    await fx.advance(30_000);
    expect((await readSet('mr')).status).toMatchObject({ readyReplicas: 1, availableReplicas: 1 });
  });

  it('records SuccessfulCreate events for claims and pods', async () => {
    await start();
    const body = statefulSet('ev', { replicas: 1, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] });
    await apps.createNamespacedStatefulSet({ namespace: 'default', body });
    await fx.cluster.settle();
    const events = (await fx.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=ev' })).items.map((e) => `${e.reason} ${e.message}`);
    expect(events).toEqual(['SuccessfulCreate create Claim data-ev-0 Pod ev-0 in StatefulSet ev success', 'SuccessfulCreate create Pod ev-0 in StatefulSet ev successful']);
  });

  it('spec.ordinals.start numbers the pods from that ordinal', async () => {
    await start();
    await apps.createNamespacedStatefulSet({ namespace: 'default', body: statefulSet('ord', { replicas: 2, ordinals: { start: 5 } }) });
    await fx.cluster.settle();
    expect(await podNames('ord')).toEqual(['ord-5', 'ord-6']);
    const pod = await fx.core.readNamespacedPod({ namespace: 'default', name: 'ord-6' });
    expect(pod.metadata?.labels?.['apps.kubernetes.io/pod-index']).toBe('6');
    await apps.patchNamespacedStatefulSet({ namespace: 'default', name: 'ord', body: [{ op: 'replace', path: '/spec/replicas', value: 1 }] });
    await fx.cluster.settle();
    expect(await podNames('ord')).toEqual(['ord-5']);
  });

  it('is switched off with controllers.statefulSet: false', async () => {
    await start({ controllers: { statefulSet: false } });
    await apps.createNamespacedStatefulSet({ namespace: 'default', body: statefulSet('off') });
    await fx.cluster.settle();
    expect(await podNames('off')).toEqual([]);
    expect((await readSet('off')).status).toEqual({ replicas: 0, availableReplicas: 0 });
  });
});
