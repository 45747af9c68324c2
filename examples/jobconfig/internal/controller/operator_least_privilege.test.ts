/**
 * The whole operator (CronController, JobConfigController, JobQueueController, JobController and the
 * webhooks' JobConfig lookups) under the generated manager-role (config/rbac/role.yaml, from the
 * +kubebuilder:rbac markers), run as a plain user with the cluster's RBAC on: a scheduled Job and an ad-hoc
 * Job of a JobConfig run to the end, no request is denied, and every request made is one the role grants.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { KubeObject } from 'kubeforge/runtime';
import type { ClusterRole } from 'kubernetes-types/rbac/v1.js';
import { JobScenario } from '../../test/job-scenario.js';

const roleFile = fileURLToPath(new URL('../../config/rbac/role.yaml', import.meta.url));
const role = parse(readFileSync(roleFile, 'utf8')) as ClusterRole;
const user = 'system:serviceaccount:jobconfig-system:jobconfig-controller-manager';

/** `verb group/resource` strings the role grants, in the report's spelling (core group without prefix). */
function granted(clusterRole: ClusterRole): Set<string> {
  const out = new Set<string>();
  for (const rule of clusterRole.rules ?? [])
    for (const group of rule.apiGroups ?? [])
      for (const resource of rule.resources ?? []) for (const verb of rule.verbs) out.add(`${verb} ${group ? `${group}/` : ''}${resource}`);
  return out;
}

describe('least privilege of the whole operator under the generated manager-role', () => {
  let s: JobScenario;
  beforeAll(async () => {
    s = await JobScenario.start('10:00:00', { rbac: { user, role: role as unknown as KubeObject }, controllers: 'all' });
  });
  afterAll(async () => s?.stop());

  it('schedules, starts, runs and finishes Jobs with the role alone', async () => {
    const config = await s.createJobConfig('nightly', { concurrency: { policy: 'Allow' }, schedule: { cron: { expression: '*/5 * * * *' } } });
    await s.stepTo('10:05:00');
    const scheduled = `nightly-${Date.parse('2024-01-15T10:05:00Z') / 1000}`;
    expect((await s.job(scheduled)).status?.startTime).toBe('2024-01-15T10:05:00Z');
    await s.podEnds(`${scheduled}-gezdqo-0`, 'Succeeded', '10:05:30');
    await s.api.create({ apiVersion: 'execution.furiko.io/v1alpha1', kind: 'Job', metadata: { name: 'adhoc', namespace: 'default' }, spec: { configName: config.metadata!.name } } as KubeObject);
    await s.stepTo('10:06:00');
    expect((await s.job(scheduled)).status?.phase).toBe('Succeeded');
    expect((await s.job('adhoc')).status?.phase).toBe('Pending');
    expect((await s.jobConfig('nightly')).status).toMatchObject({ state: 'Executing', active: 1, lastScheduled: '2024-01-15T10:05:00Z' });

    const report = s.env.cluster.leastPrivilegeReport({ user });
    expect(report.denied).toEqual([]);
    const grants = granted(role);
    const beyondRole = report.used.filter((u) => !grants.has(u) && !/^get \/(api|apis|version|openapi)/.test(u));
    expect(beyondRole).toEqual([]);
    expect(report.used).toEqual(
      expect.arrayContaining([
        'create execution.furiko.io/jobs',
        'update execution.furiko.io/jobs/status',
        'update execution.furiko.io/jobconfigs/status',
        'watch execution.furiko.io/jobconfigs',
        'create pods',
        'create events',
      ]),
    );
  });
});
