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
});
