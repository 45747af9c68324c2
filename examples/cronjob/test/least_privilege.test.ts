/**
 * The operator runs under its generated ClusterRole (config/rbac/role.yaml, from the +kubebuilder:rbac
 * markers) with the local cluster's RBAC on: through creation, history cleanup and Replace, no request is
 * denied, and every request it made is covered by the role.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { parse } from 'yaml';
import { Manager, type KubeObject } from 'kubeforge/runtime';
import { CronJobHarness, unix } from './harness.js';

const roleFile = fileURLToPath(new URL('../config/rbac/role.yaml', import.meta.url));
const user = 'system:serviceaccount:project-system:project-controller-manager';

describe('least privilege under the generated manager-role', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({
      start: '10:00:30',
      rbacUser: user,
      async beforeStart(env) {
        // Runs before the harness exists: a short-lived admin client grants the role.
        const admin = new Manager({ kubeConfig: env.cluster.kubeconfigPath, clock: env.cluster.clock, logger: pino({ level: 'silent' }) });
        try {
          await admin.client.create(parse(readFileSync(roleFile, 'utf8')) as KubeObject);
          await admin.client.create({
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'ClusterRoleBinding',
            metadata: { name: 'manager-rolebinding' },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'manager-role' },
            subjects: [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.k8s.io' }],
          } as KubeObject);
        } finally {
          admin.close();
        }
      },
    });
  });
  afterAll(async () => h?.stop());

  it('needs nothing beyond the role, and uses only what the role grants', async () => {
    await h.createCronJob('limited', { concurrencyPolicy: 'Replace', failedJobsHistoryLimit: 0 });
    await h.stepTo('10:01:00');
    await h.stepTo('10:01:10');
    await h.setJobStatus(`limited-${unix('10:01')}`, 'Failed');
    await h.stepTo('10:02:00');
    await h.stepTo('10:03:00'); // Replace deletes the active 10:02 Job
    expect(await h.jobNames()).toEqual([`limited-${unix('10:03')}`]);

    const report = h.env.cluster.leastPrivilegeReport({ user });
    expect(report.denied).toEqual([]);
    const granted = new Set([
      ...['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'].flatMap((v) => [`${v} batch.tutorial.kubebuilder.io/cronjobs`, `${v} batch/jobs`]),
      ...['get', 'update', 'patch'].map((v) => `${v} batch.tutorial.kubebuilder.io/cronjobs/status`),
      'update batch.tutorial.kubebuilder.io/cronjobs/finalizers',
      'get batch/jobs/status',
    ]);
    const discovery = report.used.filter((u) => !granted.has(u));
    expect(discovery.every((u) => /^get \/(api|apis|version|openapi)/.test(u))).toBe(true);
    // What the controller really needed: reads and watches of both kinds, status writes, Job create/delete.
    expect(report.used.filter((u) => granted.has(u)).sort()).toEqual(
      [
        'get batch.tutorial.kubebuilder.io/cronjobs',
        'list batch.tutorial.kubebuilder.io/cronjobs',
        'watch batch.tutorial.kubebuilder.io/cronjobs',
        'update batch.tutorial.kubebuilder.io/cronjobs/status',
        'list batch/jobs',
        'watch batch/jobs',
        'create batch/jobs',
        'delete batch/jobs',
      ].sort(),
    );
  });
});
