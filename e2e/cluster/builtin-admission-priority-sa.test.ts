/**
 * The Priority and ServiceAccount admission plugins of a default 1.32 API server, driven by real kubectl
 * and @kubernetes/client-node: pods get spec.priority and preemptionPolicy from their PriorityClass (or the
 * global default), the `default` account and the projected kube-api-access token volume mounted in every
 * container; unknown classes, a priority of one's own and missing accounts are refused with 1.32's 403s;
 * pods of a Deployment get the same through the ReplicaSet controller's creations.
 */
import * as k8s from '@kubernetes/client-node';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite({ settled: true });
const kubectl = suite.kubectl;
let core: k8s.CoreV1Api;
let scheduling: k8s.SchedulingV1Api;

beforeAll(() => {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(suite.cluster.kubeconfigPath);
  core = kc.makeApiClient(k8s.CoreV1Api);
  scheduling = kc.makeApiClient(k8s.SchedulingV1Api);
});

const tokenPath = '/var/run/secrets/kubernetes.io/serviceaccount';

async function podJson(name: string, namespace = 'default'): Promise<any> {
  return suite.getJson(['get', 'pod', name, '-n', namespace]);
}

async function refusal(work: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await work;
  } catch (e) {
    const err = e as k8s.ApiException<string>;
    return { code: err.code, message: JSON.parse(err.body).message };
  }
  throw new Error('the write was accepted');
}

describe('Priority', () => {
  beforeAll(async () => {
    await kubectl.ok(['apply', '-f', '-'], `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: batch-low}
value: 500
preemptionPolicy: Never
description: batch work that never preempts
`);
  });

  test('a pod without a class gets priority 0 and PreemptLowerPriority; a named class its value and policy', async () => {
    await kubectl.ok(['run', 'plain', '--image=nginx:1.27']);
    const plain = await podJson('plain');
    expect(plain.spec.priority).toBe(0);
    expect(plain.spec.preemptionPolicy).toBe('PreemptLowerPriority');
    expect(plain.spec.priorityClassName).toBeUndefined();
    await core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'batch' }, spec: { priorityClassName: 'batch-low', containers: [{ name: 'c', image: 'nginx:1.27' }] } } });
    const batch = await core.readNamespacedPod({ name: 'batch', namespace: 'default' });
    expect(batch.spec).toMatchObject({ priorityClassName: 'batch-low', priority: 500, preemptionPolicy: 'Never' });
  });

  test('the system classes exist at bootstrap and resolve (in any namespace, as since 1.17)', async () => {
    const classes = (await suite.getJson(['get', 'priorityclasses'])).items.map((c: any) => [c.metadata.name, c.value]);
    expect(classes).toEqual(expect.arrayContaining([['system-cluster-critical', 2000000000], ['system-node-critical', 2000001000]]));
    await kubectl.ok(['run', 'critical', '--image=nginx:1.27', '--overrides={"spec":{"priorityClassName":"system-cluster-critical"}}']);
    expect((await podJson('critical')).spec.priority).toBe(2000000000);
  });

  test('an unknown class and a priority of its own are refused with 403', async () => {
    const r = await kubectl.run(['run', 'lost', '--image=nginx:1.27', '--overrides={"spec":{"priorityClassName":"foo"}}']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Error from server (Forbidden): pods "lost" is forbidden: no PriorityClass with name foo was found');
    const own = core.createNamespacedPod({ namespace: 'default', body: { metadata: { name: 'own' }, spec: { priorityClassName: 'batch-low', priority: 7, containers: [{ name: 'c', image: 'nginx:1.27' }] } } });
    expect(await refusal(own)).toEqual({
      code: 403,
      message: 'pods "own" is forbidden: the integer value of priority (7) must not be provided in pod spec; priority admission controller computed 500 from the given PriorityClass name',
    });
  });

  test('the globalDefault class applies to pods without a class; a second default is refused', async () => {
    await kubectl.ok(['create', 'priorityclass', 'everyday', '--value=1000', '--global-default=true']);
    try {
      await kubectl.ok(['run', 'defaulted', '--image=nginx:1.27']);
      expect((await podJson('defaulted')).spec).toMatchObject({ priorityClassName: 'everyday', priority: 1000, preemptionPolicy: 'PreemptLowerPriority' });
      const r = await kubectl.run(['create', 'priorityclass', 'another', '--value=5', '--global-default=true']);
      expect(r.stderr).toContain('error: failed to create priorityclass: priorityclasses.scheduling.k8s.io "another" is forbidden: PriorityClass everyday is already marked as default. Only one default can exist');
      const flip = scheduling.patchPriorityClass({ name: 'batch-low', body: { globalDefault: true } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
      expect(await refusal(flip)).toEqual({ code: 403, message: 'priorityclasses.scheduling.k8s.io "batch-low" is forbidden: PriorityClass everyday is already marked as default. Only one default can exist' });
    } finally {
      await kubectl.ok(['delete', 'priorityclass', 'everyday']);
    }
  });
});

describe('ServiceAccount', () => {
  test('a pod runs as default and mounts the kube-api-access projected volume in every container', async () => {
    await kubectl.ok(['apply', '-f', '-'], `apiVersion: v1
kind: Pod
metadata: {name: mounted}
spec:
  initContainers: [{name: init, image: busybox:1.36}]
  containers: [{name: app, image: nginx:1.27}, {name: side, image: busybox:1.36}]
`);
    const pod = await core.readNamespacedPod({ name: 'mounted', namespace: 'default' });
    expect(pod.spec!.serviceAccountName).toBe('default');
    expect(pod.spec!.serviceAccount).toBe('default');
    const volumes = pod.spec!.volumes ?? [];
    expect(volumes).toHaveLength(1);
    expect(volumes[0]!.name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(volumes[0]!.projected).toEqual({
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    });
    const mount = { name: volumes[0]!.name, readOnly: true, mountPath: tokenPath };
    expect([...pod.spec!.initContainers!, ...pod.spec!.containers].map((c) => c.volumeMounts)).toEqual([[mount], [mount], [mount]]);
    const described = await kubectl.ok(['describe', 'pod', 'mounted']);
    expect(described).toContain(`${tokenPath} from ${volumes[0]!.name} (ro)`);
    expect(described).toMatch(/Type:\s+Projected \(a volume that contains injected data from multiple sources\)/);
  });

  test('automountServiceAccountToken false on the account or the pod mounts nothing', async () => {
    await kubectl.ok(['apply', '-f', '-'], `apiVersion: v1
kind: ServiceAccount
metadata: {name: quiet}
automountServiceAccountToken: false
`);
    await kubectl.ok(['run', 'quiet', '--image=nginx:1.27', '--overrides={"spec":{"serviceAccountName":"quiet"}}']);
    const quiet = await podJson('quiet');
    expect(quiet.spec.serviceAccountName).toBe('quiet');
    expect(quiet.spec.volumes).toBeUndefined();
    expect(quiet.spec.containers[0].volumeMounts).toBeUndefined();
    await kubectl.ok(['run', 'no-token', '--image=nginx:1.27', '--overrides={"spec":{"automountServiceAccountToken":false}}']);
    expect((await podJson('no-token')).spec.volumes).toBeUndefined();
  });

  test('a pod naming a missing account is refused with 403', async () => {
    const r = await kubectl.run(['run', 'orphan', '--image=nginx:1.27', '--overrides={"spec":{"serviceAccountName":"builder"}}']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Error from server (Forbidden): pods "orphan" is forbidden: error looking up service account default/builder: serviceaccount "builder" not found');
  });

  test('a pod created right after its namespace runs as default, while the controller adds the account', async () => {
    await kubectl.ok(['create', 'namespace', 'fresh']);
    await core.createNamespacedPod({ namespace: 'fresh', body: { metadata: { name: 'early' }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } });
    expect((await podJson('early', 'fresh')).spec.serviceAccountName).toBe('default');
    await suite.cluster.settle();
    expect((await suite.getJson(['get', 'serviceaccount', 'default', '-n', 'fresh'])).metadata.name).toBe('default');
  });
});

describe('pods of a Deployment', () => {
  test('get their priority and token volume from admission; the template keeps neither', async () => {
    await kubectl.ok(['create', 'serviceaccount', 'web-sa']);
    await kubectl.ok(['apply', '-f', '-'], `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      priorityClassName: batch-low
      serviceAccountName: web-sa
      containers: [{name: c, image: nginx:1.27}]
`);
    await suite.cluster.settle();
    const pods = (await suite.getJson(['get', 'pods', '-l', 'app=web'])).items;
    expect(pods).toHaveLength(2);
    for (const p of pods) {
      expect(p.spec).toMatchObject({ priorityClassName: 'batch-low', priority: 500, preemptionPolicy: 'Never', serviceAccountName: 'web-sa' });
      expect(p.spec.volumes.map((v: any) => v.name)).toEqual([expect.stringMatching(/^kube-api-access-/)]);
    }
    const template = (await suite.getJson(['get', 'deployment', 'web'])).spec.template.spec;
    expect(template.priority).toBeUndefined();
    expect(template.preemptionPolicy).toBeUndefined();
    expect(template.volumes).toBeUndefined();
  });

  test('naming an account not yet created: FailedCreate with the 403, pods once the account exists', async () => {
    await kubectl.ok(['create', 'deployment', 'later', '--image=nginx:1.27', '--replicas=1']);
    await kubectl.ok(['patch', 'deployment', 'later', '-p', '{"spec":{"template":{"spec":{"serviceAccountName":"later-sa"}}}}']);
    await suite.cluster.settle();
    const rs = (await suite.getJson(['get', 'rs', '-l', 'app=later'])).items.find((r: any) => r.spec.template.spec.serviceAccountName === 'later-sa');
    const events = (await suite.getJson(['get', 'events', '--field-selector', `involvedObject.name=${rs.metadata.name},reason=FailedCreate`])).items;
    expect(events.length).toBeGreaterThan(0);
    expect(events[0].message).toBe(`Error creating: pods "${rs.metadata.name}-" is forbidden: error looking up service account default/later-sa: serviceaccount "later-sa" not found`);
    await kubectl.ok(['create', 'serviceaccount', 'later-sa']);
    await suite.cluster.settle();
    await suite.cluster.clock.advance(10_000);
    await suite.cluster.settle();
    const pods = (await suite.getJson(['get', 'pods', '-l', 'app=later'])).items.filter((p: any) => p.spec.serviceAccountName === 'later-sa');
    expect(pods).toHaveLength(1);
  });
});
