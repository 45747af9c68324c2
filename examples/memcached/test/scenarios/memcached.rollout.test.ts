/**
 * The tutorial's Deployment actually running, on the local cluster's Deployment and ReplicaSet controllers,
 * scheduler and kubelet simulator (virtual clock, RBAC on, the operator under its generated ClusterRole):
 * the sample's Deployment rolls out — a ReplicaSet, pods Running and Ready, `kubectl rollout status`
 * succeeds, the Deployment `Available` — while the Memcached says `Available=True`; size 1 → 3 brings three
 * ready pods; deleting the Memcached takes the Deployment, its ReplicaSet and its pods with it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Pod } from 'kubernetes-types/core/v1.js';
import pino from 'pino';
import { parse } from 'yaml';
import { BuiltinKinds, Manager, type KubeObject } from 'kubeforge/runtime';
import { startTestEnv, type KubectlResult, type TestEnv } from 'kubeforge/testing';
import { setupControllers } from '../../internal/controller/index.js';

const file = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const identity = { user: 'system:serviceaccount:memcached-system:memcached-controller-manager' };
const key = { namespace: 'default', name: 'memcached-sample' };
const podLabels = 'app.kubernetes.io/managed-by=MemcachedController';

let env: TestEnv;
let admin: Manager;
const savedImage = process.env.MEMCACHED_IMAGE;

/** kubectl as the cluster admin (the user of the tutorial); a later --kubeconfig wins over env.kubectl's. */
const kubectl = (args: string[]): Promise<KubectlResult> => env.kubectl(['--kubeconfig', env.cluster.kubeconfigPath, ...args]);
const pods = async (): Promise<Pod[]> => (await admin.client.list(BuiltinKinds.Pod, { namespace: 'default', labelSelector: podLabels })).filter((p) => !p.metadata?.deletionTimestamp);
const isReady = (pod: Pod): boolean => pod.status?.phase === 'Running' && (pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');

/** Moves the virtual clock `seconds` ahead, one due timer at a time. */
async function after(seconds: number): Promise<void> {
  await env.stepTo(new Date(env.cluster.clock.now() + seconds * 1000));
}

beforeAll(async () => {
  process.env.MEMCACHED_IMAGE = 'memcached:1.6.26-alpine';
  env = await startTestEnv({ now: '2024-01-15T10:00:00Z', crdPaths: [file('config/crd/bases')], authz: 'rbac', identity });
  admin = new Manager({ kubeConfig: env.cluster.kubeconfigPath, clock: env.cluster.clock, logger: pino({ level: 'silent' }) });
  const role = parse(readFileSync(file('config/rbac/role.yaml'), 'utf8')) as KubeObject;
  await admin.client.create(role);
  await admin.client.create({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'manager-rolebinding' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role.metadata!.name },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: identity.user }],
  } as KubeObject);
  await setupControllers(env.manager);
  await env.startManager();
});

afterAll(async () => {
  admin?.close();
  await env?.stop();
  if (savedImage === undefined) delete process.env.MEMCACHED_IMAGE;
  else process.env.MEMCACHED_IMAGE = savedImage;
});

describe('the tutorial\'s Deployment rolls out on the local cluster', () => {
  test('the sample: a ReplicaSet, one pod Running and Ready, the Deployment Available, the Memcached Available=True', async () => {
    expect((await kubectl(['apply', '-f', file('config/samples/cache_v1alpha1_memcached.yaml')])).code).toBe(0);
    await env.settle();
    await after(30);

    const replicaSets = await kubectl(['get', 'rs', '-l', podLabels, '-o', 'jsonpath={range .items[*]}{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name} {.status.readyReplicas}{"\\n"}{end}']);
    expect(replicaSets.stdout).toBe('Deployment/memcached-sample 1\n');
    const running = await pods();
    expect(running.map((p) => ({ ready: isReady(p), image: p.spec?.containers[0]?.image, owner: p.metadata?.ownerReferences?.[0]?.kind }))).toEqual([{ ready: true, image: 'memcached:1.6.26-alpine', owner: 'ReplicaSet' }]);

    const rollout = await kubectl(['rollout', 'status', 'deployment/memcached-sample', '--timeout=10s']);
    expect({ code: rollout.code, stdout: rollout.stdout }).toEqual({ code: 0, stdout: 'deployment "memcached-sample" successfully rolled out\n' });
    const deployment = await admin.client.get(BuiltinKinds.Deployment, key);
    expect(deployment.status?.conditions?.find((c) => c.type === 'Available')).toMatchObject({ status: 'True', reason: 'MinimumReplicasAvailable' });
    expect(deployment.status).toMatchObject({ replicas: 1, readyReplicas: 1, availableReplicas: 1, updatedReplicas: 1 });

    const waited = await kubectl(['wait', '--for=condition=Available', 'memcached/memcached-sample', '--timeout=5s']);
    expect(waited.stdout).toBe('memcached.cache.example.com/memcached-sample condition met\n');
  });

  test('size 1 → 3: three pods Running and Ready, the Deployment available with 3', async () => {
    expect((await kubectl(['patch', 'memcached', 'memcached-sample', '--type', 'merge', '-p', '{"spec":{"size":3}}'])).code).toBe(0);
    await env.settle();
    await after(30);

    const running = await pods();
    expect(running.map(isReady)).toEqual([true, true, true]);
    const deployment = await admin.client.get(BuiltinKinds.Deployment, key);
    expect(deployment.status).toMatchObject({ replicas: 3, readyReplicas: 3, availableReplicas: 3 });
    const rollout = await kubectl(['rollout', 'status', 'deployment/memcached-sample', '--timeout=10s']);
    expect(rollout.code).toBe(0);
  });

  test('deleting the Memcached takes its Deployment, ReplicaSet and pods with it', async () => {
    expect((await kubectl(['delete', 'memcached', 'memcached-sample', '--wait=false'])).code).toBe(0);
    await env.settle();
    await after(60);

    const left = await kubectl(['get', 'memcached,deploy,rs,pods', '-o', 'name']);
    expect({ code: left.code, stdout: left.stdout }).toEqual({ code: 0, stdout: '' });
    expect(env.cluster.leastPrivilegeReport(identity).denied).toEqual([]);
  });
});
