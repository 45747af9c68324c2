/** The JobConfig webhooks against the local cluster (spec §4.2): defaulting, JC-16 validation, JC-24 columns. */
import type { TestEnv } from 'kubeforge/testing';
import { JobConfigKind, type JobConfig, type Option } from '../../../api/v1alpha1/jobconfig_types.js';
import { jobConfig, rejection, sample, startWebhookEnv } from '../../../test/webhook-env.js';

let env: TestEnv;
beforeAll(async () => {
  env = await startWebhookEnv();
});
afterAll(async () => env?.stop());

const get = (name: string) => env.client.get(JobConfigKind, { namespace: 'default', name });
const create = (obj: JobConfig) => env.client.create(obj);
const podTemplate = (restartPolicy?: string) => ({
  spec: { taskTemplate: { pod: { spec: { containers: [{ name: 'c', image: 'alpine' }], ...(restartPolicy ? { restartPolicy } : {}) } } } },
}) as JobConfig['spec']['template'];

describe('JobConfig mutating webhook', () => {
  test('the sample gets lastUpdated = now, maxAttempts 1, its own pending timeout, no restartPolicy', async () => {
    const created = await create(sample<JobConfig>('execution_v1alpha1_jobconfig.yaml'));
    expect(created.spec.schedule!.lastUpdated).toBe('2024-01-15T10:00:00Z');
    expect(created.spec.template.spec).toMatchObject({ maxAttempts: 1, taskPendingTimeoutSeconds: 600 });
    expect(created.spec.template.spec.taskTemplate.pod!.spec!.restartPolicy).toBeUndefined();
    expect(created.spec.option!.options!.map((o) => o.name)).toEqual(['user-name', 'image-tag']);
  });

  test('Bool options get format TrueFalse; parallelism gets AllSuccessful; pending timeout defaults to 900', async () => {
    const created = await create(
      jobConfig('defaults', {
        option: { options: [{ type: 'Bool', name: 'b', bool: { default: true } }] },
        template: { spec: { ...podTemplate().spec, parallelism: { withCount: 2 } } },
      }),
    );
    expect(created.spec.option!.options![0]!.bool).toEqual({ default: true, format: 'TrueFalse' });
    expect(created.spec.template.spec).toMatchObject({ maxAttempts: 1, taskPendingTimeoutSeconds: 900, parallelism: { withCount: 2, completionStrategy: 'AllSuccessful' } });
    expect(created.spec.schedule).toBeUndefined();
  });

  test('lastUpdated moves only when the schedule changes, and never back from a later time', async () => {
    await create(jobConfig('sched', { schedule: { cron: { expression: '0 * * * *' } } }));
    await env.stepTo('2024-01-15T10:05:00Z');
    let current = await get('sched');
    current = await env.client.update({ ...current, spec: { ...current.spec, concurrency: { policy: 'Forbid' } } });
    expect(current.spec.schedule!.lastUpdated).toBe('2024-01-15T10:00:00Z');
    current = await env.client.update({ ...current, spec: { ...current.spec, schedule: { ...current.spec.schedule, disabled: true } } });
    expect(current.spec.schedule!.lastUpdated).toBe('2024-01-15T10:05:00Z');
    const future = await create(jobConfig('future', { schedule: { cron: { expression: '0 * * * *' }, lastUpdated: '2024-01-15T12:00:00Z' } }));
    expect(future.spec.schedule!.lastUpdated).toBe('2024-01-15T12:00:00Z');
  });
});

describe('JC-16 JobConfig validation', () => {
  test('name of 50 characters is rejected, 49 is fine', async () => {
    const long = 'a'.repeat(50);
    expect(await rejection(create(jobConfig(long)))).toContain(`metadata.name: Invalid value: "${long}": cannot be more than 49 characters`);
    await expect(create(jobConfig('b'.repeat(49)))).resolves.toBeDefined();
  });

  test('concurrency', async () => {
    expect(await rejection(create(jobConfig('c1', { concurrency: { policy: 'Replace' as never } })))).toContain(
      'spec.concurrency.policy: Unsupported value: "Replace": supported values: "Allow", "Forbid", "Enqueue"',
    );
    expect(await rejection(create(jobConfig('c2', { concurrency: { policy: 'Allow', maxConcurrency: 2 } })))).toContain(
      'spec.concurrency.maxConcurrency: Forbidden: cannot specify maxConcurrency with Allow',
    );
    expect(await rejection(create(jobConfig('c3', { concurrency: { policy: 'Forbid', maxConcurrency: 0 } })))).toContain(
      'spec.concurrency.maxConcurrency: Invalid value: 0: must be greater than 0',
    );
    expect(await rejection(create(jobConfig('c4', { concurrency: {} as never })))).toContain('spec.concurrency.policy: Required value');
  });

  test('schedule', async () => {
    expect(await rejection(create(jobConfig('s1', { schedule: { cron: { expression: '61 * * * *' } } })))).toContain(
      'spec.schedule.cron.expression: Invalid value: "61 * * * *": cannot parse cron schedule',
    );
    expect(await rejection(create(jobConfig('s2', { schedule: { cron: { expression: '0 * * * *', expressions: ['0 1 * * *'] } } })))).toContain(
      'spec.schedule.cron: Too many: 2: must have at most 1 items',
    );
    expect(await rejection(create(jobConfig('s3', { schedule: { cron: {} } })))).toContain('spec.schedule.cron: Required value: expression is required');
    expect(await rejection(create(jobConfig('s4', { schedule: { disabled: true } })))).toContain(
      'spec.schedule: Required value: at least one schedule type must be specified',
    );
    expect(await rejection(create(jobConfig('s5', { schedule: { cron: { expressions: ['0 * * * *', 'nope'] } } })))).toContain(
      'spec.schedule.cron.expressions[1]: Invalid value: "nope": cannot parse cron schedule',
    );
    expect(await rejection(create(jobConfig('s6', { schedule: { cron: { expression: '0 10 * * *', timezone: 'Mars/Olympus' } } })))).toContain(
      'spec.schedule.cron.timezone: Invalid value: "Mars/Olympus": cannot parse timezone',
    );
    await expect(create(jobConfig('utcplus', { schedule: { cron: { expression: '0 10 * * *', timezone: 'UTC+1' } } }))).resolves.toBeDefined();
  });

  test('template', async () => {
    expect(await rejection(create(jobConfig('t1', { template: podTemplate('Always') })))).toContain(
      'spec.template.spec.taskTemplate.pod.spec.restartPolicy: Invalid value: "Always": restartPolicy cannot be Always',
    );
    expect(await rejection(create(jobConfig('t2', { template: { spec: { ...podTemplate().spec, maxAttempts: 51 } } })))).toContain(
      'spec.template.spec.maxAttempts: Invalid value: 51: must be less than or equal to 50',
    );
    expect(await rejection(create(jobConfig('t3', { template: { spec: { taskTemplate: {} } } })))).toContain(
      'spec.template.spec.taskTemplate: Required value: must specify a template type',
    );
    const parallel = (parallelism: object) => jobConfig('t4', { template: { spec: { ...podTemplate().spec, parallelism } } });
    expect(await rejection(create(parallel({ withCount: 2, withKeys: ['a'] })))).toContain(
      'spec.template.spec.parallelism.withKeys: Forbidden: cannot specify more than 1 parallelism type',
    );
    expect(await rejection(create(parallel({ withMatrix: { 'Bad Key': ['x'] } })))).toContain('withMatrix key must match regexp: ^[a-z0-9_-]+$');
    expect(await rejection(create(parallel({ withMatrix: { goos: [''] } })))).toContain(
      'spec.template.spec.parallelism.withMatrix[goos]: Required value: value cannot be empty',
    );
    expect(await rejection(create(parallel({ withKeys: [''] })))).toContain('spec.template.spec.parallelism.withKeys[0]: Required value: key cannot be empty');
    expect(await rejection(create(parallel({})))).toContain('spec.template.spec.parallelism: Required value: must specify a parallelism type');
  });

  test('options', async () => {
    const withOptions = (name: string, options: Option[]) => create(jobConfig(name, { option: { options } }));
    expect(await rejection(withOptions('o1', [{ type: 'String', name: 'x' }, { type: 'String', name: 'x' }]))).toContain(
      'spec.option.options[1]: Forbidden: duplicate option name: "x"',
    );
    expect(await rejection(withOptions('o2', [{ type: 'String', name: 'bad name' }]))).toContain('must match regex: ^[a-zA-Z_0-9.-]+$');
    expect(await rejection(withOptions('o3', [{ type: 'Bool', name: 'b', required: true, bool: { default: false } }]))).toContain(
      'spec.option.options[0].required: Forbidden: bool option cannot be marked as required',
    );
    expect(await rejection(withOptions('o4', [{ type: 'Select', name: 's', select: { values: ['a'], default: 'z' } }]))).toContain(
      'spec.option.options[0].select.default: Unsupported value: "z": supported values: "a"',
    );
    expect(await rejection(withOptions('o5', [{ type: 'Select', name: 's', select: {} as never }]))).toContain('at least 1 value is required');
    expect(await rejection(withOptions('o6', [{ type: 'String', name: 's', select: { values: ['a'] } }]))).toContain(
      'cannot specify non-String options for option type String',
    );
  });

  test('kubectl shows the webhook denial', async () => {
    const manifest = JSON.stringify(jobConfig('kubectl-bad', { concurrency: { policy: 'Allow', maxConcurrency: 3 } }));
    const result = await env.kubectl(['create', '-f', '-'], { input: manifest });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('admission webhook "validation.webhook.jobconfigs.execution.furiko.io" denied the request');
    expect(result.stderr).toContain('spec.concurrency.maxConcurrency: Forbidden: cannot specify maxConcurrency with Allow');
  });
});

describe('JC-24 kubectl columns and short names', () => {
  test('kubectl get furikojobconfigs', async () => {
    const fromSample = sample<JobConfig>('execution_v1alpha1_jobconfig.yaml');
    const created = await create({ ...fromSample, metadata: { ...fromSample.metadata, name: 'columns' } });
    await env.client.updateStatus({ ...created, status: { state: 'ReadyEnabled', active: 0, queued: 0 } });
    const result = await env.kubectl(['get', 'furikojobconfigs', 'columns']);
    expect(result.code).toBe(0);
    const [header, row] = result.stdout.trim().split('\n');
    expect(header!.split(/\s{2,}/)).toEqual(['NAME', 'AGE', 'STATE', 'ACTIVE', 'QUEUED', 'LAST EXECUTED', 'LAST SCHEDULED', 'CRON SCHEDULE', 'TIMEZONE']);
    // Unset date cells come back null; kubectl 1.32 prints them as blanks (JC-1's text shows `<none>`).
    expect(row!.split(/\s{2,}/)).toEqual(['columns', expect.stringMatching(/^\d+s$/), 'ReadyEnabled', '0', '0', 'H/15 * * * *', 'Asia/Singapore']);
    expect((await env.kubectl(['get', 'furikojobconfig', 'columns', '-o', 'name'])).stdout.trim()).toBe('jobconfig.execution.furiko.io/columns');
  });
});
