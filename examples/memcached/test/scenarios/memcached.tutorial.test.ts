/**
 * The kubebuilder book's Getting Started tutorial, walked against the local cluster on a virtual clock with
 * RBAC on: the operator runs as its ServiceAccount bound to its generated ClusterRole (config/rbac/role.yaml)
 * and gets the image from the environment config/manager/manager.yaml gives it; the user acts with real
 * kubectl as the cluster admin. Memcached → a Deployment it owns (security context, command, port) →
 * `Available=True` with the tutorial's message; size 1 → 3 scales the Deployment; size 4 is refused by the
 * CRD's OpenAPI validation; deletion runs the finalizer (Degraded conditions, the Warning Event) before
 * the object goes, and the Deployment is garbage-collected. Nothing the operator asks is denied.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Deployment } from 'kubernetes-types/apps/v1.js';
import pino from 'pino';
import { parse, parseAllDocuments } from 'yaml';
import { ApiError, BuiltinKinds, Manager, isNotFound, type KubeObject } from 'kubeforge/runtime';
import { startTestEnv, type KubectlResult, type TestEnv } from 'kubeforge/testing';
import { MemcachedKind, type Memcached } from '../../api/v1alpha1/memcached_types.js';
import { setupControllers } from '../../internal/controller/index.js';

const file = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));
const sample = file('config/samples/cache_v1alpha1_memcached.yaml');
const identity = { user: 'system:serviceaccount:memcached-system:memcached-controller-manager' };
const key = { namespace: 'default', name: 'memcached-sample' };

/** The manager container's env in config/manager/manager.yaml (what the operator runs with in the cluster). */
function managerEnv(): Record<string, string> {
  const docs = parseAllDocuments(readFileSync(file('config/manager/manager.yaml'), 'utf8')).map((d) => d.toJS() as KubeObject & { spec?: { template: { spec: { containers: Array<{ name: string; env?: Array<{ name: string; value: string }> }> } } } });
  const manager = docs.find((d) => d.kind === 'Deployment')!.spec!.template.spec.containers.find((c) => c.name === 'manager')!;
  return Object.fromEntries((manager.env ?? []).map((e) => [e.name, e.value]));
}

let env: TestEnv;
let admin: Manager;
const savedImage = process.env.MEMCACHED_IMAGE;

/** kubectl as the cluster admin (the user of the tutorial); a later --kubeconfig wins over env.kubectl's. */
const kubectl = (args: string[]): Promise<KubectlResult> => env.kubectl(['--kubeconfig', env.cluster.kubeconfigPath, ...args]);
const getMemcached = (): Promise<Memcached> => admin.client.get(MemcachedKind, key);
const getDeployment = (): Promise<Deployment> => admin.client.get(BuiltinKinds.Deployment, key);

beforeAll(async () => {
  Object.assign(process.env, managerEnv());
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

describe('the Getting Started tutorial (cache.example.com/v1alpha1 Memcached)', () => {
  test('the operator gets the image from config/manager/manager.yaml', () => {
    expect(managerEnv()).toEqual({ MEMCACHED_IMAGE: 'memcached:1.6.26-alpine' });
  });

  test('kubectl apply of the sample: the Memcached gets the finalizer and owns a Deployment of memcached:1.6.26-alpine', async () => {
    const applied = await kubectl(['apply', '-f', sample]);
    expect({ code: applied.code, stdout: applied.stdout, stderr: applied.stderr }).toEqual({ code: 0, stdout: 'memcached.cache.example.com/memcached-sample created\n', stderr: '' });
    await env.settle();

    const memcached = await getMemcached();
    expect(memcached.metadata?.finalizers).toEqual(['cache.example.com/finalizer']);
    const deployment = await getDeployment();
    expect(deployment.metadata?.ownerReferences).toEqual([
      { apiVersion: 'cache.example.com/v1alpha1', kind: 'Memcached', name: 'memcached-sample', uid: memcached.metadata!.uid, controller: true, blockOwnerDeletion: true },
    ]);
    const labels = { 'app.kubernetes.io/name': 'memcached', 'app.kubernetes.io/version': '1.6.26-alpine', 'app.kubernetes.io/managed-by': 'MemcachedController' };
    expect(deployment.spec?.replicas).toBe(1);
    expect(deployment.spec?.selector).toEqual({ matchLabels: labels });
    expect(deployment.spec?.template.metadata?.labels).toEqual(labels);
    const pod = deployment.spec!.template.spec!;
    expect(pod.securityContext).toEqual({ runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.containers).toHaveLength(1);
    expect(pod.containers[0]).toMatchObject({
      name: 'memcached',
      image: 'memcached:1.6.26-alpine',
      imagePullPolicy: 'IfNotPresent',
      command: ['memcached', '--memory-limit=64', '-o', 'modern', '-v'],
      ports: [{ containerPort: 11211, name: 'memcached', protocol: 'TCP' }],
      securityContext: { runAsNonRoot: true, runAsUser: 1001, allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
    });
  });

  test('condition Available=True, reason Reconciling, with the tutorial\'s message', async () => {
    const conditions = (await getMemcached()).status?.conditions ?? [];
    expect(conditions.map((c) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message }))).toEqual([
      { type: 'Available', status: 'True', reason: 'Reconciling', message: 'Deployment for custom resource (memcached-sample) with 1 replicas created successfully' },
    ]);
    const waited = await kubectl(['wait', '--for=condition=Available', 'memcached/memcached-sample', '--timeout=5s']);
    expect({ code: waited.code, stdout: waited.stdout }).toEqual({ code: 0, stdout: 'memcached.cache.example.com/memcached-sample condition met\n' });
  });

  test('size 1 → 3 (kubectl patch) scales the Deployment and the message says 3 replicas', async () => {
    const patched = await kubectl(['patch', 'memcached', 'memcached-sample', '--type', 'merge', '-p', '{"spec":{"size":3}}']);
    expect({ code: patched.code, stdout: patched.stdout }).toEqual({ code: 0, stdout: 'memcached.cache.example.com/memcached-sample patched\n' });
    await env.settle();
    expect((await getDeployment()).spec?.replicas).toBe(3);
    const available = (await getMemcached()).status?.conditions?.find((c) => c.type === 'Available');
    expect(available).toMatchObject({ status: 'True', reason: 'Reconciling', message: 'Deployment for custom resource (memcached-sample) with 3 replicas created successfully' });
  });

  test('size 4 is refused by the CRD: 422 with the OpenAPI message, through kubectl and through the client', async () => {
    const refused = await kubectl(['patch', 'memcached', 'memcached-sample', '--type', 'merge', '-p', '{"spec":{"size":4}}']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('The Memcached "memcached-sample" is invalid: spec.size: Invalid value: 4: spec.size in body should be less than or equal to 3\n');

    const tooBig: Memcached = { apiVersion: 'cache.example.com/v1alpha1', kind: 'Memcached', metadata: { name: 'too-big', namespace: 'default' }, spec: { size: 4, containerPort: 11211 } };
    const err = await admin.client.create(tooBig).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect({ code: (err as ApiError).code, reason: (err as ApiError).reason, message: (err as ApiError).status?.message }).toEqual({
      code: 422,
      reason: 'Invalid',
      message: 'Memcached.cache.example.com "too-big" is invalid: spec.size: Invalid value: 4: spec.size in body should be less than or equal to 3',
    });
    const zero = await kubectl(['patch', 'memcached', 'memcached-sample', '--type', 'merge', '-p', '{"spec":{"size":0}}']);
    expect(zero.stderr).toBe('The Memcached "memcached-sample" is invalid: spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1\n');
    expect((await getMemcached()).spec.size).toBe(3);
  });

  test('deletion runs the finalizer: Degraded conditions and the Warning Event, then the Memcached is gone and its Deployment collected', async () => {
    // A second finalizer (the test's) holds the object after the operator's is removed, to read what it wrote.
    const held = await getMemcached();
    await admin.client.patch(held, { metadata: { finalizers: ['cache.example.com/finalizer', 'test.example.com/hold'] } });
    const deleted = await kubectl(['delete', 'memcached', 'memcached-sample', '--wait=false']);
    expect(deleted.stdout).toBe('memcached.cache.example.com "memcached-sample" deleted\n');
    await env.settle();

    const finalizing = await getMemcached();
    expect(finalizing.metadata?.finalizers).toEqual(['test.example.com/hold']);
    const degraded = finalizing.status?.conditions?.find((c) => c.type === 'Degraded');
    expect(degraded).toMatchObject({ status: 'True', reason: 'Finalizing', message: 'Finalizer operations for custom resource memcached-sample name were successfully accomplished' });
    const events = await kubectl(['get', 'events', '--field-selector', 'reason=Deleting', '-o', 'jsonpath={range .items[*]}{.type} {.reason} {.involvedObject.kind}/{.involvedObject.name} {.message}{"\\n"}{end}']);
    expect(events.stdout).toBe('Warning Deleting Memcached/memcached-sample Custom Resource memcached-sample is being deleted from the namespace default\n');
    const newEvents = await kubectl(['get', 'events.events.k8s.io', '--field-selector', 'reason=Deleting', '-o', 'jsonpath={.items[0].action} {.items[0].reportingController}']);
    expect(newEvents.stdout).toBe('DeleteCR memcached-controller');

    await admin.client.patch(finalizing, { metadata: { finalizers: null } });
    await env.settle();
    expect(await getMemcached().then(() => 'still there', (e: unknown) => (isNotFound(e) ? 'NotFound' : e))).toBe('NotFound');
    expect(await getDeployment().then(() => 'still there', (e: unknown) => (isNotFound(e) ? 'NotFound' : e))).toBe('NotFound');
  });

  test('the operator was never denied, and used only what its generated role grants', () => {
    const report = env.cluster.leastPrivilegeReport(identity);
    expect(report.denied).toEqual([]);
    expect(report.used).toEqual(
      expect.arrayContaining([
        'list cache.example.com/memcacheds',
        'watch cache.example.com/memcacheds',
        'update cache.example.com/memcacheds',
        'update cache.example.com/memcacheds/status',
        'create apps/deployments',
        'update apps/deployments',
        'list apps/deployments',
        'watch apps/deployments',
        'create events.k8s.io/events',
      ]),
    );
  });
});
