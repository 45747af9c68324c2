/**
 * The AT operator under its own generated ClusterRole (config/rbac/role.yaml) with the local cluster's RBAC
 * on: a full run (Pending → Job → Succeeded, and an immediate past-schedule run) is never refused, and
 * what it used stays inside what the RBAC markers grant.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { parse } from 'yaml';
import { BuiltinKinds, Manager, type KubeObject } from 'kubeforge/runtime';
import { startTestEnv, type TestEnv } from 'kubeforge/testing';
import { ATKind, type AT } from '../../api/v1/at_types.js';
import { setupControllers } from '../../internal/controller/index.js';

const crdFolder = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));
const rolePath = fileURLToPath(new URL('../../config/rbac/role.yaml', import.meta.url));
const identity = { user: 'system:serviceaccount:at-system:at-controller-manager' };

let env: TestEnv;
let admin: Manager;

beforeAll(async () => {
  // OwnerReferencesPermissionEnforcement on (as OpenShift runs it): the Jobs' blocking controller references need `update ats/finalizers`
  env = await startTestEnv({ now: '2024-01-15T10:00:00Z', crdPaths: [crdFolder], authz: 'rbac', identity, cluster: { controllers: { job: false }, enabledAdmissionPlugins: ['OwnerReferencesPermissionEnforcement'] } });
  admin = new Manager({ kubeConfig: env.cluster.kubeconfigPath, clock: env.cluster.clock, logger: pino({ level: 'silent' }) });
  const role = parse(readFileSync(rolePath, 'utf8')) as KubeObject;
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
});

function anAT(name: string, schedule: string): AT {
  return {
    apiVersion: 'batch.my.domain/v1',
    kind: 'AT',
    metadata: { name, namespace: 'default' },
    spec: { schedule, jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } } },
  };
}

test('AT runs under its generated ClusterRole: nothing denied, only granted rules used', async () => {
  await admin.client.create(anAT('at-sample', '2024-01-15T10:05:00Z'));
  await admin.client.create(anAT('late', '2024-01-15T09:00:00Z'));
  await env.settle();
  await env.stepTo('2024-01-15T10:05:00Z');
  const job = await admin.client.get(BuiltinKinds.Job, { namespace: 'default', name: 'at-sample-1705313100' });
  await admin.client.patchStatus(job, { status: { succeeded: 1 } });
  await env.settle();

  expect((await admin.client.get(ATKind, { namespace: 'default', name: 'at-sample' })).status?.status).toBe('Succeeded');
  expect((await admin.client.get(ATKind, { namespace: 'default', name: 'late' })).status?.status).toBe('Running');

  const report = env.cluster.leastPrivilegeReport(identity);
  expect(report.denied).toEqual([]);
  expect(report.used).toEqual(expect.arrayContaining(['list batch.my.domain/ats', 'watch batch.my.domain/ats', 'patch batch.my.domain/ats/status', 'create batch/jobs', 'list batch/jobs', 'watch batch/jobs', 'update batch.my.domain/ats/finalizers', 'delete batch/jobs']));
  // Every rule the operator never exercised in this run is one the spec's RBAC markers require (§2.1).
  const required = new Set(['create batch.my.domain/ats', 'delete batch.my.domain/ats', 'get batch.my.domain/ats', 'update batch.my.domain/ats', 'patch batch.my.domain/ats', 'get batch.my.domain/ats/status', 'update batch.my.domain/ats/status', 'get batch/jobs', 'delete batch/jobs', 'update batch/jobs', 'patch batch/jobs', 'get batch/jobs/status']);
  const unused = report.unusedGrants.flatMap((r) => r.verbs.flatMap((v) => (r.resources ?? []).map((res) => `${v} ${r.apiGroups?.[0] ?? ''}/${res}`)));
  for (const rule of unused) expect(required).toContain(rule);
});
