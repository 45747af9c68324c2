import { afterEach, describe, expect, it } from '@jest/globals';
import { AppsV1Api, KubeConfig } from '@kubernetes/client-node';
import { type ControllerFixture, startFixture } from './testdata/cluster-fixture.js';

let fx: ControllerFixture;
let apps: AppsV1Api;
afterEach(async () => fx?.stop());

async function start(): Promise<void> {
  fx = await startFixture();
  const kc = new KubeConfig();
  kc.loadFromFile(fx.cluster.kubeconfigPath);
  apps = kc.makeApiClient(AppsV1Api);
}

const nginx = (replicas: number, image = 'nginx:1.14.2'): any => ({
  metadata: { name: 'nginx-deployment', labels: { app: 'nginx' } },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'nginx' } },
    template: { metadata: { labels: { app: 'nginx' } }, spec: { containers: [{ name: 'nginx', image, ports: [{ containerPort: 80 }] }] } },
  },
});
const read = () => apps.readNamespacedDeployment({ name: 'nginx-deployment', namespace: 'default' });
const replicaSets = async () => (await apps.listNamespacedReplicaSet({ namespace: 'default' })).items;
const conditions = (d: any) => (d.status?.conditions ?? []).map((c: any) => `${c.type}=${c.status}/${c.reason}: ${c.message}`);

describe('deployment controller', () => {
  it('rolls a new Deployment out to Available through a ReplicaSet and ready pods', async () => {
    await start();
    await apps.createNamespacedDeployment({ namespace: 'default', body: nginx(3) });
    await fx.cluster.settle();
    const d = await read();
    const [rs] = await replicaSets();
    const hash = rs!.metadata!.labels!['pod-template-hash']!;
    expect(rs!.metadata!.name).toBe(`nginx-deployment-${hash}`);
    expect(rs!.spec!.selector!.matchLabels).toEqual({ app: 'nginx', 'pod-template-hash': hash });
    expect(rs!.metadata!.annotations).toEqual({ 'deployment.kubernetes.io/desired-replicas': '3', 'deployment.kubernetes.io/max-replicas': '4', 'deployment.kubernetes.io/revision': '1' });
    expect(rs!.status).toMatchObject({ replicas: 3, readyReplicas: 3, availableReplicas: 3, fullyLabeledReplicas: 3, observedGeneration: 1 });
    expect(d.metadata!.annotations).toEqual({ 'deployment.kubernetes.io/revision': '1' });
    expect(d.status).toMatchObject({ observedGeneration: 1, replicas: 3, updatedReplicas: 3, readyReplicas: 3, availableReplicas: 3 });
    expect(conditions(d)).toEqual([
      'Available=True/MinimumReplicasAvailable: Deployment has minimum availability.',
      `Progressing=True/NewReplicaSetAvailable: ReplicaSet "nginx-deployment-${hash}" has successfully progressed.`,
    ]);
    const pods = (await fx.core.listNamespacedPod({ namespace: 'default', labelSelector: 'app=nginx' })).items;
    expect(pods).toHaveLength(3);
    for (const pod of pods) {
      expect(pod.metadata!.name).toMatch(new RegExp(`^nginx-deployment-${hash}-[bcdfghjklmnpqrstvwxz2456789]{5}$`));
      expect(pod.metadata!.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs!.metadata!.name, uid: rs!.metadata!.uid, controller: true, blockOwnerDeletion: true }]);
      expect(pod.status!.phase).toBe('Running');
    }
  });

  it('Recreate scales the old ReplicaSet to zero, waits for its pods to go, then scales the new one up', async () => {
    await start();
    const body = nginx(3);
    body.spec.strategy = { type: 'Recreate' };
    await apps.createNamespacedDeployment({ namespace: 'default', body });
    await fx.cluster.settle();
    const [first] = await replicaSets();
    await apps.patchNamespacedDeployment({ name: 'nginx-deployment', namespace: 'default', body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'nginx:1.16.1' }] });
    await fx.cluster.settle();
    const all = await replicaSets();
    const second = all.find((rs) => rs.metadata!.name !== first!.metadata!.name)!;
    expect(all.find((rs) => rs.metadata!.name === first!.metadata!.name)!.spec!.replicas).toBe(0);
    expect(second.spec!.replicas).toBe(3);
    expect(second.metadata!.annotations).toMatchObject({ 'deployment.kubernetes.io/revision': '2', 'deployment.kubernetes.io/max-replicas': '3' });
    const events = (await fx.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=nginx-deployment' })).items
      .sort((a, b) => a.metadata!.name!.localeCompare(b.metadata!.name!))
      .map((e) => e.message);
    expect(events).toEqual([
      `Scaled up replica set ${first!.metadata!.name} from 0 to 3`,
      `Scaled down replica set ${first!.metadata!.name} from 3 to 0`,
      `Scaled up replica set ${second.metadata!.name} from 0 to 3`,
    ]);
    const d = await read();
    expect(d.status).toMatchObject({ replicas: 3, updatedReplicas: 3, availableReplicas: 3, observedGeneration: 2 });
  });

  it('revisionHistoryLimit keeps only that many old ReplicaSets', async () => {
    await start();
    const body = nginx(1);
    body.spec.revisionHistoryLimit = 1;
    await apps.createNamespacedDeployment({ namespace: 'default', body });
    await fx.cluster.settle();
    for (const image of ['nginx:1.25', 'nginx:1.26', 'nginx:1.27']) {
      await apps.patchNamespacedDeployment({ name: 'nginx-deployment', namespace: 'default', body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: image }] });
      await fx.cluster.settle();
    }
    const left = (await replicaSets()).map((rs) => `${rs.metadata!.annotations!['deployment.kubernetes.io/revision']}:${rs.spec!.template!.spec!.containers[0]!.image}:${rs.spec!.replicas}`).sort();
    expect(left).toEqual(['3:nginx:1.26:0', '4:nginx:1.27:1']);
  });

  it('switched off, Deployments are stored but make no ReplicaSet', async () => {
    fx = await startFixture({ controllers: { deployment: false } });
    const kc = new KubeConfig();
    kc.loadFromFile(fx.cluster.kubeconfigPath);
    apps = kc.makeApiClient(AppsV1Api);
    await apps.createNamespacedDeployment({ namespace: 'default', body: nginx(2) });
    await fx.cluster.settle();
    expect(await replicaSets()).toEqual([]);
    expect((await read()).status).toEqual({});
  });
});
