import { afterEach, describe, expect, it } from '@jest/globals';
import { jobNameFor, sawCompletedJobMessage } from './cronjob-controller.js';
import { type ControllerFixture, shell, startFixture } from './testdata/cluster-fixture.js';

let fx: ControllerFixture;
afterEach(async () => fx?.stop());

function cronJob(name: string, schedule: string, spec: Record<string, unknown> = {}, script = 'echo hello'): any {
  return {
    metadata: { name },
    spec: {
      schedule,
      jobTemplate: { metadata: { labels: { app: name } }, spec: { template: { spec: { restartPolicy: 'Never', containers: [shell('hello', script)] } } } },
      ...spec,
    },
  };
}

const jobs = async () => (await fx.batch.listNamespacedJob({ namespace: 'default' })).items;
const events = async (name: string) =>
  (await fx.core.listNamespacedEvent({ namespace: 'default', fieldSelector: `involvedObject.name=${name}` })).items.map((e) => `${e.reason}: ${e.message}`);

describe('cronjob controller', () => {
  it('names Jobs <cronjob>-<scheduled minutes since epoch>', () => {
    expect(jobNameFor('hello', Date.parse('2024-01-15T10:01:00Z'))).toBe('hello-28421881');
  });

  it('SawCompletedJob uses the `status:` form the EventJob operator matches', () => {
    expect(sawCompletedJobMessage('hello-28421881', 'Complete')).toBe('Saw completed job: hello-28421881, status: Complete');
  });

  it('*/1 * * * *: three minutes later there are three Jobs, each seen completed', async () => {
    fx = await startFixture();
    await fx.batch.createNamespacedCronJob({ namespace: 'default', body: cronJob('hello', '*/1 * * * *') });
    await fx.cluster.settle();
    expect(await jobs()).toEqual([]);
    await fx.cluster.clock.stepTo('2024-01-15T10:03:30Z');
    await fx.cluster.settle();
    const list = await jobs();
    expect(list.map((j) => j.metadata!.name)).toEqual(['hello-28421881', 'hello-28421882', 'hello-28421883']);
    expect(list[0]!.metadata!.annotations).toEqual({ 'batch.kubernetes.io/cronjob-scheduled-timestamp': '2024-01-15T10:01:00Z' });
    expect(list[0]!.metadata!.labels).toMatchObject({ app: 'hello' });
    expect(list[0]!.metadata!.ownerReferences).toEqual([expect.objectContaining({ kind: 'CronJob', name: 'hello', controller: true, blockOwnerDeletion: true })]);
    expect(list.every((j) => (j.status!.conditions ?? []).some((c) => c.type === 'Complete' && c.status === 'True'))).toBe(true);
    const cj = await fx.batch.readNamespacedCronJob({ name: 'hello', namespace: 'default' });
    expect(cj.status!.active).toBeUndefined();
    expect(cj.status!.lastScheduleTime).toEqual(new Date('2024-01-15T10:03:00Z'));
    expect(cj.status!.lastSuccessfulTime).toEqual(new Date('2024-01-15T10:03:01Z'));
    expect(await events('hello')).toEqual([
      'SuccessfulCreate: Created job hello-28421881',
      'SawCompletedJob: Saw completed job: hello-28421881, status: Complete',
      'SuccessfulCreate: Created job hello-28421882',
      'SawCompletedJob: Saw completed job: hello-28421882, status: Complete',
      'SuccessfulCreate: Created job hello-28421883',
      'SawCompletedJob: Saw completed job: hello-28421883, status: Complete',
    ]);
    const ev = (await fx.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=hello' })).items[0]!;
    expect(ev).toMatchObject({ type: 'Normal', count: 1, source: { component: 'cronjob-controller' }, involvedObject: { kind: 'CronJob', apiVersion: 'batch/v1', name: 'hello', namespace: 'default' } });
    expect(ev.metadata!.name).toMatch(/^hello\.[0-9a-f]{16}$/);
  });

  it('history limit: only the newest successful Job is kept', async () => {
    fx = await startFixture();
    await fx.batch.createNamespacedCronJob({ namespace: 'default', body: cronJob('tidy', '* * * * *', { successfulJobsHistoryLimit: 1 }) });
    await fx.cluster.clock.stepTo('2024-01-15T10:03:30Z');
    await fx.cluster.settle();
    expect((await jobs()).map((j) => j.metadata!.name)).toEqual(['tidy-28421883']);
    expect(await events('tidy')).toContain('SuccessfulDelete: Deleted job tidy-28421881');
  });

  it('Forbid skips a run while the previous Job is active; Replace deletes it', async () => {
    fx = await startFixture();
    await fx.batch.createNamespacedCronJob({ namespace: 'default', body: cronJob('forbid', '* * * * *', { concurrencyPolicy: 'Forbid' }, 'sleep 120') });
    await fx.batch.createNamespacedCronJob({ namespace: 'default', body: cronJob('replace', '* * * * *', { concurrencyPolicy: 'Replace' }, 'sleep 90') });
    await fx.cluster.clock.stepTo('2024-01-15T10:02:30Z');
    await fx.cluster.settle();
    expect(await events('forbid')).toEqual([
      'SuccessfulCreate: Created job forbid-28421881',
      'JobAlreadyActive: Not starting job because prior execution is running and concurrency policy is Forbid',
    ]);
    expect(await events('replace')).toEqual([
      'SuccessfulCreate: Created job replace-28421881',
      'SuccessfulDelete: Deleted job replace-28421881',
      'SuccessfulCreate: Created job replace-28421882',
    ]);
    const replace = await fx.batch.readNamespacedCronJob({ name: 'replace', namespace: 'default' });
    expect(replace.status!.active!.map((a) => a.name)).toEqual(['replace-28421882']);
  });

  it('a repeated identical event is aggregated: count and lastTimestamp grow, the name stays', async () => {
    fx = await startFixture();
    await fx.batch.createNamespacedCronJob({ namespace: 'default', body: cronJob('busy', '* * * * *', { concurrencyPolicy: 'Forbid' }, 'sleep 600') });
    await fx.cluster.clock.stepTo('2024-01-15T10:04:30Z');
    await fx.cluster.settle();
    const items = (await fx.core.listNamespacedEvent({ namespace: 'default', fieldSelector: 'involvedObject.name=busy,reason=JobAlreadyActive' })).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ count: 3, firstTimestamp: new Date('2024-01-15T10:02:00Z'), lastTimestamp: new Date('2024-01-15T10:04:00Z') });
  });

  it('more than 100 missed times: TooManyMissedTimes, and only the most recent runs', async () => {
    fx = await startFixture({ controllers: { job: false } });
    await fx.batch.createNamespacedCronJob({ namespace: 'default', body: cronJob('sleepy', '* * * * *') });
    await fx.cluster.settle();
    await fx.cluster.clock.advanceTo('2024-01-15T13:00:30Z'); // one wake-up sees 180 missed minutes
    await fx.cluster.settle();
    expect((await jobs()).map((j) => j.metadata!.name)).toEqual([`sleepy-${Date.parse('2024-01-15T13:00:00Z') / 60000}`]);
    expect(await events('sleepy')).toEqual([
      'TooManyMissedTimes: too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew',
      `SuccessfulCreate: Created job sleepy-${Date.parse('2024-01-15T13:00:00Z') / 60000}`,
    ]);
  });

  it('an unfinished Job it controls but does not list as active is reported as UnexpectedJob', async () => {
    fx = await startFixture({ controllers: { job: false } });
    const cj = await fx.batch.createNamespacedCronJob({ namespace: 'default', body: cronJob('watcher', '0 0 1 1 *') });
    await fx.batch.createNamespacedJob({
      namespace: 'default',
      body: {
        metadata: { name: 'stray', ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'watcher', uid: cj.metadata!.uid!, controller: true }] },
        spec: { template: { spec: { restartPolicy: 'Never', containers: [shell('c', 'true')] } } },
      },
    });
    await fx.cluster.settle();
    expect(await events('watcher')).toEqual(['UnexpectedJob: Saw a job that the controller did not create or forgot: stray']);
  });

  it('suspend stops new Jobs; a missing active Job is reported', async () => {
    fx = await startFixture({ controllers: { job: false } });
    await fx.batch.createNamespacedCronJob({ namespace: 'default', body: cronJob('paused', '* * * * *') });
    await fx.cluster.clock.stepTo('2024-01-15T10:01:30Z');
    await fx.batch.deleteNamespacedJob({ name: 'paused-28421881', namespace: 'default', body: { propagationPolicy: 'Background' } });
    await fx.batch.patchNamespacedCronJob({ name: 'paused', namespace: 'default', body: [{ op: 'replace', path: '/spec/suspend', value: true }] });
    await fx.cluster.clock.stepTo('2024-01-15T10:05:30Z');
    await fx.cluster.settle();
    expect(await jobs()).toEqual([]);
    expect(await events('paused')).toEqual(['SuccessfulCreate: Created job paused-28421881', 'MissingJob: Active job went missing: paused-28421881']);
  });

  it('timeZone: the annotation carries the zone offset and @hourly fires on the hour there', async () => {
    fx = await startFixture({ controllers: { job: false } });
    await fx.batch.createNamespacedCronJob({ namespace: 'default', body: cronJob('zoned', '@hourly', { timeZone: 'Asia/Kolkata' }) });
    await fx.cluster.clock.stepTo('2024-01-15T11:00:00Z');
    await fx.cluster.settle();
    const list = await jobs();
    // Kolkata is UTC+05:30, so its full hours are at :30 UTC
    expect(list.map((j) => j.metadata!.name)).toEqual([`zoned-${Date.parse('2024-01-15T10:30:00Z') / 60000}`]);
    expect(list[0]!.metadata!.annotations!['batch.kubernetes.io/cronjob-scheduled-timestamp']).toBe('2024-01-15T16:00:00+05:30');
  });

  it('startingDeadlineSeconds: a run missed while the controller was off is not started late', async () => {
    fx = await startFixture({ controllers: { job: false } });
    await fx.batch.createNamespacedCronJob({ namespace: 'default', body: cronJob('late', '0 * * * *', { startingDeadlineSeconds: 10 }) });
    // advanceTo jumps straight past the deadline: the wake-up at 11:00:00.100 sees 11:00:30
    await fx.cluster.clock.advanceTo('2024-01-15T11:00:30Z');
    await fx.cluster.settle();
    expect(await jobs()).toEqual([]);
  });
});
