/**
 * ReplicaSets and ReplicationControllers on the local cluster, through real kubectl 1.32 and
 * @kubernetes/client-node: pods made from the template with controller owner references, orphans adopted
 * and released by selector, the deletion order of kube-controller-manager (unscheduled, then pending,
 * then not ready), minReadySeconds, status counts, events, `/scale`, 1.32's validation messages, and the
 * controllers switched off.
 */
import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;
// Fixtures are written with --validate=false: field validation is not what this file tests, and kubectl then
// skips parsing the group-version's OpenAPI document before the write (15-20 ms CPU a run).
const clients = (): { apps: AppsV1Api; core: CoreV1Api } => {
  const kc = new KubeConfig();
  kc.loadFromFile(suite.cluster.kubeconfigPath);
  return { apps: kc.makeApiClient(AppsV1Api), core: kc.makeApiClient(CoreV1Api) };
};
// state the tests check, read in-process (no kubectl start: kubectl's own output is checked where it is the point)
const getJson = (args: string[]): Promise<any> => suite.getJson(args);
const podsOf = async (app: string): Promise<any[]> => (await getJson(['get', 'pods', '-l', `app=${app}`])).items;
const eventsOf = async (name: string): Promise<string[]> =>
  (await getJson(['get', 'events', '--field-selector', `involvedObject.name=${name}`])).items
    .sort((a: any, b: any) => a.metadata.name.localeCompare(b.metadata.name))
    .map((e: any) => `${e.source.component} ${e.reason} ${e.message}`);

const replicaSet = (name: string, replicas: number, extra: Record<string, unknown> = {}): string =>
  stringify({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name },
    spec: { replicas, selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name, tier: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } }, ...extra },
  });
const pod = (name: string, app: string, annotations: Record<string, string> = {}): string =>
  stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app }, annotations }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } });

test('a ReplicaSet keeps its replicas: pods from the template, owner references, status and events', async () => {
  await kubectl.ok(['apply', '--validate=false', '-f', '-'], replicaSet('web', 3));
  await suite.cluster.settle();
  const { apps } = clients();
  const rs = await apps.readNamespacedReplicaSet({ name: 'web', namespace: 'default' });
  // a template's zero creationTimestamp is served as null, as a real server does
  expect(rs.spec!.template!.metadata).toEqual({ creationTimestamp: null, labels: { app: 'web', tier: 'web' } });
  expect(rs.status).toEqual({ replicas: 3, fullyLabeledReplicas: 3, readyReplicas: 3, availableReplicas: 3, observedGeneration: 1 });
  const pods = await podsOf('web');
  expect(pods).toHaveLength(3);
  for (const p of pods) {
    expect(p.metadata.name).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(p.metadata.labels).toEqual({ app: 'web', tier: 'web' });
    expect(p.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: rs.metadata!.uid, controller: true, blockOwnerDeletion: true }]);
    expect(p.spec.serviceAccountName).toBe('default');
  }
  expect((await eventsOf('web')).sort()).toEqual(pods.map((p) => `replicaset-controller SuccessfulCreate Created pod: ${p.metadata.name}`).sort());
  expect(await kubectl.ok(['get', 'rs', 'web', '-o', 'wide'])).toMatch(/^NAME\s+DESIRED\s+CURRENT\s+READY\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR\nweb\s+3\s+3\s+3\s+0s\s+c\s+nginx:1.27\s+app=web\n$/);

  // a deleted pod is replaced
  await kubectl.ok(['delete', 'pod', pods[0].metadata.name, '--wait=false']);
  await suite.cluster.settle();
  const after = await podsOf('web');
  expect(after).toHaveLength(3);
  expect(after.map((p) => p.metadata.name)).not.toContain(pods[0].metadata.name);

  // scale down through /scale
  expect(await kubectl.ok(['scale', 'rs', 'web', '--replicas=1'])).toBe('replicaset.apps/web scaled\n');
  await suite.cluster.settle();
  expect(await podsOf('web')).toHaveLength(1);
  expect((await eventsOf('web')).filter((e) => e.includes('SuccessfulDelete'))).toHaveLength(2);
  expect(JSON.parse(await kubectl.ok(['get', '--raw', '/apis/apps/v1/namespaces/default/replicasets/web/scale'])).status).toEqual({ replicas: 1, selector: 'app=web' });
});

test('orphans matching the selector are adopted; a pod relabelled out of it is released and replaced', async () => {
  await kubectl.ok(['apply', '--validate=false', '-f', '-'], pod('stray', 'adopt'));
  await suite.cluster.settle();
  await kubectl.ok(['apply', '--validate=false', '-f', '-'], replicaSet('adopt', 2));
  await suite.cluster.settle();
  const rs = await getJson(['get', 'rs', 'adopt']);
  const stray = await getJson(['get', 'pod', 'stray']);
  expect(stray.metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'adopt', uid: rs.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  expect(await podsOf('adopt')).toHaveLength(2);
  // only one pod was created
  expect((await eventsOf('adopt')).filter((e) => e.includes('SuccessfulCreate'))).toHaveLength(1);
  // fullyLabeledReplicas counts pods carrying all template labels (stray lacks tier=web)
  expect(rs.status).toMatchObject({ replicas: 2, fullyLabeledReplicas: 1 });

  await kubectl.ok(['label', 'pod', 'stray', 'app=elsewhere', '--overwrite']);
  await suite.cluster.settle();
  expect((await getJson(['get', 'pod', 'stray'])).metadata.ownerReferences).toBeUndefined();
  const now = await podsOf('adopt');
  expect(now).toHaveLength(2);
  expect(now.map((p) => p.metadata.name)).not.toContain('stray');
});

test('scaling down deletes unscheduled pods first, then pending ones, then running ones', async () => {
  await kubectl.ok(['apply', '--validate=false', '-f', '-'], pod('nowhere', 'pref', { 'sim.kubeforge.io/outcome': 'unschedulable' }));
  await kubectl.ok(['apply', '--validate=false', '-f', '-'], pod('waiting', 'pref', { 'sim.kubeforge.io/outcome': 'pending' }));
  await suite.cluster.settle();
  await kubectl.ok(['apply', '--validate=false', '-f', '-'], replicaSet('pref', 4));
  await suite.cluster.settle();
  const before = await podsOf('pref');
  expect(before.map((p) => p.status.phase).sort()).toEqual(['Pending', 'Pending', 'Running', 'Running']);
  expect((await getJson(['get', 'rs', 'pref'])).status).toMatchObject({ replicas: 4, readyReplicas: 2, availableReplicas: 2 });
  await kubectl.ok(['scale', 'rs', 'pref', '--replicas=3']);
  await suite.cluster.settle();
  expect((await podsOf('pref')).map((p) => p.metadata.name)).not.toContain('nowhere');
  await kubectl.ok(['scale', 'rs', 'pref', '--replicas=2']);
  await suite.cluster.settle();
  const left = await podsOf('pref');
  expect(left.map((p) => p.status.phase)).toEqual(['Running', 'Running']);
  expect((await eventsOf('pref')).filter((e) => e.includes('SuccessfulDelete'))).toEqual([
    'replicaset-controller SuccessfulDelete Deleted pod: nowhere',
    'replicaset-controller SuccessfulDelete Deleted pod: waiting',
  ]);
});

test('minReadySeconds: ready pods count as available only after that long on the clock', async () => {
  await kubectl.ok(['apply', '--validate=false', '-f', '-'], replicaSet('slow', 2, { minReadySeconds: 10 }));
  await suite.cluster.settle();
  expect((await getJson(['get', 'rs', 'slow'])).status).toEqual({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, observedGeneration: 1 });
  await suite.cluster.clock.advance(10_000);
  expect((await getJson(['get', 'rs', 'slow'])).status.availableReplicas).toBeUndefined();
  await suite.cluster.clock.advance(1_000);
  expect((await getJson(['get', 'rs', 'slow'])).status.availableReplicas).toBe(2);
});

test('a ReplicationController takes its selector and labels from the template, scales, and is listed by get all', async () => {
  const rc = stringify({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'legacy' }, spec: { replicas: 2, template: { metadata: { labels: { app: 'legacy' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } } });
  expect(await kubectl.ok(['create', '-f', '-'], rc)).toBe('replicationcontroller/legacy created\n');
  await suite.cluster.settle();
  const stored = await getJson(['get', 'rc', 'legacy']);
  expect(stored.spec.selector).toEqual({ app: 'legacy' });
  expect(stored.metadata.labels).toEqual({ app: 'legacy' });
  expect(stored.status).toEqual({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 2, availableReplicas: 2, observedGeneration: 1 });
  const pods = await podsOf('legacy');
  expect(pods).toHaveLength(2);
  for (const p of pods) expect(p.metadata.ownerReferences).toEqual([expect.objectContaining({ apiVersion: 'v1', kind: 'ReplicationController', name: 'legacy', controller: true })]);
  expect((await eventsOf('legacy'))[0]).toMatch(/^replication-controller SuccessfulCreate Created pod: legacy-[a-z0-9]{5}$/);
  expect(await kubectl.ok(['scale', 'rc', 'legacy', '--replicas=3'])).toBe('replicationcontroller/legacy scaled\n');
  await suite.cluster.settle();
  expect(JSON.parse(await kubectl.ok(['get', '--raw', '/api/v1/namespaces/default/replicationcontrollers/legacy/scale'])).status).toEqual({ replicas: 3, selector: 'app=legacy' });
  const all = await kubectl.ok(['get', 'all']);
  expect(all).toMatch(/\nreplicationcontroller\/legacy\s+3\s+3\s+3\s+0s\n/);
  expect(all).toMatch(/\nreplicaset\.apps\/web\s+1\s+1\s+1\s+\d+s\n/);
});

test('validation: selector and labels, restartPolicy, empty selector, immutable selector, RC without a selector', async () => {
  const mismatch = stringify({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name: 'bad' },
    spec: { selector: { matchLabels: { app: 'bad' } }, template: { metadata: { labels: { app: 'x' } }, spec: { restartPolicy: 'OnFailure', containers: [{ name: 'Web_1', image: 'nginx', ports: [{ containerPort: 70000 }] }] } } },
  });
  const r = await kubectl.run(['create', '-f', '-'], mismatch);
  expect(r.stderr).toBe(
    'The ReplicaSet "bad" is invalid: \n' +
      '* spec.template.metadata.labels: Invalid value: map[string]string{"app":"x"}: `selector` does not match template `labels`\n' +
      '* spec.template.spec.containers[0].name: Invalid value: "Web_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')\n' +
      '* spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive\n' +
      '* spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"\n',
  );
  const empty = await kubectl.run(['create', '-f', '-'], stringify({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'empty' }, spec: { selector: {}, template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } } }));
  expect(empty.stderr).toBe('The ReplicaSet "empty" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment\n');
  const moved = await kubectl.run(['patch', 'rs', 'web', '--type=merge', '-p', '{"spec":{"selector":{"matchLabels":{"app":"web","tier":"web"}}}}']);
  expect(moved.stderr).toBe('The ReplicaSet "web" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web", "tier":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable\n');
  const rc = await kubectl.run(['create', '-f', '-'], stringify({ apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'nolabels' }, spec: { template: { spec: { containers: [{ name: 'c', image: 'nginx' }] } } } }));
  expect(rc.stderr).toBe('The ReplicationController "nolabels" is invalid: spec.selector: Required value\n');
  const negative = await kubectl.run(['scale', 'rs', 'web', '--replicas=-2']);
  expect(negative.code).not.toBe(0);
});

test('deleting a ReplicaSet removes its pods (background propagation)', async () => {
  expect(await podsOf('slow')).toHaveLength(2);
  await kubectl.ok(['delete', 'rs', 'slow']);
  await suite.cluster.settle();
  expect(await podsOf('slow')).toEqual([]);
});

describe('with the ReplicaSet and ReplicationController controllers switched off', () => {
  const off = useClusterSuite({ controllers: { replicaSet: false, replicationController: false } });
  test('the objects are stored and served, and no pod is made', async () => {
    await off.kubectl.ok(['apply', '-f', '-'], replicaSet('idle', 2));
    await off.cluster.settle();
    expect((await off.getJson(['get', 'pods'])).items).toEqual([]);
    expect((await off.getJson(['get', 'rs', 'idle'])).status).toEqual({ replicas: 0 });
  });
});
