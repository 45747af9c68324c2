/** The AT's child Job as pure functions: name, construction from the template, and the status it implies. */
import type { Job } from 'kubernetes-types/batch/v1.js';
import type { AT } from '../../api/v1/at_types.js';
import { childJobName, constructChildJob, statusFromChildJob } from './at_child_job.js';

const at: AT = {
  apiVersion: 'batch.my.domain/v1',
  kind: 'AT',
  metadata: { name: 'at-sample', namespace: 'team' },
  spec: {
    schedule: '2024-01-15T19:05:00+09:00',
    jobTemplate: { metadata: { labels: { a: '1' }, annotations: { b: '2' } }, spec: { backoffLimit: 2, template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } } },
  },
};

const job = (over: Partial<Job>): Job => ({ apiVersion: 'batch/v1', kind: 'Job', metadata: { annotations: { 'my.domain/schduledTime': '2024-01-15T10:05:00Z' } }, spec: { template: {} }, ...over });

describe('childJobName', () => {
  it('is <name>-<schedule as Unix seconds>, whatever the offset the schedule is written in', () => {
    expect(childJobName(at)).toBe('at-sample-1705313100');
  });
});

describe('constructChildJob', () => {
  it('copies template labels, annotations and spec, and records the creation instant (not the schedule)', () => {
    const built = constructChildJob(at, Date.parse('2024-01-15T10:07:30.250Z'));
    expect(built.metadata).toEqual({ name: 'at-sample-1705313100', namespace: 'team', labels: { a: '1' }, annotations: { b: '2', 'my.domain/schduledTime': '2024-01-15T10:07:30Z' } });
    expect(built.spec).toEqual(at.spec.jobTemplate.spec);
    expect(built.spec).not.toBe(at.spec.jobTemplate.spec);
  });
});

describe('statusFromChildJob', () => {
  it('reads lastScheduleTime from the annotation and reports Running while not done', () => {
    expect(statusFromChildJob(job({ status: { active: 1 } }))).toEqual({ lastScheduleTime: '2024-01-15T10:05:00Z', status: 'Running' });
  });

  it('KF-AT-2: nil completions count as 1; succeeded >= completions is Succeeded', () => {
    expect(statusFromChildJob(job({ status: { succeeded: 1 } })).status).toBe('Succeeded');
    expect(statusFromChildJob(job({ spec: { completions: 3, template: {} }, status: { succeeded: 2 } })).status).toBe('Running');
    expect(statusFromChildJob(job({ spec: { completions: 3, template: {} }, status: { succeeded: 4 } })).status).toBe('Succeeded');
  });

  it('KF-AT-3: a Failed=True condition wins over the succeeded count', () => {
    expect(statusFromChildJob(job({ status: { succeeded: 1, conditions: [{ type: 'Failed', status: 'True' }] } })).status).toBe('Failed');
    expect(statusFromChildJob(job({ status: { conditions: [{ type: 'Failed', status: 'False' }] } })).status).toBe('Running');
  });

  it('fails with the reference messages when the annotation is missing or not RFC 3339', () => {
    expect(() => statusFromChildJob(job({ metadata: {} }))).toThrow('Failed to get my.domain/schduledTime from childJob');
    expect(() => statusFromChildJob(job({ metadata: { annotations: { 'my.domain/schduledTime': '2024-01-15' } } }))).toThrow('Failed to parse time annotation');
  });
});
