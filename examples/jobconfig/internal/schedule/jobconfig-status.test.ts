/** JobConfig status from its Jobs (§4.1.2) and the Finished/Deleted diff (§4.7.3). */
import type { JobConfig } from '../../api/v1alpha1/jobconfig_types.js';
import type { Job, JobPhase } from '../../api/v1alpha1/job_types.js';
import { formerlyActiveJobs, jobConfigStatusFrom, stateOf } from './jobconfig-status.js';

function jobConfig(schedule?: JobConfig['spec']['schedule'], status?: JobConfig['status']): JobConfig {
  return {
    apiVersion: 'execution.furiko.io/v1alpha1',
    kind: 'JobConfig',
    metadata: { name: 'jc', namespace: 'default', uid: 'jc-uid' },
    spec: { template: { spec: { taskTemplate: {} } }, concurrency: { policy: 'Forbid' }, ...(schedule ? { schedule } : {}) },
    ...(status ? { status } : {}),
  };
}

function job(name: string, created: string, phase?: JobPhase, extra: { startTime?: string; scheduleTime?: number } = {}): Job {
  return {
    apiVersion: 'execution.furiko.io/v1alpha1',
    kind: 'Job',
    metadata: {
      name,
      namespace: 'default',
      uid: `${name}-uid`,
      creationTimestamp: `2024-01-15T${created}Z`,
      ...(extra.scheduleTime ? { annotations: { 'execution.furiko.io/schedule-time': String(extra.scheduleTime) } } : {}),
    },
    spec: {},
    ...(phase ? { status: { phase, state: 'Queued', condition: {}, createdTasks: 0, runningTasks: 0, ...(extra.startTime ? { startTime: extra.startTime } : {}) } } : {}),
  };
}

const cron = { cron: { expression: '*/5 * * * *' } };

describe('jobConfigStatusFrom', () => {
  it('is Ready/ReadyEnabled/ReadyDisabled with zero counts and no lists when there are no Jobs', () => {
    expect(jobConfigStatusFrom(jobConfig(), [])).toEqual({ state: 'Ready', active: 0, queued: 0 });
    expect(jobConfigStatusFrom(jobConfig(cron), [])).toEqual({ state: 'ReadyEnabled', active: 0, queued: 0 });
    expect(jobConfigStatusFrom(jobConfig({ ...cron, disabled: true }), [])).toEqual({ state: 'ReadyDisabled', active: 0, queued: 0 });
    expect(jobConfigStatusFrom(jobConfig({ disabled: true }), [])).toEqual({ state: 'Ready', active: 0, queued: 0 });
  });

  it('lists started unfinished Jobs as active and unstarted unfinished ones as queued, oldest first', () => {
    const jobs = [
      job('b', '10:10:00', 'Running', { startTime: '2024-01-15T10:10:00Z', scheduleTime: 1705313400 }),
      job('a', '10:05:00', 'Pending', { startTime: '2024-01-15T10:05:00Z', scheduleTime: 1705313100 }),
      job('q', '10:15:00', 'Queued', { scheduleTime: 1705313700 }),
      job('new', '10:16:00'), // no status yet: queued
      job('done', '10:00:00', 'Succeeded', { startTime: '2024-01-15T10:00:00Z', scheduleTime: 1705312800 }),
      job('rejected', '10:00:30', 'AdmissionError'),
    ];
    const status = jobConfigStatusFrom(jobConfig(cron), jobs);
    expect(status).toEqual({
      state: 'Executing',
      active: 2,
      activeJobs: [
        { uid: 'a-uid', name: 'a', creationTimestamp: '2024-01-15T10:05:00Z', phase: 'Pending', startTime: '2024-01-15T10:05:00Z' },
        { uid: 'b-uid', name: 'b', creationTimestamp: '2024-01-15T10:10:00Z', phase: 'Running', startTime: '2024-01-15T10:10:00Z' },
      ],
      queued: 2,
      queuedJobs: [
        { uid: 'q-uid', name: 'q', creationTimestamp: '2024-01-15T10:15:00Z', phase: 'Queued' },
        { uid: 'new-uid', name: 'new', creationTimestamp: '2024-01-15T10:16:00Z', phase: 'Queued' },
      ],
      lastScheduled: '2024-01-15T10:15:00Z',
      lastExecuted: '2024-01-15T10:10:00Z',
    });
  });

  it('is JobQueued when only queued Jobs exist', () => {
    expect(stateOf(jobConfig(cron), { active: 0, queued: 1 })).toBe('JobQueued');
  });

  it('never moves lastScheduled or lastExecuted backwards, and ad-hoc Jobs do not count as scheduled', () => {
    const previous = { state: 'ReadyEnabled' as const, active: 0, queued: 0, lastScheduled: '2024-01-15T10:20:00Z', lastExecuted: '2024-01-15T10:20:00Z' };
    const jobs = [job('adhoc', '10:30:00', 'Running', { startTime: '2024-01-15T10:30:00Z' }), job('old', '10:05:00', 'Succeeded', { startTime: '2024-01-15T10:05:00Z', scheduleTime: 1705313100 })];
    const status = jobConfigStatusFrom(jobConfig(cron, previous), jobs);
    expect(status.lastScheduled).toBe('2024-01-15T10:20:00Z');
    expect(status.lastExecuted).toBe('2024-01-15T10:30:00Z');
  });
});

describe('formerlyActiveJobs', () => {
  it('reports previously active Jobs that finished or disappeared, and nothing for still-active ones', () => {
    const ref = (name: string) => ({ uid: `${name}-uid`, name, creationTimestamp: '2024-01-15T10:00:00Z', phase: 'Running' as const });
    const jobs = [job('running', '10:00:00', 'Running', { startTime: '2024-01-15T10:00:00Z' }), job('ok', '10:00:00', 'Succeeded', { startTime: '2024-01-15T10:00:00Z' })];
    const diff = formerlyActiveJobs([ref('running'), ref('ok'), ref('gone')], jobs);
    expect(diff.finished.map((j) => j.metadata!.name)).toEqual(['ok']);
    expect(diff.deleted).toEqual(['gone']);
    expect(formerlyActiveJobs(undefined, jobs)).toEqual({ finished: [], deleted: [] });
  });
});
