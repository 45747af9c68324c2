/**
 * The JobController and JobQueueController under the generated manager-role (config/rbac/role.yaml), run as
 * a plain user with the cluster's RBAC on: a Job's whole life — start, task, retry, kill, TTL deletion with
 * the finalizer — needs no permission the role lacks.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { KubeObject } from 'kubeforge/runtime';
import { iso, JobScenario, sampleTemplate } from '../../test/job-scenario.js';

const roleFile = fileURLToPath(new URL('../../config/rbac/role.yaml', import.meta.url));
const user = 'jobconfig-manager';

describe('least privilege under the generated manager-role', () => {
  let s: JobScenario;
  beforeAll(async () => {
    s = await JobScenario.start('10:00:00', { rbac: { user, role: parse(readFileSync(roleFile, 'utf8')) as KubeObject } });
  });
  afterAll(async () => s?.stop());

  it('runs, retries, kills and deletes a Job with the role alone', async () => {
    await s.createJob('limited', { template: sampleTemplate({ maxAttempts: 2 }), ttlSecondsAfterFinished: 60 });
    await s.podEnds('limited-gezdqo-0', 'Failed', '10:00:10');
    await s.podRuns('limited-gezdqo-1', '10:00:11');
    await s.updateJobSpec('limited', { killTimestamp: iso('10:01:00') });
    await s.stepTo('10:01:00');
    expect((await s.job('limited')).status?.phase).toBe('Killed');
    await s.stepTo('10:02:00');
    expect(await s.jobExists('limited')).toBe(false);

    const report = s.env.cluster.leastPrivilegeReport({ user });
    expect(report.denied).toEqual([]);
    expect(report.used).toEqual(
      expect.arrayContaining([
        'create pods',
        'delete pods',
        'update execution.furiko.io/jobs/status',
        'delete execution.furiko.io/jobs',
        'update execution.furiko.io/jobs',
        'create events',
      ]),
    );
  });
});
