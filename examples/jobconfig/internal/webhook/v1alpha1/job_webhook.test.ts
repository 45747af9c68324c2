/** The Job webhooks against the local cluster (spec §4.2): JC-7/JC-8 admission, JC-17 options, JC-23 validation, JC-24 columns. */
import type { TestEnv } from 'kubeforge/testing';
import { JobConfigKind, type JobConfig, type JobConfigStatus } from '../../../api/v1alpha1/jobconfig_types.js';
import { JobKind, type Job, type JobSpec } from '../../../api/v1alpha1/job_types.js';
import { ANNOTATION_OPTION_SPEC_HASH, ANNOTATION_SCHEDULE_TIME, FINALIZER_DELETE_DEPENDENTS, LABEL_JOB_CONFIG_UID } from '../../furiko/keys.js';
import { job, jobConfig, rejection, sample, startWebhookEnv } from '../../../test/webhook-env.js';

let env: TestEnv;
let sampleConfig: JobConfig;
beforeAll(async () => {
  env = await startWebhookEnv();
  sampleConfig = await env.client.create(sample<JobConfig>('execution_v1alpha1_jobconfig.yaml'));
});
afterAll(async () => env?.stop());

const create = (obj: Job) => env.client.create(obj);
const getJob = (name: string) => env.client.get(JobKind, { namespace: 'default', name });
const podSpec = (): JobSpec['template'] => ({ taskTemplate: { pod: { spec: { containers: [{ name: 'c', image: 'alpine' }] } } } });

async function setStatus(name: string, status: Partial<JobConfigStatus>): Promise<void> {
  const current = await env.client.get(JobConfigKind, { namespace: 'default', name });
  await env.client.updateStatus({ ...current, status: { state: 'ReadyEnabled', active: 0, queued: 0, ...status } });
}

describe('JC-7 ad-hoc Job with options (admission)', () => {
  test('configName expands the JobConfig and options become substitutions', async () => {
    await setStatus('jobconfig-sample', { active: 0 });
    const created = await create(job('jobconfig-sample-', { configName: 'jobconfig-sample', optionValues: "user-name: '  Alice  '\nimage-tag: '3.14'" }, true));
    const uid = sampleConfig.metadata!.uid!;
    expect(created.metadata!.name).toMatch(/^jobconfig-sample-[a-z0-9]{5}$/);
    expect(created.spec.configName).toBeUndefined();
    expect(created.spec).toMatchObject({
      type: 'Adhoc',
      startPolicy: { concurrencyPolicy: 'Forbid' },
      optionValues: '{"image-tag":"3.14","user-name":"  Alice  "}',
      ttlSecondsAfterFinished: 3600,
      substitutions: {
        'option.user-name': 'Alice',
        'option.image-tag': '3.14',
        'jobconfig.uid': uid,
        'jobconfig.name': 'jobconfig-sample',
        'jobconfig.namespace': 'default',
      },
    });
    expect(Object.keys(created.spec.substitutions!)).toHaveLength(5);
    expect(created.metadata!.labels![LABEL_JOB_CONFIG_UID]).toBe(uid);
    expect(created.metadata!.annotations).toMatchObject({ 'app.kubernetes.io/name': 'jobconfig-sample', [ANNOTATION_OPTION_SPEC_HASH]: expect.stringMatching(/^[0-9a-f]+$/) });
    expect(created.metadata!.annotations![ANNOTATION_SCHEDULE_TIME]).toBeUndefined();
    expect(created.metadata!.finalizers).toEqual([FINALIZER_DELETE_DEPENDENTS]);
    expect(created.metadata!.ownerReferences).toEqual([
      { apiVersion: 'execution.furiko.io/v1alpha1', kind: 'JobConfig', name: 'jobconfig-sample', uid, controller: true, blockOwnerDeletion: true },
    ]);
    expect(created.spec.template).toMatchObject({ maxAttempts: 1, taskPendingTimeoutSeconds: 600 });
    expect(created.spec.template!.taskTemplate.pod!.spec!.restartPolicy).toBe('Never');
    expect(created.spec.template!.taskTemplate.pod!.spec!.containers[0]!.image).toBe('alpine:${option.image-tag}');
  });

  test('a scheduled Job with an owner reference gets the defaults of every option; its own substitutions win', async () => {
    const uid = sampleConfig.metadata!.uid!;
    const scheduled: Job = {
      ...job('jobconfig-sample-1705313100', {
        type: 'Scheduled',
        template: sampleConfig.spec.template.spec,
        startPolicy: { concurrencyPolicy: 'Forbid' },
        substitutions: { 'option.image-tag': 'pinned' },
      }),
    };
    scheduled.metadata = {
      ...scheduled.metadata,
      labels: { [LABEL_JOB_CONFIG_UID]: uid },
      annotations: { [ANNOTATION_SCHEDULE_TIME]: '1705313100' },
      ownerReferences: [{ apiVersion: 'execution.furiko.io/v1alpha1', kind: 'JobConfig', name: 'jobconfig-sample', uid, controller: true, blockOwnerDeletion: true }],
    };
    const created = await create(scheduled);
    expect(created.spec.substitutions).toEqual({
      'option.user-name': 'Example User',
      'option.image-tag': 'pinned',
      'jobconfig.uid': uid,
      'jobconfig.name': 'jobconfig-sample',
      'jobconfig.namespace': 'default',
    });
    expect(created.metadata!.annotations![ANNOTATION_SCHEDULE_TIME]).toBe('1705313100');
    expect(created.metadata!.annotations![ANNOTATION_OPTION_SPEC_HASH]).toBeUndefined();
  });

  test('an owner reference with a wrong UID or no label is rejected', async () => {
    const owned = (uid: string, label?: string): Job => {
      const j = job('owned-', { template: podSpec() }, true);
      j.metadata = {
        ...j.metadata,
        ...(label ? { labels: { [LABEL_JOB_CONFIG_UID]: label } } : {}),
        ownerReferences: [{ apiVersion: 'execution.furiko.io/v1alpha1', kind: 'JobConfig', name: 'jobconfig-sample', uid, controller: true }],
      };
      return j;
    };
    const uid = sampleConfig.metadata!.uid!;
    // Furiko reports one owner problem at a time (the whole field-error list is exactly this one).
    const causes = async (obj: Job) => (await rejection(create(obj))).split(' is invalid: ')[1];
    expect(await causes(owned('not-the-uid', 'not-the-uid'))).toBe(`metadata.ownerReferences[0][uid]: Duplicate value: "${uid}"`);
    const labelText = `metadata.labels[${LABEL_JOB_CONFIG_UID}]: Required value: label must be specified if ownerReferences is specified`;
    expect(await causes(owned(uid))).toBe(labelText);
    expect(await causes(owned(uid, 'another-uid'))).toBe(labelText);
  });

  test("the owner's index in metadata.ownerReferences names the path; a missing JobConfig is Not found there", async () => {
    const j = job('owned-second-', { template: podSpec() }, true);
    j.metadata = {
      ...j.metadata,
      ownerReferences: [
        { apiVersion: 'v1', kind: 'ConfigMap', name: 'unrelated', uid: 'cm-uid' },
        { apiVersion: 'execution.furiko.io/v1alpha1', kind: 'JobConfig', name: 'no-such-config', uid: 'x', controller: true },
      ],
    };
    expect(await rejection(create(j))).toContain('metadata.ownerReferences[1]: Not found: "no-such-config"');
  });

  test('kubectl shows the warnings: template overwritten, option values ignored without a JobConfig', async () => {
    const withTemplate = job('warned', { configName: 'jobconfig-sample', template: podSpec() });
    const first = await env.kubectl(['create', '-f', '-'], { input: JSON.stringify(withTemplate) });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain("Warning: JobTemplateSpec was overwritten with JobConfig's template");
    const independent = job('independent', { template: podSpec(), optionValues: 'a: 1' });
    const second = await env.kubectl(['create', '-f', '-'], { input: JSON.stringify(independent) });
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('Warning: optionValues will be ignored without a JobConfig: a: 1');
    expect((await getJob('independent')).spec.substitutions).toBeUndefined();
  });
});

describe('JC-8 ad-hoc Forbid rejected', () => {
  test('Forbid beyond maxConcurrency is rejected; Enqueue is admitted; a full queue rejects everything', async () => {
    await setStatus('jobconfig-sample', { state: 'Executing', active: 1 });
    const message = await rejection(create(job('jobconfig-sample-', { configName: 'jobconfig-sample' }, true)));
    expect(message).toMatch(
      /spec\.startPolicy\.concurrencyPolicy: Forbidden: jobconfig-sample currently has 1 active job\(s\), but concurrency policy forbids exceeding maximum concurrency of 1$/,
    );
    const enqueued = await create(job('jobconfig-sample-', { configName: 'jobconfig-sample', startPolicy: { concurrencyPolicy: 'Enqueue' } }, true));
    expect(enqueued.spec.startPolicy).toEqual({ concurrencyPolicy: 'Enqueue' });
    await setStatus('jobconfig-sample', { state: 'Executing', active: 1, queued: 20 });
    expect(await rejection(create(job('jobconfig-sample-', { configName: 'jobconfig-sample', startPolicy: { concurrencyPolicy: 'Enqueue' } }, true)))).toContain(
      'spec.startPolicy: Forbidden: cannot create new Job for JobConfig jobconfig-sample, which would exceed maximum queue length of 20',
    );
    await setStatus('jobconfig-sample', { active: 0, queued: 0 });
  });
});

describe('JC-17 option evaluation through the webhook', () => {
  beforeAll(async () => {
    await env.client.create(
      jobConfig('opts', {
        option: {
          options: [
            { type: 'Bool', name: 'verbose', bool: { default: false, format: 'Custom', trueVal: '--verbose', falseVal: '' } },
            { type: 'String', name: 'user', required: true },
            { type: 'Select', name: 'env', select: { values: ['dev', 'prod'], default: 'dev' } },
            { type: 'Multi', name: 'targets', multi: { values: ['mysql', 'redis', 's3'], delimiter: ',', default: ['mysql'] } },
            { type: 'Date', name: 'since', date: { format: 'YYYY-MM-DD' } },
          ],
        },
      }),
    );
  });
  const run = (optionValues: string) => create(job('opts-', { configName: 'opts', optionValues }, true));

  test('values and defaults', async () => {
    const full = await run('{"user": "bob", "verbose": true, "env": "prod", "targets": ["redis", "s3"], "since": "2024-01-01T08:00:00+08:00"}');
    expect(full.spec.substitutions).toMatchObject({ 'option.verbose': '--verbose', 'option.user': 'bob', 'option.env': 'prod', 'option.targets': 'redis,s3', 'option.since': '2024-01-01' });
    const defaults = await run('user: bob');
    expect(defaults.spec.substitutions).toMatchObject({ 'option.verbose': '', 'option.user': 'bob', 'option.env': 'dev', 'option.targets': 'mysql', 'option.since': '' });
  });

  test('errors reject the Job', async () => {
    expect(await rejection(run('{}'))).toContain('spec.optionValues[user]: Required value: option is required');
    expect(await rejection(run('user: bob\nenv: staging'))).toContain('spec.optionValues[env]: Unsupported value: "staging": supported values: "dev", "prod"');
    expect(await rejection(run('user: bob\nverbose: "yes"'))).toContain('spec.optionValues[verbose]: Invalid value: "yes": expected bool, got string');
    expect(await rejection(run('user: 5'))).toContain('spec.optionValues[user]: Invalid value: 5: expected string, got float64');
    expect(await rejection(run('user: bob\nsince: yesterday'))).toContain('spec.optionValues[since]: Invalid value: "yesterday": cannot parse time: ');
  });

  test('optionValues that are not a map: cannot unmarshal as json or yaml', async () => {
    expect(await rejection(run('asd'))).toContain(
      'spec.optionValues: Invalid value: "asd": cannot unmarshal as json or yaml: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal string into Go value of type map[string]interface {}',
    );
    expect(await rejection(run('[1, 2]'))).toContain('cannot unmarshal as json or yaml: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}');
    expect(await rejection(run('a: [1'))).toContain('spec.optionValues: Invalid value: "a: [1": cannot unmarshal as json or yaml: error converting YAML to JSON: yaml: ');
  });

  // The Go texts come from Go's own tests: go-yaml v2 decode_test.go (`v: [A,`), concourse's policychecker
  // test (`a:\nb`, via sigs.k8s.io/yaml) and apimachinery decoder_test.go TestDecodeBrokenJSON.
  test("malformed optionValues: Furiko's message with Go's parser error", async () => {
    expect(await rejection(run('v: [A,'))).toContain(
      'spec.optionValues: Invalid value: "v: [A,": cannot unmarshal as json or yaml: error converting YAML to JSON: yaml: line 1: did not find expected node content',
    );
    expect(await rejection(run('a:\nb'))).toContain(
      `spec.optionValues: Invalid value: "a:\\nb": cannot unmarshal as json or yaml: error converting YAML to JSON: yaml: line 3: could not find expected ':'`,
    );
    expect(await rejection(run('{\n\t"foo": {\n\t\t"stuff": 1\n\t\t"otherStuff": 2\n\t}\n}\n  '))).toContain(
      `: cannot unmarshal as json or yaml: json: offset 28: invalid character '"' after object key:value pair`,
    );
  });

  test('a repeated key is not an error: go-yaml v2 keeps the last value', async () => {
    const repeated = await run('user: alice\nuser: bob');
    expect(repeated.spec.substitutions).toMatchObject({ 'option.user': 'bob' });
    expect(repeated.spec.optionValues).toBe('{"user":"bob"}');
  });
});

describe('JC-23 Job validation', () => {
  test('name, type, template, configName', async () => {
    const long = 'j'.repeat(61);
    expect(await rejection(create(job(long, { template: podSpec() })))).toContain(`metadata.name: Invalid value: "${long}": cannot be more than 60 characters`);
    await expect(create(job('k'.repeat(60), { template: podSpec() }))).resolves.toBeDefined();
    expect(await rejection(create(job('cron-type', { type: 'Cron' as never, template: podSpec() })))).toContain('spec.type: Unsupported value: "Cron"');
    expect(await rejection(create(job('no-template', {})))).toContain('spec.template.taskTemplate: Required value: must specify a template type');
    expect(await rejection(create(job('missing-config', { configName: 'missing' })))).toContain('spec.configName: Not found: "missing"');
    expect(await rejection(create(job('always', { template: { taskTemplate: { pod: { spec: { containers: [{ name: 'c', image: 'a' }], restartPolicy: 'Always' } } } } })))).toContain(
      'spec.template.taskTemplate.pod.spec.restartPolicy: Invalid value: "Always": restartPolicy cannot be Always',
    );
  });

  test('immutable fields on update; killTimestamp once passed; startPolicy once started', async () => {
    let current = await create(job('immutable', { template: podSpec(), substitutions: { a: '1' }, killTimestamp: '2024-01-15T10:03:00Z' }));
    expect(await rejection(env.client.update({ ...current, spec: { ...current.spec, substitutions: { a: '2' } } }))).toContain('spec.substitutions: Invalid value: map[string]string{"a":"2"}: field is immutable');
    expect(await rejection(env.client.update({ ...current, spec: { ...current.spec, optionValues: 'x: 1' } }))).toContain(
      'spec.optionValues: Invalid value: "x: 1": field is immutable',
    );
    current = await env.client.update({ ...current, spec: { ...current.spec, killTimestamp: '2024-01-15T10:04:00Z' } });
    await env.stepTo('2024-01-15T10:05:00Z');
    expect(await rejection(env.client.update({ ...current, spec: { ...current.spec, killTimestamp: '2024-01-15T10:06:00Z' } }))).toContain(
      'spec.killTimestamp: Invalid value: 2024-01-15 10:06:00 +0000 UTC: field is immutable once passed',
    );
    const { killTimestamp: _removed, ...withoutKill } = current.spec;
    expect(await rejection(env.client.update({ ...current, spec: withoutKill }))).toContain('spec.killTimestamp: Invalid value: "null": field is immutable once passed');
    current = await env.client.updateStatus({ ...current, status: { phase: 'Running', state: 'Running', condition: {}, createdTasks: 0, runningTasks: 0, startTime: '2024-01-15T10:05:00Z' } });
    expect(await rejection(env.client.update({ ...current, spec: { ...current.spec, startPolicy: { concurrencyPolicy: 'Allow' } } }))).toContain(
      'spec.startPolicy: Invalid value: v1alpha1.StartPolicySpec{ConcurrencyPolicy:"Allow", StartAfter:(*v1.Time)(nil)}: cannot update startPolicy once Job is started',
    );
    const relabelled = { ...current, metadata: { ...current.metadata, labels: { [LABEL_JOB_CONFIG_UID]: 'x' } } };
    expect(await rejection(env.client.update(relabelled))).toContain(`metadata.labels[${LABEL_JOB_CONFIG_UID}]: Invalid value: "x": field is immutable`);
  });
});

describe('JC-24 kubectl columns of Jobs', () => {
  test('kubectl get furikojobs', async () => {
    const created = await create(job('shown', { template: podSpec() }));
    await env.client.updateStatus({ ...created, status: { phase: 'Queued', state: 'Queued', condition: { queueing: {} }, createdTasks: 0, runningTasks: 0 } });
    const result = await env.kubectl(['get', 'furikojobs', 'shown']);
    expect(result.code).toBe(0);
    const [header, row] = result.stdout.trim().split('\n');
    expect(header!.split(/\s{2,}/)).toEqual(['NAME', 'AGE', 'PHASE', 'CREATED TASKS', 'RUNNING TASKS', 'RUN TIME', 'FINISH TIME']);
    expect(row!.split(/\s{2,}/)).toEqual(['shown', expect.stringMatching(/^\d+s$/), 'Queued', '0', '0']);
    expect((await env.kubectl(['get', 'furikojob', 'shown', '-o', 'name'])).stdout.trim()).toBe('job.execution.furiko.io/shown');
  });
});
