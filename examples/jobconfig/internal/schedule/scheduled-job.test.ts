/** The scheduled Job's shape (§4.4): name, labels, annotations, finalizer, owner, type, template copy. */
import type { JobConfig } from '../../api/v1alpha1/jobconfig_types.js';
import { scheduledJobFor, scheduledJobName } from './scheduled-job.js';

const jobConfig: JobConfig = {
  apiVersion: 'execution.furiko.io/v1alpha1',
  kind: 'JobConfig',
  metadata: { name: 'jobconfig-sample', namespace: 'default', uid: 'jc-uid' },
  spec: {
    template: {
      metadata: { labels: { team: 'a' }, annotations: { 'app.kubernetes.io/name': 'jobconfig-sample' } },
      spec: { taskPendingTimeoutSeconds: 600, taskTemplate: { pod: { spec: { containers: [{ name: 'c', image: 'alpine' }] } } } },
    },
    concurrency: { policy: 'Forbid' },
    schedule: { cron: { expression: 'H/15 * * * *' } },
  },
};

describe('scheduledJobFor', () => {
  it('names the Job after the JobConfig and the schedule second', () => {
    expect(scheduledJobName('jobconfig-sample', Date.parse('2024-01-15T10:05:00Z'))).toBe('jobconfig-sample-1705313100');
  });

  it('builds the Job the CronController creates', () => {
    const job = scheduledJobFor(jobConfig, Date.parse('2024-01-15T10:05:00Z'), { 'option.user-name': 'Example User' });
    expect(job).toEqual({
      apiVersion: 'execution.furiko.io/v1alpha1',
      kind: 'Job',
      metadata: {
        name: 'jobconfig-sample-1705313100',
        namespace: 'default',
        labels: { team: 'a', 'execution.furiko.io/job-config-uid': 'jc-uid' },
        annotations: { 'app.kubernetes.io/name': 'jobconfig-sample', 'execution.furiko.io/schedule-time': '1705313100' },
        finalizers: ['execution.furiko.io/delete-dependents-finalizer'],
        ownerReferences: [{ apiVersion: 'execution.furiko.io/v1alpha1', kind: 'JobConfig', name: 'jobconfig-sample', uid: 'jc-uid', controller: true, blockOwnerDeletion: true }],
      },
      spec: {
        type: 'Scheduled',
        startPolicy: { concurrencyPolicy: 'Forbid' },
        template: jobConfig.spec.template.spec,
        substitutions: { 'option.user-name': 'Example User' },
      },
    });
    expect(job.spec.template).not.toBe(jobConfig.spec.template.spec); // a copy, not shared
  });

  it('leaves substitutions out when the JobConfig has no options', () => {
    expect(scheduledJobFor(jobConfig, 0, {}).spec.substitutions).toBeUndefined();
  });
});
