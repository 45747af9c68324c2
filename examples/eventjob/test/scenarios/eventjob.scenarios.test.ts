/**
 * The EventJob acceptance scenarios of reference-operators.md §5.3 (kubeforge rules KF-EJ-1, KF-EJ-2).
 * EJ-1 … EJ-10 are one story on one local cluster (virtual clock from Monday 2024-01-15 10:00:00Z): the
 * built-in CronJob `hello` exists but the cluster's CronJob and Job controllers are off, and the test
 * plays the CronJob controller by emitting its Events. Further files prove the rest: create failures,
 * restarts, and the real built-in CronJob controller end to end.
 */
import { fileURLToPath } from 'node:url';
import type { CronJob, Job } from 'kubernetes-types/batch/v1.js';
import type { Event as CoreEvent } from 'kubernetes-types/core/v1.js';
import { BuiltinKinds, type Client } from 'kubeforge/runtime';
import { startTestEnv, type TestEnv } from 'kubeforge/testing';
import { EventJobKind, type EventJob, type Trigger } from '../../api/v1/eventjob_types.js';
import { setupControllers } from '../../internal/controller/index.js';

const crdFolder = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));
const ns = 'default';
const jobSpec = { template: { spec: { restartPolicy: 'OnFailure' as const, containers: [{ name: 'hello-event-job', image: 'busybox', args: ['/bin/sh', '-c', 'sleep 120s && echo "Hello World"'] }] } } };

let env: TestEnv;
let api: Client;
let helloUid: string;
let eventCounter = 0;

function anEventJob(name: string, trigger: Partial<Trigger>): EventJob {
  return {
    apiVersion: 'batch.kitagry.github.io/v1',
    kind: 'EventJob',
    metadata: { name, namespace: ns },
    spec: { trigger: trigger as Trigger, jobTemplate: { metadata: { labels: { from: 'template' }, annotations: { from: 'template' } }, spec: jobSpec } },
  };
}

/** emit(T, reason, message): an Event about `involved` (default the CronJob hello), created at clock time T. */
async function emit(at: string, reason: string, message: string, involved: CoreEvent['involvedObject'] = { apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', namespace: ns, uid: helloUid }): Promise<void> {
  await env.stepTo(at);
  await env.client.create<CoreEvent>({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { namespace: ns, name: `${involved.name}.${(++eventCounter).toString(16).padStart(16, '0')}` },
    involvedObject: involved,
    reason,
    message,
    type: 'Normal',
    source: { component: 'cronjob-controller' },
    count: 1,
  });
  await env.settle();
}

const jobsOf = async (owner: string): Promise<Job[]> => (await api.list(BuiltinKinds.Job, { namespace: ns })).filter((j) => j.metadata?.ownerReferences?.some((r) => r.kind === 'EventJob' && r.name === owner));
const statusOf = async (name: string) => (await api.get(EventJobKind, { namespace: ns, name })).status;

describe('EventJob (batch.kitagry.github.io/v1) — reference-operators.md §5.3', () => {
  beforeAll(async () => {
    env = await startTestEnv({ now: '2024-01-15T10:00:00Z', crdPaths: [crdFolder], authz: 'alwaysAllow', cluster: { controllers: { job: false, cronJob: false } } });
    await setupControllers(env.manager);
    await env.startManager();
    api = env.manager.apiReader();
    const hello = await env.client.create<CronJob>({ apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'hello', namespace: ns }, spec: { schedule: '* * * * *', jobTemplate: { spec: jobSpec } } });
    helloUid = hello.metadata!.uid!;
    await env.stepTo('2024-01-15T10:00:10Z');
    for (const ej of [
      anEventJob('eventjob-sample', { apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', type: 'Complete' }),
      anEventJob('on-fail', { apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', type: 'Failed' }),
      anEventJob('deployment-trigger', { apiVersion: 'apps/v1', kind: 'Deployment', name: 'hello', type: 'Complete' }),
      anEventJob('no-kind', { name: 'hello', type: 'Complete' }),
      anEventJob('succeeded-type', { apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', type: 'Succeeded' }),
    ])
      await env.client.create(ej);
    await env.settle();
  });

  afterAll(async () => {
    await env?.stop();
  });

  test('EJ-1 after creation: no reconcile effect — no Jobs, no status', async () => {
    expect(await api.list(BuiltinKinds.Job, { namespace: ns })).toEqual([]);
    expect(await statusOf('eventjob-sample')).toBeUndefined();
    expect(await statusOf('on-fail')).toBeUndefined();
  });

  test('EJ-2 a SuccessfulCreate Event makes no Job', async () => {
    await emit('2024-01-15T10:01:00Z', 'SuccessfulCreate', 'Created job hello-28421881');
    expect(await api.list(BuiltinKinds.Job, { namespace: ns })).toEqual([]);
  });

  test('EJ-3 SawCompletedJob "status: Complete" makes exactly one Job (template spec, no template metadata, owned); watermark 10:01:05Z', async () => {
    await emit('2024-01-15T10:01:05Z', 'SawCompletedJob', 'Saw completed job: hello-28421881, status: Complete');
    const jobs = await jobsOf('eventjob-sample');
    expect(jobs).toHaveLength(1);
    const [job] = jobs as [Job];
    expect(job.metadata?.name).toMatch(/^eventjob-sample-[a-z0-9]{5}$/);
    expect(job.spec?.template.spec?.containers).toEqual([expect.objectContaining(jobSpec.template.spec.containers[0])]);
    expect(job.spec?.template.spec?.restartPolicy).toBe('OnFailure');
    expect(job.metadata?.labels?.from).toBeUndefined();
    expect(job.metadata?.annotations?.from).toBeUndefined();
    const owner = await api.get(EventJobKind, { namespace: ns, name: 'eventjob-sample' });
    expect(job.metadata?.ownerReferences).toEqual([{ apiVersion: 'batch.kitagry.github.io/v1', kind: 'EventJob', name: 'eventjob-sample', uid: owner.metadata?.uid, controller: true, blockOwnerDeletion: true }]);
    expect(owner.status).toEqual({ last_scheduled_time: '2024-01-15T10:01:05Z' });

    // Later updates of that Job and of the EventJob (status and metadata) create no more Jobs.
    await env.stepTo('2024-01-15T10:01:20Z');
    await env.client.patchStatus(job, { status: { active: 1, startTime: '2024-01-15T10:01:06Z' } });
    await env.client.patch(owner, { metadata: { labels: { touched: 'yes' } } });
    await env.settle();
    expect(await jobsOf('eventjob-sample')).toHaveLength(1);
  });

  test('EJ-4 "status: Failed" makes no Job for eventjob-sample; on-fail gets exactly one, watermark 10:02:05Z', async () => {
    await emit('2024-01-15T10:02:05Z', 'SawCompletedJob', 'Saw completed job: hello-28421882, status: Failed');
    expect(await jobsOf('eventjob-sample')).toHaveLength(1);
    expect(await jobsOf('on-fail')).toHaveLength(1);
    expect(await statusOf('on-fail')).toEqual({ last_scheduled_time: '2024-01-15T10:02:05Z' });
    expect(await statusOf('eventjob-sample')).toEqual({ last_scheduled_time: '2024-01-15T10:01:05Z' });
  });

  test('EJ-5 another "status: Complete" makes one more Job (2 in total), watermark 10:03:05Z', async () => {
    await emit('2024-01-15T10:03:05Z', 'SawCompletedJob', 'Saw completed job: hello-28421883, status: Complete');
    expect(await jobsOf('eventjob-sample')).toHaveLength(2);
    expect(await statusOf('eventjob-sample')).toEqual({ last_scheduled_time: '2024-01-15T10:03:05Z' });
    expect(await jobsOf('on-fail')).toHaveLength(1);
  });

  test('EJ-8 Other object: a CronJob "other" and a Job named hello fire nothing, even after an EventJob edit [KF-EJ-2]', async () => {
    await emit('2024-01-15T10:06:00Z', 'SawCompletedJob', 'Saw completed job: other-28421886, status: Complete', { apiVersion: 'batch/v1', kind: 'CronJob', name: 'other', namespace: ns });
    expect(await jobsOf('eventjob-sample')).toHaveLength(2);
    await emit('2024-01-15T10:07:00Z', 'Completed', 'Job completed, status: Complete', { apiVersion: 'batch/v1', kind: 'Job', name: 'hello', namespace: ns });
    expect(await jobsOf('eventjob-sample')).toHaveLength(2);

    await env.stepTo('2024-01-15T10:07:30Z');
    const sample = await api.get(EventJobKind, { namespace: ns, name: 'eventjob-sample' });
    await env.client.patch(sample, { metadata: { labels: { edited: '10-07-30' } } });
    await env.settle();
    expect(await jobsOf('eventjob-sample')).toHaveLength(2);
    expect(await statusOf('eventjob-sample')).toEqual({ last_scheduled_time: '2024-01-15T10:03:05Z' });
  });

  test('EJ-9 Bad triggers are inert: admitted, and after EJ-3..EJ-5 they have no Jobs and no status', async () => {
    for (const name of ['deployment-trigger', 'no-kind', 'succeeded-type']) {
      expect(await jobsOf(name)).toEqual([]);
      expect(await statusOf(name)).toBeUndefined();
    }
  });

  test('EJ-9 Missing trigger.name, trigger.type or jobTemplate is rejected', async () => {
    await expect(env.client.create(anEventJob('no-name', { apiVersion: 'batch/v1', kind: 'CronJob', type: 'Complete' }))).rejects.toThrow('spec.trigger.name: Required value');
    await expect(env.client.create(anEventJob('no-type', { apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello' }))).rejects.toThrow('spec.trigger.type: Required value');
    const noTemplate = anEventJob('no-template', { name: 'hello', type: 'Complete' }) as unknown as { spec: Record<string, unknown> };
    delete noTemplate.spec.jobTemplate;
    await expect(env.client.create(noTemplate as unknown as EventJob)).rejects.toThrow('spec.jobTemplate: Required value');
  });

  test('EJ-10 New message form "condition: Complete" [KF-EJ-1]: one Job, watermark 10:08:05Z', async () => {
    await emit('2024-01-15T10:08:05Z', 'SawCompletedJob', 'Saw completed job: hello-28421888, condition: Complete');
    expect(await jobsOf('eventjob-sample')).toHaveLength(3);
    expect(await statusOf('eventjob-sample')).toEqual({ last_scheduled_time: '2024-01-15T10:08:05Z' });
  });

  test('EJ-14 kubectl get eventjobs prints NAME AGE', async () => {
    const out = await env.kubectl(['get', 'eventjobs', '-n', ns]);
    expect(out.stderr).toBe('');
    const lines = out.stdout.trim().split('\n');
    expect(lines[0]!.trim().split(/\s+/)).toEqual(['NAME', 'AGE']);
    expect(lines.slice(1).map((l) => l.trim().split(/\s+/)[0]).sort()).toEqual(['deployment-trigger', 'eventjob-sample', 'no-kind', 'on-fail', 'succeeded-type']);
  });
});
