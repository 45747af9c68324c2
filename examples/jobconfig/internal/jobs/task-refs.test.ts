/** TaskRefs from Pods and their merge with the recorded ones (reference-operators spec §4.7.1). */
import type { Pod } from 'kubernetes-types/core/v1.js';
import { t, task } from '../../test/job-fixtures.js';
import { mergeTaskRefs, taskRefFromPod, withDeletedStatus } from './task-refs.js';

function pod(name: string, status: Pod['status'] = {}, deleting = false): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      creationTimestamp: t('10:00:00'),
      labels: { 'execution.furiko.io/task-retry-index': '2' },
      annotations: { 'execution.furiko.io/task-parallel-index': '{"indexKey":"a"}' },
      ...(deleting ? { deletionTimestamp: t('10:00:30') } : {}),
    },
    spec: { containers: [{ name: 'c' }] },
    status,
  };
}
const running = (at: string): Pod['status'] => ({ phase: 'Running', containerStatuses: [{ name: 'c', image: 'i', imageID: '', ready: true, restartCount: 0, state: { running: { startedAt: t(at) } } }] });
const ended = (phase: string, exitCode: number, at: string, reason = 'Error'): Pod['status'] => ({
  phase,
  containerStatuses: [{ name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode, reason, finishedAt: t(at) } } }],
});

describe('taskRefFromPod', () => {
  it('reads a pending Pod as Starting with its retry and parallel index', () => {
    expect(taskRefFromPod(pod('p'))).toEqual({ name: 'p', creationTimestamp: t('10:00:00'), retryIndex: 2, parallelIndex: { indexKey: 'a' }, status: { state: 'Starting' }, containerStates: [] });
  });

  it('reads running and terminal Pods, with container start and finish times', () => {
    expect(taskRefFromPod(pod('p', running('10:00:03')))).toMatchObject({ status: { state: 'Running' }, runningTimestamp: t('10:00:03') });
    const failed = taskRefFromPod(pod('p', ended('Failed', 1, '10:00:20')));
    expect(failed).toMatchObject({ finishTimestamp: t('10:00:20'), status: { state: 'Terminated', result: 'Failed', reason: 'Error', message: 'Container exited with status 1' } });
    expect(failed.containerStates).toEqual([{ exitCode: 1, reason: 'Error' }]);
    expect(taskRefFromPod(pod('p', ended('Succeeded', 0, '10:00:20', 'OOMKilled'))).status.result).toBe('Failed');
  });

  it('finishes a terminal Pod without container times at its start time, else its creation', () => {
    expect(taskRefFromPod(pod('p', { phase: 'Failed', startTime: t('10:00:02') })).finishTimestamp).toBe(t('10:00:02'));
    expect(taskRefFromPod(pod('p', { phase: 'Failed' })).finishTimestamp).toBe(t('10:00:00'));
  });

  it('ignores container times at the Unix epoch and falls back to the Pod start time', () => {
    const epoch = '1970-01-01T00:00:00Z';
    const status: Pod['status'] = {
      phase: 'Failed',
      startTime: t('10:00:02'),
      containerStatuses: [{ name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode: 1, reason: 'Error', startedAt: epoch, finishedAt: epoch } } }],
    };
    const ref = taskRefFromPod(pod('p', status));
    expect(ref.finishTimestamp).toBe(t('10:00:02'));
    expect(ref.runningTimestamp).toBeUndefined();
  });

  it('finishes a Pod failed by DeadlineExceeded with no container termination at start + activeDeadlineSeconds', () => {
    const deadlinePod = pod('p', { phase: 'Failed', reason: 'DeadlineExceeded', message: 'Pod was active on the node longer than the specified deadline', startTime: t('10:00:02') });
    deadlinePod.spec!.activeDeadlineSeconds = 90;
    expect(taskRefFromPod(deadlinePod).finishTimestamp).toBe(t('10:01:32'));
  });

  it('reads a termination seen only in lastState (finish time, and OOMKilled as Failed)', () => {
    const status: Pod['status'] = {
      phase: 'Succeeded',
      startTime: t('10:00:02'),
      containerStatuses: [{ name: 'c', image: 'i', imageID: '', ready: false, restartCount: 1, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 137, reason: 'OOMKilled', finishedAt: t('10:00:40') } } }],
    };
    const ref = taskRefFromPod(pod('p', status));
    expect(ref.finishTimestamp).toBe(t('10:00:40'));
    expect(ref.status.result).toBe('Failed');
  });

  it('reads a Pod being deleted as Killing until it finishes', () => {
    expect(taskRefFromPod(pod('p', running('10:00:03'), true)).status.state).toBe('Killing');
  });
});

describe('mergeTaskRefs', () => {
  it('keeps a running time the Pod no longer shows, and records a finished status as the deleted status', () => {
    const before = [task('p', { created: '10:00:00', running: '10:00:03' })];
    const [merged] = mergeTaskRefs(before, [pod('p', ended('Succeeded', 0, '10:00:10', 'Completed'))], t('10:00:11'));
    expect(merged).toMatchObject({ runningTimestamp: t('10:00:03'), finishTimestamp: t('10:00:10'), status: { state: 'Terminated', result: 'Succeeded' } });
    expect(merged!.deletedStatus).toEqual(merged!.status);
  });

  it('gives a vanished task its recorded deleted status, or DeletedFinalStateUnknown, finishing now', () => {
    const killed = withDeletedStatus([task('p', { created: '10:00:00' })], 'p', { state: 'Terminated', result: 'Killed', reason: 'PendingTimeout', message: 'm' });
    expect(mergeTaskRefs(killed, [], t('10:15:00'))[0]).toMatchObject({ finishTimestamp: t('10:15:00'), status: { state: 'Terminated', result: 'Killed', reason: 'PendingTimeout', message: 'm' } });
    expect(mergeTaskRefs([task('q', { created: '10:00:00' })], [], t('10:15:00'))[0]).toMatchObject({ finishTimestamp: t('10:15:00'), status: { state: 'DeletedFinalStateUnknown' } });
  });

  it('does not overwrite a recorded deleted status', () => {
    const first = withDeletedStatus([task('p', { created: '10:00:00' })], 'p', { state: 'Terminated', result: 'Killed', reason: 'A' });
    expect(withDeletedStatus(first, 'p', { state: 'Terminated', result: 'Killed', reason: 'B' })[0]!.deletedStatus?.reason).toBe('A');
  });

  it('sorts by creation time, then name', () => {
    const refs = mergeTaskRefs([task('b', { created: '10:00:01' }), task('c', { created: '10:00:00' }), task('a', { created: '10:00:01' })], [], t('10:01:00'));
    expect(refs.map((r) => r.name)).toEqual(['c', 'a', 'b']);
  });
});
