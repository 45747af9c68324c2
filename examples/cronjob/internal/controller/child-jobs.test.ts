/** Classification, the owner index and history order of a CronJob's child Jobs (§1.4 steps 4 and 6). */
import type { Job } from 'kubernetes-types/batch/v1.js';
import { classifyJob, classifyJobs, indexJobByController, jobsBeyondLimit, parseRfc3339 } from './child-jobs.js';

function job(name: string, extra: { conditions?: Array<[string, string]>; start?: string; scheduledAt?: string; owner?: Record<string, unknown> } = {}): Job {
  return {
    metadata: {
      name,
      ...(extra.scheduledAt !== undefined ? { annotations: { 'batch.tutorial.kubebuilder.io/scheduled-at': extra.scheduledAt } } : {}),
      ...(extra.owner ? { ownerReferences: [extra.owner as never] } : {}),
    },
    status: { ...(extra.start ? { startTime: extra.start } : {}), conditions: (extra.conditions ?? []).map(([type, status]) => ({ type, status })) },
  };
}

describe('child Jobs', () => {
  it('classifies by the first true Complete or Failed condition, ignoring others', () => {
    expect(classifyJob(job('a'))).toBe('active');
    expect(classifyJob(job('b', { conditions: [['SuccessCriteriaMet', 'True'], ['Suspended', 'True']] }))).toBe('active');
    expect(classifyJob(job('c', { conditions: [['Complete', 'False'], ['Failed', 'True']] }))).toBe('failed');
    expect(classifyJob(job('d', { conditions: [['Complete', 'True'], ['Failed', 'True']] }))).toBe('successful');
  });

  it('takes the latest scheduled-at from any child and skips unparsable ones', () => {
    const result = classifyJobs([
      job('a', { scheduledAt: '2024-01-15T10:01:00Z', conditions: [['Complete', 'True']] }),
      job('b', { scheduledAt: '2024-01-15T10:03:00Z', conditions: [['Failed', 'True']] }),
      job('c', { scheduledAt: 'bogus' }),
      job('d', { scheduledAt: '' }),
    ]);
    expect(result.mostRecentScheduledMs).toBe(Date.parse('2024-01-15T10:03:00Z'));
    expect(result.unparsableAnnotations).toEqual([{ name: 'c', value: 'bogus' }]);
    expect(result.active.map((j) => j.metadata!.name)).toEqual(['c', 'd']);
    expect(parseRfc3339('2024-01-15T11:03:00+01:00')).toBe(Date.parse('2024-01-15T10:03:00Z'));
    expect(parseRfc3339('2024-01-15 10:03:00')).toBeUndefined();
  });

  it('indexes only Jobs controlled by a batch.tutorial.kubebuilder.io/v1 CronJob', () => {
    const ref = { apiVersion: 'batch.tutorial.kubebuilder.io/v1', kind: 'CronJob', name: 'cj', uid: 'u', controller: true };
    expect(indexJobByController(job('a', { owner: ref }))).toEqual(['cj']);
    expect(indexJobByController(job('b', { owner: { ...ref, controller: false } }))).toEqual([]);
    expect(indexJobByController(job('c', { owner: { ...ref, kind: 'Other' } }))).toEqual([]);
    expect(indexJobByController(job('d', { owner: { ...ref, apiVersion: 'batch.tutorial.kubebuilder.io/v2' } }))).toEqual([]);
    expect(indexJobByController(job('e'))).toEqual([]);
  });

  it('deletes Jobs without startTime first, then the oldest, keeping list order on ties', () => {
    const jobs = [job('new', { start: '2024-01-15T10:05:00Z' }), job('none1'), job('old', { start: '2024-01-15T10:01:00Z' }), job('none2'), job('old2', { start: '2024-01-15T10:01:00Z' })];
    expect(jobsBeyondLimit(jobs, 2).map((j) => j.metadata!.name)).toEqual(['none1', 'none2', 'old']);
    expect(jobsBeyondLimit(jobs, 5)).toEqual([]);
    expect(jobsBeyondLimit(jobs, 0)).toHaveLength(5);
  });
});
