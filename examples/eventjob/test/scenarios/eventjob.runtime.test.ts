/**
 * EventJob beyond the one-story scenarios: EJ-13 (a failed Job create is retried, one Job, one watermark
 * write), the controller-start replay that fires a brand-new EventJob (§3.3 consequences), and the operator
 * reacting to the local cluster's real built-in batch/v1 CronJob controller, end to end, under its own
 * generated ClusterRole with RBAC on.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { parse } from 'yaml';
import type { CronJob } from 'kubernetes-types/batch/v1.js';
import type { Event as CoreEvent } from 'kubernetes-types/core/v1.js';
import { BuiltinKinds, Manager, type KubeObject } from 'kubeforge/runtime';
import { startTestEnv, type TestEnv, type TestEnvOptions } from 'kubeforge/testing';
import { EventJobKind, type EventJob } from '../../api/v1/eventjob_types.js';
import { setupControllers } from '../../internal/controller/index.js';

const crdFolder = fileURLToPath(new URL('../../config/crd/bases', import.meta.url));
const samples = (file: string) => parse(readFileSync(fileURLToPath(new URL(`../../config/samples/${file}`, import.meta.url)), 'utf8')) as KubeObject;
const ns = 'default';

let env: TestEnv | undefined;
afterEach(async () => {
  await env?.stop();
  env = undefined;
});

async function start(options: Partial<TestEnvOptions> = {}): Promise<TestEnv> {
  env = await startTestEnv({ now: '2024-01-15T10:00:00Z', crdPaths: [crdFolder], authz: 'alwaysAllow', cluster: { controllers: { job: false, cronJob: false } }, ...options });
  await setupControllers(env.manager);
  return env;
}

const sample = (): EventJob => ({ ...(samples('batch_v1_eventjob.yaml') as unknown as EventJob), metadata: { name: 'eventjob-sample', namespace: ns } });

function completedEvent(name: string, message: string): CoreEvent {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { namespace: ns, name },
    involvedObject: { apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', namespace: ns },
    reason: 'SawCompletedJob',
    message,
    type: 'Normal',
    source: { component: 'cronjob-controller' },
    count: 1,
  };
}

const eventJobJobs = async (e: TestEnv) => (await e.manager.apiReader().list(BuiltinKinds.Job, { namespace: ns })).filter((j) => j.metadata?.ownerReferences?.[0]?.kind === 'EventJob');

test('EJ-13 Create failure: the first Job create fails; after the retry exactly one Job exists and the watermark is written once', async () => {
  const e = await start();
  await e.startManager();
  await e.client.create(sample());
  await e.stepTo('2024-01-15T10:01:05Z');
  const removeFault = e.cluster.injectFault({ verb: 'create', resource: 'jobs', status: 500, times: 1 });
  await e.client.create(completedEvent('hello.1', 'Saw completed job: hello-28421881, status: Complete'));
  await e.settle();
  expect(await eventJobJobs(e)).toEqual([]);

  await e.stepTo('2024-01-15T10:01:10Z'); // the 1 s retry backoff has passed
  removeFault();
  expect(await eventJobJobs(e)).toHaveLength(1);
  const stored = await e.manager.apiReader().get(EventJobKind, { namespace: ns, name: 'eventjob-sample' });
  expect(stored.status).toEqual({ last_scheduled_time: '2024-01-15T10:01:05Z' });
  const statusWrites = e.cluster.requestLog().filter((r) => r.resource === 'eventjobs' && r.subresource === 'status' && ['patch', 'update'].includes(r.verb));
  expect(statusWrites).toHaveLength(1);
});

test('KF-EJ-1 as the original: a message ending in "status: Complete" without the ", " fires the trigger too', async () => {
  const e = await start();
  await e.startManager();
  await e.client.create(sample());
  await e.stepTo('2024-01-15T10:01:05Z');
  await e.client.create(completedEvent('hello.1', 'Job hello-28421881 finished with status: Complete'));
  await e.settle();
  expect(await eventJobJobs(e)).toHaveLength(1);
  expect((await e.manager.apiReader().get(EventJobKind, { namespace: ns, name: 'eventjob-sample' })).status).toEqual({ last_scheduled_time: '2024-01-15T10:01:05Z' });
  await e.stepTo('2024-01-15T10:02:05Z');
  await e.client.create(completedEvent('hello.2', 'Job hello-28421882 finished with status: Complete.'));
  await e.settle();
  expect(await eventJobJobs(e)).toHaveLength(1);
});

test('controller start replays existing Events: a brand-new EventJob fires once on the newest matching Event', async () => {
  const e = await start();
  await e.startManager();
  await e.stepTo('2024-01-15T10:01:05Z');
  await e.client.create(completedEvent('hello.1', 'Saw completed job: hello-28421881, status: Complete'));
  await e.stepTo('2024-01-15T10:02:05Z');
  await e.client.create(completedEvent('hello.2', 'Saw completed job: hello-28421882, status: Complete'));
  await e.settle();
  await e.stopManager();

  await e.stepTo('2024-01-15T10:05:00Z');
  await e.client.create(sample());
  await e.settle();
  expect(await eventJobJobs(e)).toEqual([]); // creation alone never reconciles

  await e.startManager();
  await e.stepTo('2024-01-15T10:05:10Z');
  expect(await eventJobJobs(e)).toHaveLength(1);
  expect((await e.manager.apiReader().get(EventJobKind, { namespace: ns, name: 'eventjob-sample' })).status).toEqual({ last_scheduled_time: '2024-01-15T10:02:05Z' });
});

test("end to end with the built-in CronJob controller, under the generated ClusterRole: one Job per hello run, nothing denied", async () => {
  const identity = { user: 'system:serviceaccount:eventjob-system:eventjob-controller-manager' };
  const e = await start({ authz: 'rbac', identity, cluster: {} });
  const admin = new Manager({ kubeConfig: e.cluster.kubeconfigPath, clock: e.cluster.clock, logger: pino({ level: 'silent' }) });
  try {
    const role = parse(readFileSync(fileURLToPath(new URL('../../config/rbac/role.yaml', import.meta.url)), 'utf8')) as KubeObject;
    await admin.client.create(role);
    await admin.client.create({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'manager-rolebinding' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role.metadata!.name },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: identity.user }],
    } as KubeObject);
    await e.startManager();
    await admin.client.create({ ...(samples('cronjob.yaml') as CronJob), metadata: { name: 'hello', namespace: ns } });
    await e.stepTo('2024-01-15T10:00:10Z');
    await admin.client.create(sample());
    await e.stepTo('2024-01-15T10:03:30Z');

    const completed = (await admin.client.list(BuiltinKinds.Event, { namespace: ns })).filter((ev) => ev.reason === 'SawCompletedJob' && ev.involvedObject.name === 'hello');
    expect(completed.map((ev) => ev.message)).toEqual(
      expect.arrayContaining(['hello-28421881', 'hello-28421882', 'hello-28421883'].map((job) => expect.stringMatching(new RegExp(`^Saw completed job: ${job}, (status|condition): Complete$`)))),
    );
    const jobs = await eventJobJobs(e);
    expect(jobs).toHaveLength(3);
    for (const job of jobs) expect(job.metadata?.name).toMatch(/^eventjob-sample-[a-z0-9]{5}$/);
    const newest = completed.map((ev) => ev.metadata!.creationTimestamp!).sort().at(-1);
    expect((await admin.client.get(EventJobKind, { namespace: ns, name: 'eventjob-sample' })).status).toEqual({ last_scheduled_time: newest });

    const report = e.cluster.leastPrivilegeReport(identity);
    expect(report.denied).toEqual([]);
    expect(report.used).toEqual(expect.arrayContaining(['list events', 'watch events', 'get batch.kitagry.github.io/eventjobs', 'patch batch.kitagry.github.io/eventjobs/status', 'create batch/jobs']));
  } finally {
    admin.close();
  }
});
