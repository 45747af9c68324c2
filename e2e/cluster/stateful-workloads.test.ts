/**
 * StatefulSets, DaemonSets and storage on the local cluster as on kind 1.32, through real kubectl and
 * @kubernetes/client-node: the default `standard` StorageClass (rancher.io/local-path,
 * WaitForFirstConsumer), ordered StatefulSet pods with claims bound to provisioned volumes, scale
 * order, partitioned rolling updates, rollout status/history/undo, the PVC retention policy, a
 * DaemonSet rolled out on the nodes, the protection finalizers and the 422 messages.
 */
import * as k8s from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { useClusterSuite, type WatchStream } from './cluster-suite.js';

const suite = useClusterSuite({ settled: true });
const kubectl = suite.kubectl;

const statefulSet = (name: string, extra: Record<string, unknown> = {}, image = 'nginx:1.27'): string =>
  stringify({
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name },
    spec: {
      serviceName: name,
      replicas: 3,
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image }] } },
      volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }],
      ...extra,
    },
  });

// state the tests check, read in-process (no kubectl start: kubectl's own output is checked where it is the point)
const getJson = (args: string[]): Promise<any> => suite.getJson(args);
const names = (list: any): string[] => list.items.map((o: any) => o.metadata.name).sort();
const isReady = (pod: any): boolean => pod.status?.phase === 'Running' && (pod.status.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');

/** Pod watch events of one app, as `ADDED web-0`, `READY web-0`, `DELETED web-2` in the order seen. */
function podTimeline(stream: WatchStream): string[] {
  const out: string[] = [];
  const ready = new Set<string>();
  for (const e of stream.events) {
    const name = e.object.metadata.name;
    if (e.type === 'ADDED' || e.type === 'DELETED') out.push(`${e.type} ${name}`);
    if (e.type !== 'DELETED' && !e.object.metadata.deletionTimestamp && isReady(e.object) && !ready.has(name)) {
      ready.add(name);
      out.push(`READY ${name}`);
    }
    if (e.type === 'DELETED') ready.delete(name);
  }
  return out;
}

async function watchPods(app: string): Promise<WatchStream> {
  const rv = JSON.parse((await suite.call('GET', '/api/v1/namespaces/default/pods')).text).metadata.resourceVersion;
  return suite.watch(`/api/v1/namespaces/default/pods?watch=true&labelSelector=app%3D${app}&resourceVersion=${rv}`);
}

test('kubectl get sc shows kind\'s default class: standard (default), rancher.io/local-path, Delete, WaitForFirstConsumer', async () => {
  const table = await kubectl.ok(['get', 'sc']);
  const [header, row] = table.trim().split('\n');
  expect(header!.split(/\s{2,}/)).toEqual(['NAME', 'PROVISIONER', 'RECLAIMPOLICY', 'VOLUMEBINDINGMODE', 'ALLOWVOLUMEEXPANSION', 'AGE']);
  expect(row!.split(/\s{2,}/).slice(0, 5)).toEqual(['standard (default)', 'rancher.io/local-path', 'Delete', 'WaitForFirstConsumer', 'false']);
  const sc = await getJson(['get', 'storageclass', 'standard']);
  expect(sc.metadata.annotations).toEqual({
    'kubectl.kubernetes.io/last-applied-configuration':
      '{"apiVersion":"storage.k8s.io/v1","kind":"StorageClass","metadata":{"annotations":{"storageclass.kubernetes.io/is-default-class":"true"},"name":"standard"},"provisioner":"rancher.io/local-path","reclaimPolicy":"Delete","volumeBindingMode":"WaitForFirstConsumer"}\n',
    'storageclass.kubernetes.io/is-default-class': 'true',
  });
  expect(sc).toMatchObject({ provisioner: 'rancher.io/local-path', reclaimPolicy: 'Delete', volumeBindingMode: 'WaitForFirstConsumer' });
  expect(sc.allowVolumeExpansion).toBeUndefined();
});

test('a StatefulSet with volumeClaimTemplates: pods come up one by one, each claim bound to a provisioned local-path volume', async () => {
  const stream = await watchPods('web');
  expect(await kubectl.ok(['apply', '-f', '-'], statefulSet('web'))).toBe('statefulset.apps/web created\n');
  expect(await kubectl.ok(['rollout', 'status', 'sts/web', '--timeout=30s'])).toContain('partitioned roll out complete: 3 new pods have been updated...');
  await suite.cluster.settle();
  stream.close();
  const timeline = podTimeline(stream);
  expect(timeline).toEqual(['ADDED web-0', 'READY web-0', 'ADDED web-1', 'READY web-1', 'ADDED web-2', 'READY web-2']);

  const sts = await getJson(['get', 'sts', 'web']);
  expect(sts.spec).toMatchObject({ podManagementPolicy: 'OrderedReady', revisionHistoryLimit: 10, updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } }, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' } });
  expect(sts.spec.volumeClaimTemplates[0]).toMatchObject({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', spec: { volumeMode: 'Filesystem' }, status: { phase: 'Pending' } });
  expect(sts.status).toMatchObject({ observedGeneration: 1, replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3, availableReplicas: 3, collisionCount: 0 });
  expect(sts.status.currentRevision).toBe(sts.status.updateRevision);
  expect(sts.status.currentRevision).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]+$/);

  const pod = await getJson(['get', 'pod', 'web-1']);
  expect(pod.metadata.labels).toEqual({ app: 'web', 'controller-revision-hash': sts.status.updateRevision, 'statefulset.kubernetes.io/pod-name': 'web-1', 'apps.kubernetes.io/pod-index': '1' });
  expect(pod.spec).toMatchObject({ hostname: 'web-1', subdomain: 'web', nodeName: 'kubeforge-control-plane' });
  expect(pod.spec.volumes[0]).toEqual({ name: 'data', persistentVolumeClaim: { claimName: 'data-web-1' } });

  const claims = await getJson(['get', 'pvc', '-l', 'app=web']);
  expect(names(claims)).toEqual(['data-web-0', 'data-web-1', 'data-web-2']);
  for (const claim of claims.items) {
    expect(claim.status).toEqual({ phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '1Gi' } });
    expect(claim.spec.storageClassName).toBe('standard');
    expect(claim.spec.volumeName).toBe(`pvc-${claim.metadata.uid}`);
    expect(claim.metadata.annotations).toMatchObject({
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
      'volume.kubernetes.io/selected-node': 'kubeforge-control-plane',
      'volume.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
    });
    expect(claim.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
  }
  const pv = await getJson(['get', 'pv', claims.items[0].spec.volumeName]);
  expect(pv.spec).toMatchObject({
    capacity: { storage: '1Gi' },
    persistentVolumeReclaimPolicy: 'Delete',
    storageClassName: 'standard',
    claimRef: { kind: 'PersistentVolumeClaim', namespace: 'default', name: 'data-web-0', uid: claims.items[0].metadata.uid },
    hostPath: { path: `/var/local-path-provisioner/${pv.metadata.name}_default_data-web-0`, type: 'DirectoryOrCreate' },
    nodeAffinity: { required: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['kubeforge-control-plane'] }] }] } },
  });
  expect(pv.status.phase).toBe('Bound');
  expect(pv.metadata.finalizers).toEqual(['kubernetes.io/pv-protection']);

  const table = (await kubectl.ok(['get', 'pvc', 'data-web-0'])).trim().split('\n');
  expect(table[0]!.split(/\s{2,}/)).toEqual(['NAME', 'STATUS', 'VOLUME', 'CAPACITY', 'ACCESS MODES', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'AGE']);
  expect(table[1]!.split(/\s{2,}/).slice(0, 7)).toEqual(['data-web-0', 'Bound', pv.metadata.name, '1Gi', 'RWO', 'standard', '<unset>']);
  const pvTable = (await kubectl.ok(['get', 'pv', pv.metadata.name])).trim().split('\n');
  expect(pvTable[0]!.split(/\s{2,}/)).toEqual(['NAME', 'CAPACITY', 'ACCESS MODES', 'RECLAIM POLICY', 'STATUS', 'CLAIM', 'STORAGECLASS', 'VOLUMEATTRIBUTESCLASS', 'REASON', 'AGE']);
  expect(pvTable[1]!.split(/\s+/).slice(0, 8)).toEqual([pv.metadata.name, '1Gi', 'RWO', 'Delete', 'Bound', 'default/data-web-0', 'standard', '<unset>']);
  const events = await kubectl.ok(['get', 'events', '--field-selector', 'involvedObject.name=data-web-0', '-o', 'jsonpath={range .items[*]}{.reason}{"\\n"}{end}']);
  expect(events.trim().split('\n')).toEqual(expect.arrayContaining(['WaitForFirstConsumer', 'ExternalProvisioning', 'Provisioning', 'ProvisioningSucceeded']));
  expect(await kubectl.ok(['get', 'sts', 'web'])).toMatch(/^NAME\s+READY\s+AGE\nweb\s+3\/3\s+/);
});

test('kubectl describe reads the set\'s pods and a claim\'s users', async () => {
  const sts = await kubectl.ok(['describe', 'sts', 'web']);
  expect(sts).toMatch(/Replicas:\s+3 desired \| 3 total/);
  expect(sts).toMatch(/Pods Status:\s+3 Running \/ 0 Waiting \/ 0 Succeeded \/ 0 Failed/);
  expect(sts).toMatch(/Update Strategy:\s+RollingUpdate/);
  expect(sts).toContain('SuccessfulCreate');
  const pvc = await kubectl.ok(['describe', 'pvc', 'data-web-0']);
  expect(pvc).toMatch(/StorageClass:\s+standard/);
  expect(pvc).toMatch(/Status:\s+Bound/);
  expect(pvc).toMatch(/Used By:\s+web-0/);
  expect(pvc).toContain('ProvisioningSucceeded');
});

test('a headless Service named by serviceName: its EndpointSlice lists each pod under its stable hostname', async () => {
  await kubectl.ok(['create', '-f', '-'], stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { clusterIP: 'None', selector: { app: 'web' }, ports: [{ port: 80 }] } }));
  await suite.cluster.settle();
  const slices = await getJson(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web']);
  const endpoints = slices.items.flatMap((s: any) => s.endpoints ?? []);
  expect(endpoints.map((e: any) => [e.hostname, e.targetRef.name, e.conditions.ready]).sort()).toEqual([
    ['web-0', 'web-0', true], ['web-1', 'web-1', true], ['web-2', 'web-2', true],
  ]);
});

test('scale down removes the highest ordinal first and keeps the claims (whenScaled: Retain); scale up brings them back', async () => {
  const stream = await watchPods('web');
  await kubectl.ok(['scale', 'sts/web', '--replicas=1']);
  await suite.cluster.settle();
  expect(podTimeline(stream)).toEqual(['DELETED web-2', 'DELETED web-1']);
  expect(names(await getJson(['get', 'pods', '-l', 'app=web']))).toEqual(['web-0']);
  expect(names(await getJson(['get', 'pvc', '-l', 'app=web']))).toEqual(['data-web-0', 'data-web-1', 'data-web-2']);
  const before = (await getJson(['get', 'pvc', 'data-web-2'])).spec.volumeName;
  await kubectl.ok(['scale', 'sts/web', '--replicas=3']);
  await suite.cluster.settle();
  stream.close();
  expect(podTimeline(stream).slice(2)).toEqual(['ADDED web-1', 'READY web-1', 'ADDED web-2', 'READY web-2']);
  expect((await getJson(['get', 'pvc', 'data-web-2'])).spec.volumeName).toBe(before);
});

test('a partitioned rolling update replaces only ordinals at or above the partition, highest first; rollout history and undo', async () => {
  await kubectl.ok(['patch', 'sts/web', '-p', '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":2}}}}']);
  await kubectl.ok(['set', 'image', 'sts/web', 'web=nginx:1.28']);
  await suite.cluster.settle();
  const sts = await getJson(['get', 'sts', 'web']);
  expect(sts.status.updateRevision).not.toBe(sts.status.currentRevision);
  expect(sts.status).toMatchObject({ replicas: 3, updatedReplicas: 1, currentReplicas: 2, readyReplicas: 3 });
  const image = async (pod: string): Promise<string> => (await getJson(['get', 'pod', pod])).spec.containers[0].image;
  expect([await image('web-0'), await image('web-1'), await image('web-2')]).toEqual(['nginx:1.27', 'nginx:1.27', 'nginx:1.28']);
  expect(await kubectl.ok(['rollout', 'status', 'sts/web', '--timeout=10s'])).toContain('partitioned roll out complete: 1 new pods have been updated...');

  const stream = await watchPods('web');
  await kubectl.ok(['patch', 'sts/web', '-p', '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":0}}}}']);
  await suite.cluster.settle();
  stream.close();
  expect(podTimeline(stream)).toEqual(['DELETED web-1', 'ADDED web-1', 'READY web-1', 'DELETED web-0', 'ADDED web-0', 'READY web-0']);
  const done = await getJson(['get', 'sts', 'web']);
  expect(done.status.currentRevision).toBe(done.status.updateRevision);
  expect(done.status).toMatchObject({ currentReplicas: 3, updatedReplicas: 3 });

  const revisions = await getJson(['get', 'controllerrevisions', '-l', 'app=web']);
  expect(revisions.items.map((r: any) => r.revision).sort()).toEqual([1, 2]);
  expect(revisions.items[0].metadata.ownerReferences[0]).toMatchObject({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'web', controller: true });
  expect(await kubectl.ok(['get', 'controllerrevisions', done.status.updateRevision])).toMatch(new RegExp(`${done.status.updateRevision}\\s+statefulset.apps/web\\s+2\\s+`));
  expect(await kubectl.ok(['rollout', 'history', 'sts/web'])).toMatch(/REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);

  expect(await kubectl.ok(['rollout', 'undo', 'sts/web'])).toBe('statefulset.apps/web rolled back\n');
  await suite.cluster.settle();
  expect([await image('web-0'), await image('web-1'), await image('web-2')]).toEqual(['nginx:1.27', 'nginx:1.27', 'nginx:1.27']);
  const undone = await getJson(['get', 'controllerrevisions', '-l', 'app=web']);
  expect(undone.items.map((r: any) => [r.metadata.name, r.revision]).sort((a: any, b: any) => a[1] - b[1]).map((r: any) => r[1])).toEqual([2, 3]);
  expect((await getJson(['get', 'sts', 'web'])).status.updateRevision).toBe(sts.status.currentRevision);
});

test('kubectl rollout restart rolls every pod to a new revision; explain serves the 1.32 schema', async () => {
  const before = (await getJson(['get', 'sts', 'web'])).status.updateRevision;
  expect(await kubectl.ok(['rollout', 'restart', 'sts/web'])).toBe('statefulset.apps/web restarted\n');
  expect(await kubectl.ok(['rollout', 'status', 'sts/web', '--timeout=30s'])).toContain('partitioned roll out complete: 3 new pods have been updated...');
  const after = await getJson(['get', 'sts', 'web']);
  expect(after.status.updateRevision).not.toBe(before);
  expect(after.status).toMatchObject({ currentRevision: after.status.updateRevision, updatedReplicas: 3, readyReplicas: 3 });
  const pods = await getJson(['get', 'pods', '-l', 'app=web']);
  expect(pods.items.map((p: any) => p.metadata.labels['controller-revision-hash'])).toEqual([after.status.updateRevision, after.status.updateRevision, after.status.updateRevision]);
  expect(pods.items.every((p: any) => p.metadata.annotations?.['kubectl.kubernetes.io/restartedAt'])).toBe(true);

  const explained = await kubectl.ok(['explain', 'statefulset.spec.persistentVolumeClaimRetentionPolicy']);
  expect(explained).toContain('whenDeleted\t<string>');
  expect(await kubectl.ok(['explain', 'pvc.spec.accessModes'])).toContain('FIELD: accessModes <[]string>');
});

test('a claim template the claim validation refuses: the set is stored, its claim creation fails with the 422 in a FailedCreate event', async () => {
  const bad = statefulSet('nostorage', { replicas: 1, volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }] });
  await kubectl.ok(['apply', '-f', '-'], bad);
  await suite.cluster.settle();
  expect(names(await getJson(['get', 'pods', '-l', 'app=nostorage']))).toEqual([]);
  const events = await kubectl.ok(['get', 'events', '--field-selector', 'involvedObject.name=nostorage,reason=FailedCreate', '-o', 'jsonpath={.items[0].message}']);
  expect(events).toBe('create Claim data-nostorage-0 for Pod nostorage-0 in StatefulSet nostorage failed error: PersistentVolumeClaim "data-nostorage-0" is invalid: spec.resources[storage]: Required value');
  await kubectl.ok(['delete', 'sts', 'nostorage']);
});

test('persistentVolumeClaimRetentionPolicy Delete: claims of scaled-away pods and of a deleted set go, and their volumes with them', async () => {
  await kubectl.ok(['apply', '-f', '-'], statefulSet('db', { replicas: 2, podManagementPolicy: 'Parallel', persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Delete' } }));
  await suite.cluster.settle();
  const claims = await getJson(['get', 'pvc', '-l', 'app=db']);
  expect(names(claims)).toEqual(['data-db-0', 'data-db-1']);
  const set = await getJson(['get', 'sts', 'db']);
  expect(claims.items[0].metadata.ownerReferences).toEqual([{ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'db', uid: set.metadata.uid, controller: true }]);
  const volume1 = claims.items[1].spec.volumeName;

  await kubectl.ok(['scale', 'sts/db', '--replicas=1']);
  await suite.cluster.settle();
  expect(names(await getJson(['get', 'pvc', '-l', 'app=db']))).toEqual(['data-db-0']);
  expect((await kubectl.run(['get', 'pv', volume1])).stderr).toContain(`persistentvolumes "${volume1}" not found`);

  const volume0 = claims.items[0].spec.volumeName;
  await kubectl.ok(['delete', 'sts', 'db']);
  await suite.cluster.settle();
  expect(names(await getJson(['get', 'pvc', '-l', 'app=db']))).toEqual([]);
  expect((await kubectl.run(['get', 'pv', volume0])).code).toBe(1);
});

test('a DaemonSet runs one pod per node, pinned by matchFields with the controller\'s tolerations, and rolls out', async () => {
  const ds = (image: string): string =>
    stringify({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent' },
      spec: { selector: { matchLabels: { app: 'agent' } }, template: { metadata: { labels: { app: 'agent' } }, spec: { hostNetwork: true, containers: [{ name: 'agent', image }] } } },
    });
  await kubectl.ok(['apply', '-f', '-'], ds('busybox:1.36'));
  expect(await kubectl.ok(['rollout', 'status', 'ds/agent', '--timeout=30s'])).toContain('daemon set "agent" successfully rolled out');
  const nodes = names(await getJson(['get', 'nodes']));
  const pods = await getJson(['get', 'pods', '-l', 'app=agent']);
  expect(pods.items.map((p: any) => p.spec.nodeName).sort()).toEqual(nodes);
  const pod = pods.items[0];
  expect(pod.metadata.name).toMatch(/^agent-[a-z0-9]{5}$/);
  expect(pod.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution).toEqual({ nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [pod.spec.nodeName] }] }] });
  expect(pod.spec.tolerations.map((t: any) => `${t.key}:${t.effect}`)).toEqual([
    'node.kubernetes.io/not-ready:NoExecute', 'node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/disk-pressure:NoSchedule',
    'node.kubernetes.io/memory-pressure:NoSchedule', 'node.kubernetes.io/pid-pressure:NoSchedule', 'node.kubernetes.io/unschedulable:NoSchedule',
    'node.kubernetes.io/network-unavailable:NoSchedule',
  ]);
  expect(pod.metadata.labels['pod-template-generation']).toBe('1');
  const status = (await getJson(['get', 'ds', 'agent'])).status;
  expect(status).toMatchObject({ desiredNumberScheduled: nodes.length, currentNumberScheduled: nodes.length, numberReady: nodes.length, numberAvailable: nodes.length, updatedNumberScheduled: nodes.length, numberMisscheduled: 0, observedGeneration: 1 });

  await kubectl.ok(['apply', '-f', '-'], ds('busybox:1.37'));
  expect(await kubectl.ok(['rollout', 'status', 'ds/agent', '--timeout=30s'])).toContain('daemon set "agent" successfully rolled out');
  await suite.cluster.settle();
  const rolled = await getJson(['get', 'pods', '-l', 'app=agent']);
  expect(rolled.items.map((p: any) => p.spec.containers[0].image)).toEqual(nodes.map(() => 'busybox:1.37'));
  expect(rolled.items.map((p: any) => p.metadata.labels['pod-template-generation'])).toEqual(nodes.map(() => '2'));
  const table = (await kubectl.ok(['get', 'ds', 'agent'])).trim().split('\n');
  expect(table[0]!.split(/\s{2,}/)).toEqual(['NAME', 'DESIRED', 'CURRENT', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'NODE SELECTOR', 'AGE']);
  expect(table[1]!.split(/\s+/).slice(0, 7)).toEqual(['agent', ...Array(5).fill(String(nodes.length)), '<none>']);

  expect(await kubectl.ok(['rollout', 'history', 'ds/agent'])).toMatch(/REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
  expect(await kubectl.ok(['rollout', 'undo', 'ds/agent'])).toBe('daemonset.apps/agent rolled back\n');
  expect(await kubectl.ok(['rollout', 'status', 'ds/agent', '--timeout=30s'])).toContain('daemon set "agent" successfully rolled out');
  await suite.cluster.settle();
  expect((await getJson(['get', 'pods', '-l', 'app=agent'])).items.map((p: any) => p.spec.containers[0].image)).toEqual(nodes.map(() => 'busybox:1.36'));
  const revisions = await getJson(['get', 'controllerrevisions', '-l', 'app=agent']);
  expect(revisions.items.map((r: any) => r.revision).sort()).toEqual([2, 3]);
});

test('a claim without a class gets standard and stays Pending until a pod uses it; protection holds it while the pod runs', async () => {
  const config = new k8s.KubeConfig();
  config.loadFromFile(suite.cluster.kubeconfigPath);
  const core = config.makeApiClient(k8s.CoreV1Api);
  await core.createNamespacedPersistentVolumeClaim({
    namespace: 'default',
    body: { metadata: { name: 'scratch' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '2Gi' } } } },
  });
  await suite.cluster.settle();
  const pending = await core.readNamespacedPersistentVolumeClaim({ namespace: 'default', name: 'scratch' });
  expect(pending.spec?.storageClassName).toBe('standard');
  expect(pending.spec?.volumeMode).toBe('Filesystem');
  expect(pending.status?.phase).toBe('Pending');
  expect(pending.metadata?.finalizers).toEqual(['kubernetes.io/pvc-protection']);
  const waiting = await core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=scratch' });
  expect(waiting.items.map((e) => [e.reason, e.message])).toContainEqual(['WaitForFirstConsumer', 'waiting for first consumer to be created before binding']);

  await core.createNamespacedPod({
    namespace: 'default',
    body: { metadata: { name: 'user' }, spec: { containers: [{ name: 'c', image: 'busybox:1.36', command: ['sleep', 'infinity'] }], volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'scratch' } }] } },
  });
  await suite.cluster.settle();
  const bound = await core.readNamespacedPersistentVolumeClaim({ namespace: 'default', name: 'scratch' });
  expect(bound.status?.phase).toBe('Bound');
  expect((await core.readNamespacedPod({ namespace: 'default', name: 'user' })).status?.phase).toBe('Running');
  const volume = bound.spec!.volumeName!;

  await kubectl.ok(['delete', 'pvc', 'scratch', '--wait=false']);
  await suite.cluster.settle();
  const held = await getJson(['get', 'pvc', 'scratch']);
  expect(held.metadata.deletionTimestamp).toBeDefined();
  expect(held.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
  expect((await kubectl.ok(['get', 'pvc', 'scratch', '--no-headers'])).split(/\s+/)[1]).toBe('Terminating');

  await kubectl.ok(['delete', 'pod', 'user']);
  await suite.cluster.settle();
  expect((await kubectl.run(['get', 'pvc', 'scratch'])).stderr).toContain('persistentvolumeclaims "scratch" not found');
  expect((await kubectl.run(['get', 'pv', volume])).code).toBe(1);
});

test('a generic ephemeral volume: the claim <pod>-<volume> is made for the pod, bound on its node, and goes with it', async () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'scratchy' },
    spec: {
      containers: [{ name: 'c', image: 'busybox:1.36', command: ['sleep', 'infinity'] }],
      volumes: [{ name: 'cache', ephemeral: { volumeClaimTemplate: { metadata: { labels: { kind: 'cache' } }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '256Mi' } } } } } }],
    },
  };
  await kubectl.ok(['create', '-f', '-'], stringify(pod));
  await suite.cluster.settle();
  const claim = await getJson(['get', 'pvc', 'scratchy-cache']);
  const created = await getJson(['get', 'pod', 'scratchy']);
  expect(claim.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Pod', name: 'scratchy', uid: created.metadata.uid, controller: true, blockOwnerDeletion: true }]);
  expect(claim.metadata.labels).toEqual({ kind: 'cache' });
  expect(claim.status.phase).toBe('Bound');
  expect(created.status.phase).toBe('Running');
  await kubectl.ok(['delete', 'pod', 'scratchy']);
  await suite.cluster.settle();
  expect((await kubectl.run(['get', 'pvc', 'scratchy-cache'])).code).toBe(1);
});

test('a pod whose claim is missing stays Pending with the scheduler\'s FailedScheduling message', async () => {
  await kubectl.ok(['run', 'orphan', '--image=busybox:1.36', '--overrides', JSON.stringify({ spec: { volumes: [{ name: 'v', persistentVolumeClaim: { claimName: 'nope' } }] } })]);
  await suite.cluster.settle();
  const pod = await getJson(['get', 'pod', 'orphan']);
  expect(pod.status.phase).toBe('Pending');
  expect(pod.status.conditions).toContainEqual(expect.objectContaining({
    type: 'PodScheduled', status: 'False', reason: 'Unschedulable',
    message: '0/1 nodes are available: persistentvolumeclaim "nope" not found. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
  }));
  await kubectl.ok(['delete', 'pod', 'orphan']);
});

test('422s with 1.32\'s messages: selector/labels mismatch, immutable StatefulSet fields, claims without storage or access modes, immutable claim spec', async () => {
  const mismatch = await kubectl.run(['apply', '-f', '-'], statefulSet('bad', { selector: { matchLabels: { app: 'other' } } }));
  expect(mismatch.stderr).toContain('The StatefulSet "bad" is invalid: spec.template.metadata.labels: Invalid value: map[string]string{"app":"bad"}: `selector` does not match template `labels`');

  const frozen = await kubectl.run(['patch', 'sts/web', '-p', '{"spec":{"serviceName":"other"}}']);
  expect(frozen.stderr).toContain(
    "The StatefulSet \"web\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
  );

  const claim = (spec: Record<string, unknown>): string => stringify({ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'c' }, spec });
  const noStorage = await kubectl.run(['create', '-f', '-'], claim({ accessModes: ['ReadWriteOnce'] }));
  expect(noStorage.stderr).toContain('The PersistentVolumeClaim "c" is invalid: spec.resources[storage]: Required value');
  const noModes = await kubectl.run(['create', '-f', '-'], claim({ resources: { requests: { storage: '1Gi' } } }));
  expect(noModes.stderr).toContain('The PersistentVolumeClaim "c" is invalid: spec.accessModes: Required value: at least 1 access mode is required');
  const badMode = await kubectl.run(['create', '-f', '-'], claim({ accessModes: ['ReadWriteSometimes'], resources: { requests: { storage: '1Gi' } } }));
  expect(badMode.stderr).toContain('spec.accessModes: Unsupported value: "ReadWriteSometimes": supported values: "ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod"');

  const immutable = await kubectl.run(['patch', 'pvc', 'data-web-0', '-p', '{"spec":{"accessModes":["ReadWriteMany"]}}']);
  expect(immutable.stderr).toContain('The PersistentVolumeClaim "data-web-0" is invalid: spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims');
  const resize = await kubectl.run(['patch', 'pvc', 'data-web-0', '-p', '{"spec":{"resources":{"requests":{"storage":"5Gi"}}}}']);
  expect(resize.stderr).toContain('persistentvolumeclaims "data-web-0" is forbidden: only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize');

  const scChange = await kubectl.run(['patch', 'sc', 'standard', '-p', '{"reclaimPolicy":"Retain"}']);
  expect(scChange.stderr).toContain('The StorageClass "standard" is invalid: reclaimPolicy: Forbidden: updates to reclaimPolicy are forbidden.');
  const badDs = await kubectl.run(['create', '-f', '-'], stringify({ apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'x' }, spec: { template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } }));
  expect(badDs.stderr).toContain('The DaemonSet "x" is invalid: spec.selector: Required value');
});

test('delete --cascade=orphan then re-create: the new set adopts the pods and revisions, replacing none', async () => {
  const old = await getJson(['get', 'sts', 'web']);
  const podsBefore = await getJson(['get', 'pods', '-l', 'app=web']);
  await kubectl.ok(['delete', 'sts', 'web', '--cascade=orphan']);
  await suite.cluster.settle();
  const orphans = await getJson(['get', 'pods', '-l', 'app=web']);
  expect(orphans.items.map((p: any) => p.metadata.ownerReferences ?? [])).toEqual([[], [], []]);

  const { uid: _uid, resourceVersion: _rv, creationTimestamp: _ct, generation: _g, managedFields: _mf, ...metadata } = old.metadata;
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata, spec: old.spec }));
  await suite.cluster.settle();
  const set = await getJson(['get', 'sts', 'web']);
  const adopted = await getJson(['get', 'pods', '-l', 'app=web']);
  expect(adopted.items.map((p: any) => p.metadata.uid)).toEqual(podsBefore.items.map((p: any) => p.metadata.uid));
  expect(adopted.items.map((p: any) => p.metadata.ownerReferences[0].uid)).toEqual([set.metadata.uid, set.metadata.uid, set.metadata.uid]);
  expect(set.status).toMatchObject({ replicas: 3, readyReplicas: 3, updateRevision: old.status.updateRevision, currentRevision: old.status.updateRevision });
  const revisions = await getJson(['get', 'controllerrevisions', '-l', 'app=web']);
  expect(revisions.items.every((r: any) => r.metadata.ownerReferences?.[0]?.uid === set.metadata.uid)).toBe(true);
  expect(revisions.items.length).toBeGreaterThan(0);
});

test('deleting a namespace removes its StatefulSet, pods and claims, and the provisioned volumes are reclaimed', async () => {
  await kubectl.ok(['create', 'namespace', 'scratch-ns']);
  await kubectl.ok(['apply', '-n', 'scratch-ns', '-f', '-'], statefulSet('cache', { replicas: 2 }));
  await suite.cluster.settle();
  const claims = await getJson(['get', 'pvc', '-n', 'scratch-ns']);
  expect(names(claims)).toEqual(['data-cache-0', 'data-cache-1']);
  const volumes = claims.items.map((c: any) => c.spec.volumeName);
  await kubectl.ok(['delete', 'namespace', 'scratch-ns', '--wait=false']);
  await suite.cluster.settle();
  expect((await kubectl.run(['get', 'namespace', 'scratch-ns'])).stderr).toContain('namespaces "scratch-ns" not found');
  const remaining = names(await getJson(['get', 'pv']));
  expect(volumes.filter((v: string) => remaining.includes(v))).toEqual([]);
});

test('kubectl drain --ignore-daemonsets leaves the DaemonSet\'s pod and evicts the StatefulSet\'s, which come back', async () => {
  await kubectl.ok(['apply', '-f', '-'], stringify({
    apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'logger' },
    spec: { selector: { matchLabels: { app: 'logger' } }, template: { metadata: { labels: { app: 'logger' } }, spec: { containers: [{ name: 'c', image: 'busybox:1.36' }] } } },
  }));
  await suite.cluster.settle();
  const daemonPod = (await getJson(['get', 'pods', '-l', 'app=logger'])).items[0];
  const refused = await kubectl.run(['drain', 'kubeforge-control-plane', '--timeout=20s']);
  expect(refused.stderr).toContain('cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore)');
  const drained = await kubectl.run(['drain', 'kubeforge-control-plane', '--ignore-daemonsets', '--timeout=20s']);
  expect(drained.stderr).toMatch(new RegExp(`Warning: ignoring DaemonSet-managed Pods: .*default/${daemonPod.metadata.name}`));
  expect(drained.stdout).toContain('node/kubeforge-control-plane drained');
  expect((await getJson(['get', 'pod', daemonPod.metadata.name])).metadata.uid).toBe(daemonPod.metadata.uid);
  await kubectl.ok(['uncordon', 'kubeforge-control-plane']);
  await suite.cluster.settle();
  expect((await getJson(['get', 'sts', 'web'])).status.readyReplicas).toBe(3);
});
