/**
 * Furiko's configuration on the local cluster, wired as cmd/main.ts wires it (furikoBootstrap with a
 * `--config` file naming the dynamic ConfigMap and Secret): the webhooks and controllers registered by the
 * scaffold's setup functions follow the ConfigMap as it is created, changed and broken, and the Secret's
 * fields over it, without a restart.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigMap, Secret } from 'kubernetes-types/core/v1.js';
import { BuiltinKinds, parseManagerFlags } from 'kubeforge/runtime';
import { JobConfigKind, type JobConfig } from '../../api/v1alpha1/jobconfig_types.js';
import { JobKind, type Job } from '../../api/v1alpha1/job_types.js';
import { startFurikoEnv, type FurikoEnv } from '../../test/furiko-env.js';
import { job, jobConfig, rejection } from '../../test/webhook-env.js';
import { sharedFurikoConfig } from './config.js';
import type { DynamicConfigWatcher } from './dynamic-config-watcher.js';
import { furikoBootstrap } from './startup.js';

const CONFIG_MAP = { namespace: 'default', name: 'furiko-dynamic' };
let furiko: FurikoEnv;
let watcher: DynamicConfigWatcher;
let folder: string;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'furiko-bootstrap-'));
  const file = join(folder, 'config.yaml');
  writeFileSync(file, `apiVersion: config.furiko.io/v1alpha1\nkind: ExecutionControllerConfig\ndynamicConfigs:\n  configMap:\n    namespace: ${CONFIG_MAP.namespace}\n    name: ${CONFIG_MAP.name}\n  secret:\n    namespace: ${CONFIG_MAP.namespace}\n    name: ${CONFIG_MAP.name}\n`);
  const flags = parseManagerFlags(['--config', file, '--health-probe-bind-address=0'], { leaderElectionId: 'jobconfig-leader.furiko.io' });
  if (flags === 'help') throw new Error('unexpected --help');
  const startup = furikoBootstrap(flags);
  expect(startup.bootstrap.dynamicSecret).toEqual(CONFIG_MAP);
  furiko = await startFurikoEnv({ now: '2024-01-15T10:00:00Z', controllers: 'all', webhooks: true, beforeStart: (mgr) => (watcher = startup.watchDynamicConfig(mgr)) });
});
afterAll(async () => {
  await furiko?.stop();
  rmSync(folder, { recursive: true, force: true });
});

/** Writes the ConfigMap's data (creating it the first time) and waits until the watcher has seen that version. */
async function setDynamicConfig(data: Record<string, string>): Promise<void> {
  const current = await furiko.admin.get(BuiltinKinds.ConfigMap, CONFIG_MAP).catch(() => undefined);
  const written: ConfigMap = current
    ? await furiko.admin.update({ ...current, data })
    : await furiko.admin.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...CONFIG_MAP }, data });
  await watcher.observed(written.metadata!.resourceVersion);
}

const adhocTtl = async (name: string) =>
  ((await furiko.env.client.create(job(name, { template: { taskTemplate: { pod: { spec: { containers: [{ name: 'c', image: 'alpine' }] } } } } }))) as Job).spec.ttlSecondsAfterFinished;

describe("Furiko's dynamic ConfigMap, reloaded without a restart", () => {
  test('without the ConfigMap the defaults apply; a new defaultTTLSecondsAfterFinished applies to the next Job', async () => {
    expect(await adhocTtl('before')).toBe(3600);
    await setDynamicConfig({ jobs: 'apiVersion: config.furiko.io/v1alpha1\nkind: JobExecutionConfig\ndefaultTTLSecondsAfterFinished: 60\n' });
    expect(sharedFurikoConfig.defaultTTLSecondsAfterFinished).toBe(60);
    expect(await adhocTtl('after')).toBe(60);
  });

  test('a ConfigMap that does not parse keeps the last good configuration', async () => {
    await setDynamicConfig({ jobs: 'defaultTTLSecondsAfterFinished: 120\n', cron: 'cronHashNames: "yes"\n' });
    expect(await adhocTtl('still-60')).toBe(60);
  });

  test('cronFormat quartz reaches the JobConfig webhook: day of week 0 is rejected, 1 (Sunday) accepted', async () => {
    const weekly = (name: string, expression: string): JobConfig => jobConfig(name, { schedule: { cron: { expression } } });
    await expect(furiko.env.client.create(weekly('standard-zero', '0 0 11 ? * 0 *'))).resolves.toBeDefined();
    await setDynamicConfig({ jobs: 'defaultTTLSecondsAfterFinished: 60\n', cron: 'cronFormat: quartz\n' });
    expect(await rejection(furiko.env.client.create(weekly('quartz-zero', '0 0 11 ? * 0 *')))).toContain('spec.schedule.cron.expression: Invalid value: "0 0 11 ? * 0 *": cannot parse cron schedule');
    await expect(furiko.env.client.create(weekly('quartz-one', '0 0 11 ? * 1 *'))).resolves.toBeDefined();
  });

  test('a new defaultTimezone applies to the schedule times after the one already computed', async () => {
    await setDynamicConfig({ cron: 'defaultTimezone: UTC\n' });
    await furiko.env.client.create(jobConfig('daily', { schedule: { cron: { expression: '0 10 * * *' } } }));
    await furiko.env.settle();
    await setDynamicConfig({ cron: 'defaultTimezone: Asia/Singapore\n' });
    // Computed before the change: 2024-01-16 10:00 UTC. After it: 10:00 in Singapore, 2024-01-17 02:00 UTC.
    const scheduleTimes = async () =>
      (await furiko.env.client.list(JobKind, { namespace: 'default' }))
        .filter((j) => j.metadata?.ownerReferences?.some((o) => o.name === 'daily'))
        .map((j) => new Date(Number(j.metadata!.annotations!['execution.furiko.io/schedule-time']) * 1000).toISOString());
    await furiko.env.stepTo('2024-01-16T10:00:00Z');
    expect(await scheduleTimes()).toEqual(['2024-01-16T10:00:00.000Z']);
    // (That Job never starts on the inert Pods: pending timeout, then the TTL removes it.)
    await furiko.env.stepTo('2024-01-17T02:00:00Z');
    expect(await scheduleTimes()).toContain('2024-01-17T02:00:00.000Z');
    expect((await furiko.env.client.get(JobConfigKind, { namespace: 'default', name: 'daily' })).status?.lastScheduled).toBe('2024-01-17T02:00:00Z');
  });

  test('a schedule that did not parse in quartz is scheduled again once the format is back to standard', async () => {
    // standard-zero (0 0 11 ? * 0 *, Sundays) left the schedule when quartz came in (day 0 is no day there);
    // the cron settings of the previous test put the standard format back.
    await furiko.env.stepTo('2024-01-21T11:00:00Z');
    const jobs = await furiko.env.client.list(JobKind, { namespace: 'default' });
    expect(jobs.filter((j) => j.metadata?.ownerReferences?.some((o) => o.name === 'standard-zero')).map((j) => j.metadata!.name)).toEqual([`standard-zero-${Date.parse('2024-01-21T11:00:00Z') / 1000}`]);
  });

  test('leaving a field out returns it to the default; deleting the ConfigMap keeps the last configuration', async () => {
    await setDynamicConfig({ jobs: 'defaultPendingTimeoutSeconds: 30\n' });
    expect(await adhocTtl('default-again')).toBe(3600);
    await furiko.admin.delete(await furiko.admin.get(BuiltinKinds.ConfigMap, CONFIG_MAP));
    await furiko.env.settle();
    expect(sharedFurikoConfig.defaultPendingTimeoutSeconds).toBe(30);
  });

  test("a dynamic Secret's fields win over the ConfigMap's, field by field, whichever changes last", async () => {
    // The ConfigMap was deleted above: its last configuration (defaultPendingTimeoutSeconds 30) stays.
    const secret: Secret = await furiko.admin.create({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { ...CONFIG_MAP },
      stringData: { jobs: 'apiVersion: config.furiko.io/v1alpha1\nkind: JobExecutionConfig\ndefaultTTLSecondsAfterFinished: 90\n' },
    });
    await watcher.observed(secret.metadata!.resourceVersion);
    expect(sharedFurikoConfig.defaultPendingTimeoutSeconds).toBe(30);
    expect(await adhocTtl('from-secret')).toBe(90);
    await setDynamicConfig({ jobs: 'defaultTTLSecondsAfterFinished: 60\ndefaultPendingTimeoutSeconds: 45\n', jobConfigs: 'maxEnqueuedJobs: 7\n' });
    expect(sharedFurikoConfig).toMatchObject({ defaultTTLSecondsAfterFinished: 90, defaultPendingTimeoutSeconds: 45, maxEnqueuedJobs: 7 });
    expect(await adhocTtl('secret-still-wins')).toBe(90);
  });
});
