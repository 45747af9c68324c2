/**
 * The multiversion tutorial through real kubectl: the local API server converts CronJobs between v1 (the
 * storage version) and v2 by calling the manager's /convert webhook (registered by the harness as
 * `make run-local` does), so an object created in one version reads in the other, the admission webhooks
 * (v1) see v2 requests converted, and the controller schedules a CronJob written in v2.
 */
import { fileURLToPath } from 'node:url';
import { V1_SCHEDULE_ANNOTATION } from '../api/v2/cronjob_conversion.js';
import { CronJobHarness, unix } from './harness.js';

const sampleV2 = fileURLToPath(new URL('../config/samples/batch_v2_cronjob.yaml', import.meta.url));
const v1Resource = 'cronjobs.v1.batch.tutorial.kubebuilder.io';
const v2Resource = 'cronjobs.v2.batch.tutorial.kubebuilder.io';
const template = { spec: { template: { spec: { containers: [{ name: 'hello', image: 'busybox' }], restartPolicy: 'OnFailure' } } } };

describe('CronJob v1 ⇄ v2 through kubectl and the conversion webhook', () => {
  let h: CronJobHarness;
  beforeAll(async () => {
    h = await CronJobHarness.start({ start: '10:00:30' });
  });
  afterAll(async () => h?.stop());

  async function kubectl(args: string[], input?: unknown): Promise<string> {
    const result = await h.env.kubectl([...args, '-n', 'default'], input === undefined ? undefined : { input: JSON.stringify(input) });
    if (result.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${result.stderr}`);
    return result.stdout;
  }

  async function getJson(
    resource: string,
    name: string,
  ): Promise<{ apiVersion: string; metadata: { annotations?: Record<string, string> }; spec: Record<string, unknown> }> {
    return JSON.parse(await kubectl(['get', resource, name, '-o', 'json']));
  }

  it('the CRD converts through the manager: strategy Webhook at its /convert', async () => {
    const crd = JSON.parse(await kubectl(['get', 'crd', 'cronjobs.batch.tutorial.kubebuilder.io', '-o', 'json'])) as {
      spec: { conversion: { strategy: string; webhook: { clientConfig: { url: string } } } };
    };
    expect(crd.spec.conversion.strategy).toBe('Webhook');
    expect(crd.spec.conversion.webhook.clientConfig.url).toBe(`https://127.0.0.1:${h.env.manager.webhookServer.port}/convert`);
  });

  it('created in v2 (the sample, with kubectl apply), read in v1: the fields joined, the defaulting webhook applied', async () => {
    expect((await kubectl(['apply', '-f', sampleV2])).trim()).toBe('cronjob.batch.tutorial.kubebuilder.io/cronjob-sample created');
    const v1 = await getJson(v1Resource, 'cronjob-sample');
    expect(v1.apiVersion).toBe('batch.tutorial.kubebuilder.io/v1');
    expect(v1.spec).toMatchObject({
      schedule: '*/1 * * * *',
      startingDeadlineSeconds: 60,
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
    const v2 = await getJson(v2Resource, 'cronjob-sample');
    expect(v2.spec.schedule).toEqual({ minute: '*/1' });
    expect(v2.metadata.annotations ?? {}).toEqual({ 'kubectl.kubernetes.io/last-applied-configuration': expect.stringContaining('"minute":"*/1"') });
  });

  it('the controller schedules the CronJob written in v2: its first Job at 10:01', async () => {
    await h.stepTo('10:01:00');
    expect(await h.jobNames()).toEqual([`cronjob-sample-${unix('10:01')}`]);
    const v2 = await getJson(v2Resource, 'cronjob-sample');
    expect((v2 as unknown as { status: { lastScheduleTime: string } }).status.lastScheduleTime).toBe('2024-01-15T10:01:00Z');
  });

  it('created in v1, read in v2: the schedule split into its cron fields (`*` left unset)', async () => {
    await kubectl(['create', '-f', '-'], {
      apiVersion: 'batch.tutorial.kubebuilder.io/v1',
      kind: 'CronJob',
      metadata: { name: 'weekdays' },
      spec: { schedule: '0 9 * * 1-5', jobTemplate: template },
    });
    const v2 = await getJson(v2Resource, 'weekdays');
    expect(v2.apiVersion).toBe('batch.tutorial.kubebuilder.io/v2');
    expect(v2.spec.schedule).toEqual({ minute: '0', hour: '9', dayOfWeek: '1-5' });
  });

  it('a v1 @descriptor schedule reads in v2 with the string kept in an annotation, and a v2 update keeps it', async () => {
    await kubectl(['create', '-f', '-'], {
      apiVersion: 'batch.tutorial.kubebuilder.io/v1',
      kind: 'CronJob',
      metadata: { name: 'hourly' },
      spec: { schedule: '@hourly', jobTemplate: template },
    });
    const v2 = await getJson(v2Resource, 'hourly');
    expect(v2.spec.schedule).toEqual({});
    expect(v2.metadata.annotations).toEqual({ [V1_SCHEDULE_ANNOTATION]: '@hourly' });
    // an update in v2 that leaves the schedule alone keeps v1's string
    await kubectl(['patch', v2Resource, 'hourly', '--type=merge', '-p', JSON.stringify({ spec: { suspend: true } })]);
    const v1 = await getJson(v1Resource, 'hourly');
    expect(v1.spec).toMatchObject({ schedule: '@hourly', suspend: true });
    expect(v1.metadata.annotations ?? {}).toEqual({});
  });

  it('the validating webhook (v1) rejects a bad schedule written in v2, with its message', async () => {
    const result = await h.env.kubectl(['create', '-n', 'default', '-f', '-'], {
      input: JSON.stringify({
        apiVersion: 'batch.tutorial.kubebuilder.io/v2',
        kind: 'CronJob',
        metadata: { name: 'bad-minute' },
        spec: { schedule: { minute: '61' }, jobTemplate: template },
      }),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('End of range (61) above maximum (59): 61');
    expect(result.stderr).toContain('CronJob.batch.tutorial.kubebuilder.io "bad-minute" is invalid');
  });

  it('kubectl get lists every CronJob in either version', async () => {
    const names = (resource: string): Promise<string> =>
      kubectl(['get', resource, '-o', 'jsonpath={range .items[*]}{.apiVersion} {.metadata.name}{"\\n"}{end}']);
    expect((await names(v2Resource)).trim().split('\n')).toEqual([
      'batch.tutorial.kubebuilder.io/v2 cronjob-sample',
      'batch.tutorial.kubebuilder.io/v2 hourly',
      'batch.tutorial.kubebuilder.io/v2 weekdays',
    ]);
    expect((await names(v1Resource)).trim().split('\n')).toEqual([
      'batch.tutorial.kubebuilder.io/v1 cronjob-sample',
      'batch.tutorial.kubebuilder.io/v1 hourly',
      'batch.tutorial.kubebuilder.io/v1 weekdays',
    ]);
  });
});
