/**
 * Nodes and the default scheduler through real kubectl, on a three-node cluster named as kind names it:
 * `get nodes -o wide`, node leases, cordon/uncordon (the unschedulable taint), nodeSelector, node
 * affinity, pod anti-affinity, taints/tolerations and resource requests, FailedScheduling with the real
 * FitError text in `kubectl describe`, and pods/binding (201, then 409 when already bound).
 */
import { setKubeletRunning } from '../../src/cluster/index.js';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite({ nodes: 3 });
const kubectl = suite.kubectl;

const pod = (name: string, spec: Record<string, unknown> = {}, labels: Record<string, string> = {}): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels }, spec: { containers: [{ name: 'app', image: 'nginx:1.27' }], ...spec } });

// Fixtures are written with --validate=false: field validation is not what this file tests, and kubectl then
// skips parsing the group-version's OpenAPI document before the write (15-20 ms CPU a run).
async function create(manifest: string): Promise<void> {
  await kubectl.ok(['create', '--validate=false', '-f', '-'], manifest);
  await suite.cluster.settle();
}

// what `-o jsonpath={.spec.nodeName}` prints (empty when unscheduled), read in-process: no kubectl start
const nodeOf = async (name: string): Promise<string> => (await suite.getJson(['get', 'pod', name])).spec.nodeName ?? '';

test('kubectl get nodes -o wide lists kind-named nodes with roles, addresses, versions and runtime', async () => {
  const out = await kubectl.ok(['get', 'nodes', '-o', 'wide']);
  const lines = out.trim().split('\n');
  expect(lines[0]).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\s+INTERNAL-IP\s+EXTERNAL-IP\s+OS-IMAGE\s+KERNEL-VERSION\s+CONTAINER-RUNTIME$/);
  expect(lines.slice(1).map((l) => l.split(/\s{2,}/).filter((c, i) => i !== 3))).toEqual([
    ['kubeforge-control-plane', 'Ready', 'control-plane', 'v1.32.4', '172.18.0.2', '<none>', 'Debian GNU/Linux 12 (bookworm)', '6.8.0-1021-azure', 'containerd://2.0.3'],
    ['kubeforge-worker', 'Ready', '<none>', 'v1.32.4', '172.18.0.3', '<none>', 'Debian GNU/Linux 12 (bookworm)', '6.8.0-1021-azure', 'containerd://2.0.3'],
    ['kubeforge-worker2', 'Ready', '<none>', 'v1.32.4', '172.18.0.4', '<none>', 'Debian GNU/Linux 12 (bookworm)', '6.8.0-1021-azure', 'containerd://2.0.3'],
  ]);
  const worker = await suite.getJson(['get', 'node', 'kubeforge-worker']);
  expect(worker.spec).toMatchObject({ podCIDR: '10.244.1.0/24', providerID: 'kind://docker/kubeforge/kubeforge-worker' });
  expect(worker.status.allocatable).toMatchObject({ pods: '110', cpu: '8' });
  expect(worker.status.conditions.map((c: any) => `${c.type}=${c.status}/${c.reason}`)).toEqual([
    'MemoryPressure=False/KubeletHasSufficientMemory', 'DiskPressure=False/KubeletHasNoDiskPressure', 'PIDPressure=False/KubeletHasSufficientPID', 'Ready=True/KubeletReady',
  ]);
  const controlPlane = await suite.getJson(['get', 'node', 'kubeforge-control-plane']);
  expect(controlPlane.spec.taints).toEqual([{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }]);
  const leases = await kubectl.ok(['get', 'leases', '-n', 'kube-node-lease', '-o', 'custom-columns=NAME:.metadata.name,HOLDER:.spec.holderIdentity', '--no-headers']);
  expect(leases.trim().split('\n').map((l) => l.split(/\s+/))).toEqual([
    ['kubeforge-control-plane', 'kubeforge-control-plane'], ['kubeforge-worker', 'kubeforge-worker'], ['kubeforge-worker2', 'kubeforge-worker2'],
  ]);
});

test('node leases are renewed every 10 s of cluster time', async () => {
  const renewTime = async (): Promise<number> => Date.parse(await kubectl.ok(['get', 'lease', '-n', 'kube-node-lease', 'kubeforge-worker', '-o', 'jsonpath={.spec.renewTime}']));
  const before = await renewTime();
  await suite.cluster.clock.advance(30_000);
  await suite.cluster.settle();
  expect((await renewTime()) - before).toBeGreaterThanOrEqual(20_000);
  expect(await kubectl.ok(['get', 'node', 'kubeforge-worker', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'])).toBe('True');
});

test('cordon taints the node unschedulable; a pod selecting it waits with the FitError; uncordon lets it in', async () => {
  expect(await kubectl.ok(['cordon', 'kubeforge-worker'])).toContain('node/kubeforge-worker cordoned');
  await suite.cluster.settle();
  expect(await kubectl.ok(['get', 'node', 'kubeforge-worker', '--no-headers'])).toMatch(/^kubeforge-worker\s+Ready,SchedulingDisabled\s+<none>/);
  const taints = JSON.parse(await kubectl.ok(['get', 'node', 'kubeforge-worker', '-o', 'jsonpath={.spec.taints}']));
  expect(taints).toEqual([{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule', timeAdded: expect.any(String) }]);
  await create(pod('pinned', { nodeSelector: { 'kubernetes.io/hostname': 'kubeforge-worker' } }));
  expect(await nodeOf('pinned')).toBe('');
  const message =
    "0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) were unschedulable. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.";
  const condition = JSON.parse(await kubectl.ok(['get', 'pod', 'pinned', '-o', 'jsonpath={.status.conditions[0]}']));
  expect(condition).toMatchObject({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message });
  expect(await kubectl.ok(['uncordon', 'kubeforge-worker'])).toContain('node/kubeforge-worker uncordoned');
  await suite.cluster.settle();
  expect(await nodeOf('pinned')).toBe('kubeforge-worker');
  expect(await kubectl.ok(['get', 'node', 'kubeforge-worker', '-o', 'jsonpath={.spec.taints}'])).toBe('');
});

test('node affinity (matchFields), tolerations and pod anti-affinity decide the node', async () => {
  await create(pod('by-field', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['kubeforge-worker2'] }] }] } } } }));
  expect(await nodeOf('by-field')).toBe('kubeforge-worker2');
  await create(pod('on-control-plane', {
    nodeSelector: { 'node-role.kubernetes.io/control-plane': '' },
    tolerations: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists', effect: 'NoSchedule' }],
  }));
  expect(await nodeOf('on-control-plane')).toBe('kubeforge-control-plane');
  const spread = { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ labelSelector: { matchLabels: { app: 'spread' } }, topologyKey: 'kubernetes.io/hostname' }] } };
  for (const name of ['spread-a', 'spread-b', 'spread-c']) await create(pod(name, { affinity: spread }, { app: 'spread' }));
  const placed = [await nodeOf('spread-a'), await nodeOf('spread-b')];
  expect([...placed].sort()).toEqual(['kubeforge-worker', 'kubeforge-worker2']);
  expect(await nodeOf('spread-c')).toBe('');
  const describe = await kubectl.ok(['describe', 'pod', 'spread-c']);
  expect(describe).toMatch(
    /Warning\s+FailedScheduling\s+\S+\s+default-scheduler\s+0\/3 nodes are available: 1 node\(s\) had untolerated taint \{node-role.kubernetes.io\/control-plane: \}, 2 node\(s\) didn't match pod anti-affinity rules\. preemption: 0\/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod\./,
  );
});

test('resource requests: a pod asking for more cpu than any node has gets FailedScheduling (events.k8s.io)', async () => {
  await create(pod('greedy', { containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '100' } } }] }));
  const message =
    '0/3 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 Insufficient cpu. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.';
  const describe = await kubectl.ok(['describe', 'pod', 'greedy']);
  expect(describe).toContain(message);
  expect(describe).toMatch(/Status:\s+Pending/);
  const events = (await suite.getJson(['get', 'events.v1.events.k8s.io', '--field-selector', 'regarding.name=greedy'])).items;
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ reason: 'FailedScheduling', action: 'Scheduling', type: 'Warning', reportingController: 'default-scheduler', reportingInstance: 'default-scheduler-kubeforge-control-plane', note: message });
  expect(events[0].eventTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  // a pod that fits is scheduled and gets the Scheduled event
  await create(pod('modest', { containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '500m', memory: '64Mi' } } }] }));
  expect(await kubectl.ok(['describe', 'pod', 'modest'])).toMatch(/Normal\s+Scheduled\s+\S+\s+default-scheduler\s+Successfully assigned default\/modest to kubeforge-worker2?\n/);
});

test('a pod bound by nodeName that does not fit is rejected by the kubelet (OutOfcpu)', async () => {
  await create(pod('forced', { nodeName: 'kubeforge-worker', containers: [{ name: 'app', image: 'nginx:1.27', resources: { requests: { cpu: '9' } } }] }));
  const status = JSON.parse(await kubectl.ok(['get', 'pod', 'forced', '-o', 'jsonpath={.status}']));
  expect(status).toMatchObject({ phase: 'Failed', reason: 'OutOfcpu' });
  // `used` counts the requests of pods earlier tests left on the node
  expect(status.message).toMatch(/^Pod was rejected: Node didn't have enough resource: cpu, requested: 9000, used: \d+, capacity: 8000$/);
  expect((await kubectl.ok(['get', 'pod', 'forced', '--no-headers'])).split(/\s{2,}/).slice(0, 3)).toEqual(['forced', '0/1', 'OutOfcpu']);
});

test('pods/binding and core/v1 bindings bind once; binding again is 409', async () => {
  await create(pod('manual', { schedulerName: 'my-scheduler' }));
  expect(await nodeOf('manual')).toBe('');
  const binding = { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'manual' }, target: { apiVersion: 'v1', kind: 'Node', name: 'kubeforge-worker2' } };
  const first = await suite.call('POST', '/api/v1/namespaces/default/pods/manual/binding', binding);
  expect(first.code).toBe(201);
  expect(JSON.parse(first.text)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
  await suite.cluster.settle();
  expect(await nodeOf('manual')).toBe('kubeforge-worker2');
  const again = await suite.call('POST', '/api/v1/namespaces/default/bindings', { ...binding, target: { ...binding.target, name: 'kubeforge-worker' } });
  expect(again.code).toBe(409);
  expect(JSON.parse(again.text)).toMatchObject({ reason: 'Conflict', message: 'Operation cannot be fulfilled on pods/binding "manual": pod manual is already assigned to node "kubeforge-worker2"' });
  const missing = await suite.call('POST', '/api/v1/namespaces/default/pods/nobody/binding', { ...binding, metadata: { name: 'nobody' } });
  expect(missing.code).toBe(404);
  expect(JSON.parse(missing.text).message).toBe('pods "nobody" not found');
  const noTarget = await suite.call('POST', '/api/v1/namespaces/default/bindings', { apiVersion: 'v1', kind: 'Binding', metadata: { name: 'manual' }, target: {} });
  expect(noTarget.code).toBe(422);
  expect(JSON.parse(noTarget.text).message).toBe('Binding "manual" is invalid: target.name: Required value');
});

test('a node whose kubelet stops turns NotReady, is tainted unreachable, and its pods are evicted after 300 s', async () => {
  await create(pod('preset', { nodeName: 'kubeforge-worker2' }));
  expect(await kubectl.ok(['get', 'pod', 'preset', '-o', 'jsonpath={.status.phase}'])).toBe('Running');
  const tolerations = JSON.parse(await kubectl.ok(['get', 'pod', 'preset', '-o', 'jsonpath={.spec.tolerations}']));
  expect(tolerations).toEqual([
    { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  ]);
  setKubeletRunning(suite.cluster.internals, 'kubeforge-worker2', false);
  await suite.cluster.clock.advance(60_000);
  await suite.cluster.settle();
  expect(await kubectl.ok(['get', 'node', 'kubeforge-worker2', '--no-headers'])).toMatch(/^kubeforge-worker2\s+NotReady\s/);
  const ready = JSON.parse(await kubectl.ok(['get', 'node', 'kubeforge-worker2', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")]}']));
  expect(ready).toMatchObject({ status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
  const taints = JSON.parse(await kubectl.ok(['get', 'node', 'kubeforge-worker2', '-o', 'jsonpath={.spec.taints}']));
  expect(taints.map((t: any) => `${t.key}:${t.effect}`)).toEqual(['node.kubernetes.io/unreachable:NoSchedule', 'node.kubernetes.io/unreachable:NoExecute']);
  expect(await kubectl.ok(['get', 'pod', 'preset', '-o', 'jsonpath={.status.conditions[?(@.type=="Ready")].status}'])).toBe('False');
  const tainted = Date.parse(taints[1].timeAdded);
  await suite.cluster.clock.stepTo(tainted + 299_000);
  await suite.cluster.settle();
  expect(await kubectl.ok(['get', 'pod', 'preset', '-o', 'jsonpath={.metadata.deletionTimestamp}'])).toBe('');
  await suite.cluster.clock.stepTo(tainted + 300_000);
  await suite.cluster.settle();
  expect(await kubectl.ok(['get', 'pod', 'preset', '-o', 'jsonpath={.metadata.deletionTimestamp}'])).not.toBe('');
  expect(await kubectl.ok(['get', 'events', '--field-selector', 'involvedObject.name=preset,reason=TaintManagerEviction', '-o', 'jsonpath={.items[0].message}'])).toBe(
    'Marking for deletion Pod default/preset',
  );
  // the kubelet comes back: the node is Ready again, untainted, and the pod's deletion completes
  setKubeletRunning(suite.cluster.internals, 'kubeforge-worker2', true);
  await suite.cluster.settle();
  expect(await kubectl.ok(['get', 'node', 'kubeforge-worker2', '--no-headers'])).toMatch(/^kubeforge-worker2\s+Ready\s/);
  expect(await kubectl.ok(['get', 'node', 'kubeforge-worker2', '-o', 'jsonpath={.spec.taints}'])).toBe('');
  expect(await kubectl.ok(['get', 'pod', 'preset', '--ignore-not-found'])).toBe('');
});
