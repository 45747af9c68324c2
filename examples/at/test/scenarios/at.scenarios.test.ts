/**
 * The AT acceptance scenarios of reference-operators.md §5.2 (kubeforge rules KF-AT-1..3), each on its own
 * local cluster on a virtual clock starting Monday 2024-01-15 10:00:00Z. The cluster's Job controller is
 * off: the test plays it and writes Job status itself (§0.3.8).
 */
import { fileURLToPath } from 'node:url';
import type { Job } from 'kubernetes-types/batch/v1.js';
import { BuiltinKinds, type Client } from 'kubeforge/runtime';
import { startTestEnv, type TestEnv } from 'kubeforge/testing';
import { ATKind, type AT } from '../../api/v1/at_types.js';
import { setupControllers } from '../../internal/controller/index.js';

const crdFolder = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));
const ns = 'default';

let env: TestEnv;
/** Reads straight from the API server (never a stale cache). */
let api: Client;

beforeEach(async () => {
  env = await startTestEnv({ now: '2024-01-15T10:00:00Z', crdPaths: [crdFolder], authz: 'alwaysAllow', cluster: { controllers: { job: false } } });
  await setupControllers(env.manager);
  await env.startManager();
  api = env.manager.apiReader();
});

afterEach(async () => {
  await env?.stop();
});

function anAT(name: string, schedule: string, jobSpec: Partial<NonNullable<Job['spec']>> = {}): AT {
  return {
    apiVersion: 'batch.my.domain/v1',
    kind: 'AT',
    metadata: { name, namespace: ns },
    spec: {
      schedule,
      jobTemplate: {
        metadata: { labels: { team: 'ops' }, annotations: { note: 'from-template' } },
        spec: { ...jobSpec, template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', image: 'busybox', args: ['/bin/sh', '-c', 'echo hi'] }] } } },
      },
    },
  };
}

async function create(at: AT): Promise<void> {
  await env.client.create(at);
  await env.settle();
}

const getAT = (name: string) => api.get(ATKind, { namespace: ns, name });
const jobs = () => api.list(BuiltinKinds.Job, { namespace: ns });
const getJob = (name: string) => api.get(BuiltinKinds.Job, { namespace: ns, name });

/** Plays the Job controller: merges `status` into the Job's status. */
async function setJobStatus(name: string, status: NonNullable<Job['status']>): Promise<void> {
  const job = await getJob(name);
  await env.client.patchStatus(job, { status });
  await env.settle();
}

describe('AT (batch.my.domain/v1) — reference-operators.md §5.2', () => {
  test('AT-1 Pending: no Job, status Pending, no lastScheduleTime, a requeue due at 10:05:00', async () => {
    await create(anAT('at-sample', '2024-01-15T10:05:00Z'));

    expect(await jobs()).toEqual([]);
    const at = await getAT('at-sample');
    expect(at.status).toEqual({ status: 'Pending' });
    expect(at.status?.lastScheduleTime).toBeUndefined();

    // The requeue is due exactly at 10:05:00: nothing happens one second before, the Job appears at it.
    await env.stepTo('2024-01-15T10:04:59Z');
    expect(await jobs()).toEqual([]);
    await env.stepTo('2024-01-15T10:05:00Z');
    expect((await jobs()).map((j) => j.metadata?.name)).toEqual(['at-sample-1705313100']);
  });

  test('AT-1 kubectl get ats shows NAME STATUS LASTSCHEDULETIME SCHDULE', async () => {
    await create(anAT('at-sample', '2024-01-15T10:05:00Z'));
    const out = await env.kubectl(['get', 'ats', '-n', ns]);
    expect(out.stderr).toBe('');
    const [header, row] = out.stdout.replace(/\n$/, '').split('\n') as [string, string];
    expect(header.trim().split(/\s+/)).toEqual(['NAME', 'STATUS', 'LASTSCHEDULETIME', 'SCHDULE']);
    // kubectl 1.32 prints a null cell as blank (the spec's "<none>" is client-side printing): cut by header offsets.
    const starts = ['NAME', 'STATUS', 'LASTSCHEDULETIME', 'SCHDULE'].map((h) => header.indexOf(h));
    const cells = starts.map((start, i) => row.slice(start, starts[i + 1]).trim());
    expect(cells).toEqual(['at-sample', 'Pending', '', '2024-01-15T10:05:00Z']);
  });

  test('AT-2 Due [KF-AT-1]: at 10:05:00 the Job is created with the annotation, template metadata and owner; status Running', async () => {
    await create(anAT('at-sample', '2024-01-15T10:05:00Z'));
    await env.stepTo('2024-01-15T10:05:00Z');

    const job = await getJob('at-sample-1705313100');
    expect(job.metadata?.annotations).toEqual({ note: 'from-template', 'my.domain/schduledTime': '2024-01-15T10:05:00Z' });
    expect(job.metadata?.labels).toMatchObject({ team: 'ops' });
    const at = await getAT('at-sample');
    expect(job.metadata?.ownerReferences).toEqual([
      { apiVersion: 'batch.my.domain/v1', kind: 'AT', name: 'at-sample', uid: at.metadata?.uid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(job.spec?.template.spec?.containers[0]?.name).toBe('hello');
    expect(at.status).toEqual({ status: 'Running', lastScheduleTime: '2024-01-15T10:05:00Z' });
  });

  test('AT-3 Succeeded: succeeded=1 (completions defaulted to 1) → Succeeded, lastScheduleTime unchanged', async () => {
    await create(anAT('at-sample', '2024-01-15T10:05:00Z'));
    await env.stepTo('2024-01-15T10:05:00Z');
    await env.stepTo('2024-01-15T10:05:40Z');
    expect((await getJob('at-sample-1705313100')).spec?.completions).toBe(1);
    await setJobStatus('at-sample-1705313100', { succeeded: 1 });

    expect((await getAT('at-sample')).status).toEqual({ status: 'Succeeded', lastScheduleTime: '2024-01-15T10:05:00Z' });
  });

  test('AT-4 Failed [KF-AT-3]: a Failed=True condition (succeeded 0) → Failed', async () => {
    await create(anAT('at-sample', '2024-01-15T10:05:00Z'));
    await env.stepTo('2024-01-15T10:05:40Z');
    await setJobStatus('at-sample-1705313100', { failed: 1, conditions: [{ type: 'Failed', status: 'True', reason: 'BackoffLimitExceeded', lastProbeTime: '2024-01-15T10:05:40Z', lastTransitionTime: '2024-01-15T10:05:40Z' }] });

    expect((await getAT('at-sample')).status).toEqual({ status: 'Failed', lastScheduleTime: '2024-01-15T10:05:00Z' });
  });

  test('AT-5 Past schedule: a Job at once, lastScheduleTime is the creation instant, not the schedule', async () => {
    await create(anAT('late', '2024-01-15T09:00:00Z'));

    const job = await getJob('late-1705309200');
    expect(job.metadata?.annotations?.['my.domain/schduledTime']).toBe('2024-01-15T10:00:00Z');
    expect((await getAT('late')).status).toEqual({ status: 'Running', lastScheduleTime: '2024-01-15T10:00:00Z' });
  });

  test('AT-6 Invalid input: non-date-time schedule, missing schedule, missing jobTemplate are rejected; nothing stored', async () => {
    const bad = anAT('bad', 'tomorrow');
    await expect(env.client.create(bad)).rejects.toThrow('spec.schedule in body must be of type date-time: "tomorrow"');

    const noSchedule = anAT('bad', '2024-01-15T10:05:00Z') as unknown as { spec: Record<string, unknown> };
    delete noSchedule.spec.schedule;
    await expect(env.client.create(noSchedule as unknown as AT)).rejects.toThrow('spec.schedule: Required value');

    const noTemplate = anAT('bad', '2024-01-15T10:05:00Z') as unknown as { spec: Record<string, unknown> };
    delete noTemplate.spec.jobTemplate;
    await expect(env.client.create(noTemplate as unknown as AT)).rejects.toThrow('spec.jobTemplate: Required value');

    await env.settle();
    expect(await api.list(ATKind, { namespace: ns })).toEqual([]);
    expect(await jobs()).toEqual([]);
  });

  test('AT-7 Completions: completions 3 — succeeded 2 → Running, succeeded 3 → Succeeded', async () => {
    await create(anAT('three', '2024-01-15T10:05:00Z', { completions: 3 }));
    await env.stepTo('2024-01-15T10:05:00Z');
    const name = 'three-1705313100';

    await setJobStatus(name, { succeeded: 2 });
    expect((await getAT('three')).status?.status).toBe('Running');
    await setJobStatus(name, { succeeded: 3 });
    expect((await getAT('three')).status?.status).toBe('Succeeded');
  });

  test('AT-8 Child deleted after success (faithful): the same name is created again at 10:10:00, Running', async () => {
    await create(anAT('at-sample', '2024-01-15T10:05:00Z'));
    await env.stepTo('2024-01-15T10:05:40Z');
    await setJobStatus('at-sample-1705313100', { succeeded: 1 });
    expect((await getAT('at-sample')).status?.status).toBe('Succeeded');

    await env.stepTo('2024-01-15T10:10:00Z');
    const old = await getJob('at-sample-1705313100');
    await env.client.delete(old, { propagationPolicy: 'Background' });
    await env.settle();

    const again = await getJob('at-sample-1705313100');
    expect(again.metadata?.uid).not.toBe(old.metadata?.uid);
    expect(again.metadata?.annotations?.['my.domain/schduledTime']).toBe('2024-01-15T10:10:00Z');
    expect((await getAT('at-sample')).status).toEqual({ status: 'Running', lastScheduleTime: '2024-01-15T10:10:00Z' });
  });
});

describe('AT — further rules of §2.2/§2.3 (not in the scenario list)', () => {
  test('a restarted controller re-lists a pending AT and still creates its Job at the schedule', async () => {
    await create(anAT('at-sample', '2024-01-15T10:05:00Z'));
    await env.stepTo('2024-01-15T10:01:00Z');
    await env.stopManager();
    await env.stepTo('2024-01-15T10:03:00Z');
    await env.startManager();
    await env.stepTo('2024-01-15T10:04:59Z');
    expect(await jobs()).toEqual([]);
    await env.stepTo('2024-01-15T10:05:00Z');
    expect((await getAT('at-sample')).status).toEqual({ status: 'Running', lastScheduleTime: '2024-01-15T10:05:00Z' });
  });

  test('moving the schedule into the future after a run: Pending with the old lastScheduleTime, then a second Job; the first stays', async () => {
    await create(anAT('at-sample', '2024-01-15T10:05:00Z'));
    await env.stepTo('2024-01-15T10:05:00Z');
    await setJobStatus('at-sample-1705313100', { succeeded: 1 });
    await env.stepTo('2024-01-15T10:10:00Z');

    const at = await getAT('at-sample');
    await env.client.patch(at, { spec: { schedule: '2024-01-15T10:20:00Z' } });
    await env.settle();
    expect((await getAT('at-sample')).status).toEqual({ status: 'Pending', lastScheduleTime: '2024-01-15T10:05:00Z' });

    await env.stepTo('2024-01-15T10:20:00Z');
    expect((await jobs()).map((j) => j.metadata?.name).sort()).toEqual(['at-sample-1705313100', 'at-sample-1705314000']);
    expect((await getAT('at-sample')).status).toEqual({ status: 'Running', lastScheduleTime: '2024-01-15T10:20:00Z' });
  });

  test('a Job of the child name made by someone else is adopted by name; without the annotation nothing is written', async () => {
    await env.client.create<Job>({
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'foreign-1705313100', namespace: ns },
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
    });
    await create(anAT('foreign', '2024-01-15T10:05:00Z'));
    await env.stepTo('2024-01-15T10:05:00Z');
    expect((await getAT('foreign')).status).toBeUndefined();
    expect((await jobs()).map((j) => j.metadata?.name)).toEqual(['foreign-1705313100']);

    const job = await getJob('foreign-1705313100');
    await env.client.patch(job, { metadata: { annotations: { 'my.domain/schduledTime': '2024-01-15T09:59:00Z' } } });
    await env.stepTo('2024-01-15T10:05:02Z'); // the reconcile retried with backoff now succeeds
    expect((await getAT('foreign')).status).toEqual({ status: 'Running', lastScheduleTime: '2024-01-15T09:59:00Z' });
  });
});
