/**
 * pods/eviction and PodDisruptionBudgets through @kubernetes/client-node and real kubectl: the budget's
 * status from the disruption controller, 201 Success when a disruption is allowed (the pod then goes),
 * 429 with the DisruptionBudget cause when none is, 404 for a missing pod, the real 500 for a pod under
 * two budgets, dry runs, `kubectl create pdb` (protobuf), the 1.32 validation and the `get pdb` table.
 */
import * as k8s from '@kubernetes/client-node';
import { stringify } from 'yaml';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite({ settled: true });
const kubectl = suite.kubectl;
// Fixtures are written with --validate=false: field validation is not what this file tests, and kubectl then
// skips parsing the group-version's OpenAPI document before the write (15-20 ms CPU a run).
let core: k8s.CoreV1Api;
let policy: k8s.PolicyV1Api;

beforeAll(() => {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(suite.cluster.kubeconfigPath);
  core = kc.makeApiClient(k8s.CoreV1Api);
  policy = kc.makeApiClient(k8s.PolicyV1Api);
});

const pod = (name: string, app: string) =>
  stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, labels: { app } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27', readinessProbe: { exec: { command: ['true'] } } }] } });
const budget = (name: string, app: string, spec: Record<string, unknown>) =>
  stringify({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec: { selector: { matchLabels: { app } }, ...spec } });
const eviction = (name: string, deleteOptions?: Record<string, unknown>): k8s.V1Eviction => ({ apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' }, ...(deleteOptions ? { deleteOptions } : {}) });

/** The ApiException client-node throws, as code and parsed Status. */
async function refusal(call: Promise<unknown>): Promise<{ code: number; status: k8s.V1Status }> {
  try {
    await call;
  } catch (err) {
    const e = err as { code?: number; body?: unknown };
    return { code: e.code ?? 0, status: typeof e.body === 'string' ? JSON.parse(e.body) : e.body };
  }
  throw new Error('expected the request to fail');
}

async function setUp(app: string, pods: string[], spec: Record<string, unknown>): Promise<void> {
  for (const name of pods) await kubectl.ok(['apply', '--validate=false', '-f', '-'], pod(name, app));
  await kubectl.ok(['apply', '--validate=false', '-f', '-'], budget(`${app}-pdb`, app, spec));
  await suite.cluster.settle();
}

test('the disruption controller fills the budget status; an allowed eviction answers 201 Success and the pod goes', async () => {
  await setUp('web', ['web-a', 'web-b'], { minAvailable: 1 });
  const pdb = await policy.readNamespacedPodDisruptionBudget({ name: 'web-pdb', namespace: 'default' });
  expect(pdb.status).toMatchObject({ observedGeneration: 1, expectedPods: 2, currentHealthy: 2, desiredHealthy: 1, disruptionsAllowed: 1 });
  expect(pdb.status!.conditions!.map((c) => [c.type, c.status, c.reason])).toEqual([['DisruptionAllowed', 'True', 'SufficientPods']]);

  const reply = await suite.call('POST', '/api/v1/namespaces/default/pods/web-a/eviction', eviction('web-a'));
  expect(reply.code).toBe(201);
  expect(JSON.parse(reply.text)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 });
  await suite.cluster.settle();
  expect((await refusal(core.readNamespacedPod({ name: 'web-a', namespace: 'default' }))).code).toBe(404);
  const after = await policy.readNamespacedPodDisruptionBudget({ name: 'web-pdb', namespace: 'default' });
  expect(after.status).toMatchObject({ expectedPods: 1, currentHealthy: 1, desiredHealthy: 1, disruptionsAllowed: 0 });
  expect(after.status!.disruptedPods).toBeUndefined();
  expect(after.status!.conditions!.map((c) => [c.type, c.status, c.reason])).toEqual([['DisruptionAllowed', 'False', 'InsufficientPods']]);
});

test('an eviction the budget does not allow answers 429 with the DisruptionBudget cause, and the pod stays', async () => {
  const { code, status } = await refusal(core.createNamespacedPodEviction({ name: 'web-b', namespace: 'default', body: eviction('web-b') }));
  expect(code).toBe(429);
  expect(status).toEqual({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: "Cannot evict pod as it would violate the pod's disruption budget.",
    reason: 'TooManyRequests',
    details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget web-pdb needs 1 healthy pods and has 1 currently' }] },
    code: 429,
  });
  expect((await core.readNamespacedPod({ name: 'web-b', namespace: 'default' })).metadata!.deletionTimestamp).toBeUndefined();

  const file = JSON.stringify(eviction('web-b'));
  const r = await kubectl.run(['create', '--raw', '/api/v1/namespaces/default/pods/web-b/eviction', '-f', '-'], file);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("Error from server (TooManyRequests): Cannot evict pod as it would violate the pod's disruption budget.");
});

test('a missing pod is 404; a pod under two budgets gets the real 500', async () => {
  const missing = await refusal(core.createNamespacedPodEviction({ name: 'nope', namespace: 'default', body: eviction('nope') }));
  expect(missing.code).toBe(404);
  expect(missing.status).toMatchObject({ reason: 'NotFound', message: 'pods "nope" not found', details: { name: 'nope', kind: 'pods' } });

  await setUp('api', ['api-a', 'api-b'], { maxUnavailable: 1 });
  await kubectl.ok(['apply', '--validate=false', '-f', '-'], budget('api-second', 'api', { minAvailable: 0 }));
  const reply = await suite.call('POST', '/api/v1/namespaces/default/pods/api-a/eviction', eviction('api-a'));
  expect(reply.code).toBe(500);
  expect(JSON.parse(reply.text)).toEqual({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.',
    code: 500,
  });
});

test('maxUnavailable needs the pods’ controller: bare pods leave the budget in SyncFailed with nothing allowed', async () => {
  await kubectl.ok(['delete', 'pdb', 'api-second']);
  await suite.cluster.settle();
  const pdb = await policy.readNamespacedPodDisruptionBudget({ name: 'api-pdb', namespace: 'default' });
  expect(pdb.status!.disruptionsAllowed).toBe(0);
  expect(pdb.status!.conditions!.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([['DisruptionAllowed', 'False', 'SyncFailed', 'found no controller ref for pod "api-a"']]);
  const events = await kubectl.ok(['get', 'events', '--field-selector', 'involvedObject.name=api-pdb', '-o', 'jsonpath={range .items[*]}{.type} {.reason} {.message}{"\\n"}{end}']);
  expect(events).toContain('Warning NoControllerRef found no controller ref for pod "api-a"');
});

test('a dry-run eviction changes nothing; kubectl create --raw evicts when allowed', async () => {
  await setUp('dry', ['dry-a', 'dry-b'], { minAvailable: 1 });
  const before = await policy.readNamespacedPodDisruptionBudget({ name: 'dry-pdb', namespace: 'default' });
  const reply = await suite.call('POST', '/api/v1/namespaces/default/pods/dry-a/eviction?dryRun=All', eviction('dry-a'));
  expect(reply.code).toBe(201);
  await suite.cluster.settle();
  const pod = await core.readNamespacedPod({ name: 'dry-a', namespace: 'default' });
  expect(pod.metadata!.deletionTimestamp).toBeUndefined();
  expect((pod.status!.conditions ?? []).map((c) => c.type)).not.toContain('DisruptionTarget');
  expect((await policy.readNamespacedPodDisruptionBudget({ name: 'dry-pdb', namespace: 'default' })).status).toEqual(before.status);

  const out = await kubectl.ok(['create', '--raw', '/api/v1/namespaces/default/pods/dry-b/eviction', '-f', '-'], JSON.stringify(eviction('dry-b')));
  expect(JSON.parse(out)).toMatchObject({ kind: 'Status', status: 'Success', code: 201 });
  await suite.cluster.settle();
  expect((await kubectl.run(['get', 'pod', 'dry-b'])).stderr).toContain('pods "dry-b" not found');
});

test('kubectl create pdb (protobuf), the 1.32 validation and the get pdb table', async () => {
  expect(await kubectl.ok(['create', 'pdb', 'made', '--selector=app=made', '--min-available=50%'])).toBe('poddisruptionbudget.policy/made created\n');
  const both = await kubectl.run(['apply', '-f', '-'], budget('both', 'x', { minAvailable: 1, maxUnavailable: 1 }));
  expect(both.stderr).toMatch(/The PodDisruptionBudget "both" is invalid: spec: Invalid value: policy\.PodDisruptionBudgetSpec\{MinAvailable:\(\*intstr\.IntOrString\)\(0x[0-9a-f]+\), .*\}: minAvailable and maxUnavailable cannot be both set/);
  const percent = await kubectl.run(['apply', '-f', '-'], budget('percent', 'x', { maxUnavailable: '150%' }));
  expect(percent.stderr).toContain('The PodDisruptionBudget "percent" is invalid: spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%');
  const negative = await kubectl.run(['apply', '-f', '-'], budget('negative', 'x', { minAvailable: -1 }));
  expect(negative.stderr).toContain('The PodDisruptionBudget "negative" is invalid: spec.minAvailable: Invalid value: -1: must be greater than or equal to 0');
  await suite.cluster.settle();
  const table = await kubectl.ok(['get', 'pdb', 'dry-pdb', 'made']);
  expect(table.split('\n')[0]).toMatch(/^NAME\s+MIN AVAILABLE\s+MAX UNAVAILABLE\s+ALLOWED DISRUPTIONS\s+AGE$/);
  expect(table).toMatch(/\ndry-pdb\s+1\s+N\/A\s+0\s+\d+s\n/);
  expect(table).toMatch(/\nmade\s+50%\s+N\/A\s+0\s+\d+s\n/);
});

test('an unready pod may be evicted while the budget is met, even with no disruption left; AlwaysAllow always lets it go', async () => {
  await setUp('slow', ['slow-a', 'slow-b', 'slow-c'], { minAvailable: 2 });
  // slow-c's readiness probe starts failing: the kubelet reports it unready
  await kubectl.ok(['annotate', 'pod', 'slow-c', 'sim.kubeforge.io/readiness=fail']);
  await suite.cluster.settle();
  expect((await policy.readNamespacedPodDisruptionBudget({ name: 'slow-pdb', namespace: 'default' })).status).toMatchObject({ currentHealthy: 2, desiredHealthy: 2, disruptionsAllowed: 0 });
  expect((await refusal(core.createNamespacedPodEviction({ name: 'slow-a', namespace: 'default', body: eviction('slow-a') }))).code).toBe(429);
  const reply = await suite.call('POST', '/api/v1/namespaces/default/pods/slow-c/eviction', eviction('slow-c'));
  expect(reply.code).toBe(201);
  await suite.cluster.settle();
  expect((await refusal(core.readNamespacedPod({ name: 'slow-c', namespace: 'default' }))).code).toBe(404);
});

test('DeleteOptions the API server refuses are refused on the eviction path as on DELETE: 422 Invalid, and the pod stays', async () => {
  for (const name of ['opts-a', 'opts-b']) await kubectl.ok(['apply', '--validate=false', '-f', '-'], pod(name, 'opts'));
  await suite.cluster.settle();
  const unsupported = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    reason: 'Invalid',
    // StatusDetails.name is omitempty: the empty name of DeleteOptions is left out
    details: {
      group: 'meta.k8s.io',
      kind: 'DeleteOptions',
      causes: [{ reason: 'FieldValueNotSupported', message: 'Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"', field: 'propagationPolicy' }],
    },
    code: 422,
  };
  const deleted = await refusal(core.deleteNamespacedPod({ name: 'opts-a', namespace: 'default', propagationPolicy: 'Sideways' }));
  expect(deleted).toEqual({ code: 422, status: unsupported });
  const evicted = await refusal(core.createNamespacedPodEviction({ name: 'opts-a', namespace: 'default', body: eviction('opts-a', { propagationPolicy: 'Sideways' }) }));
  expect(evicted).toEqual({ code: 422, status: unsupported });

  const both = 'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set';
  const bothDeleted = await refusal(core.deleteNamespacedPod({ name: 'opts-b', namespace: 'default', propagationPolicy: 'Background', orphanDependents: false }));
  expect({ code: bothDeleted.code, reason: bothDeleted.status.reason, message: bothDeleted.status.message }).toEqual({ code: 422, reason: 'Invalid', message: both });
  const bothEvicted = await refusal(core.createNamespacedPodEviction({ name: 'opts-b', namespace: 'default', body: eviction('opts-b', { propagationPolicy: 'Background', orphanDependents: false }) }));
  expect({ code: bothEvicted.code, reason: bothEvicted.status.reason, message: bothEvicted.status.message }).toEqual({ code: 422, reason: 'Invalid', message: both });

  await suite.cluster.settle();
  for (const name of ['opts-a', 'opts-b']) {
    const kept = await core.readNamespacedPod({ name, namespace: 'default' });
    expect(kept.metadata!.deletionTimestamp).toBeUndefined();
    // As 1.32's addConditionAndDeletePod: the DisruptionTarget condition is written before the store's Delete refuses the options.
    expect((kept.status!.conditions ?? []).filter((c) => c.type === 'DisruptionTarget').map((c) => [c.status, c.reason])).toEqual([['True', 'EvictionByEvictionAPI']]);
  }
  // A good policy still evicts.
  const reply = await suite.call('POST', '/api/v1/namespaces/default/pods/opts-a/eviction', eviction('opts-a', { propagationPolicy: 'Foreground' }));
  expect(reply.code).toBe(201);
});
