/** The Job built for one run: name, metadata copied from the template, owner reference (§1.4 step 13). */
import type { CronJob } from '../../api/v1/cronjob_types.js';
import { goTimeString, jobForRun } from './job-for-run.js';

const cronJob: CronJob = {
  apiVersion: 'batch.tutorial.kubebuilder.io/v1',
  kind: 'CronJob',
  metadata: { name: 'meta', namespace: 'team-a', uid: 'uid-1' },
  spec: {
    schedule: '*/1 * * * *',
    jobTemplate: {
      metadata: { labels: { app: 'hello' }, annotations: { team: 'a', 'batch.tutorial.kubebuilder.io/scheduled-at': 'bogus' } },
      spec: { backoffLimit: 2, template: { spec: { containers: [{ name: 'c', image: 'busybox' }], restartPolicy: 'OnFailure' } } },
    },
  },
};

describe('jobForRun (CJ-20 Template metadata)', () => {
  const job = jobForRun(cronJob, Date.parse('2024-01-15T10:01:00Z'));

  it('names the Job <cronjob>-<unix seconds> in the CronJob namespace', () => {
    expect(job.metadata).toMatchObject({ name: 'meta-1705312860', namespace: 'team-a' });
  });

  it('copies labels and annotations; the controller scheduled-at wins', () => {
    expect(job.metadata!.labels).toEqual({ app: 'hello' });
    expect(job.metadata!.annotations).toEqual({ team: 'a', 'batch.tutorial.kubebuilder.io/scheduled-at': '2024-01-15T10:01:00Z' });
  });

  it('deep-copies the template spec and sets a controller owner reference', () => {
    expect(job.spec).toEqual(cronJob.spec.jobTemplate.spec);
    expect(job.spec).not.toBe(cronJob.spec.jobTemplate.spec);
    job.spec!.template.spec!.containers[0]!.image = 'changed';
    expect(cronJob.spec.jobTemplate.spec!.template.spec!.containers[0]!.image).toBe('busybox');
    expect(job.metadata!.ownerReferences).toEqual([{ apiVersion: 'batch.tutorial.kubebuilder.io/v1', kind: 'CronJob', name: 'meta', uid: 'uid-1', controller: true, blockOwnerDeletion: true }]);
  });

  it('formats times as Go time.String() for the MissedSchedule message', () => {
    expect(goTimeString(Date.parse('2024-01-15T10:01:00Z'))).toBe('2024-01-15 10:01:00 +0000 UTC');
  });
});
