/**
 * The `furiko` CLI (cmd/furiko) as a kubectl plugin against the local cluster running this operator
 * (webhooks and controllers): every command once through the real `kubectl furiko …` with its output
 * asserted, the option prompts on a real pseudo-terminal (`script`), the refusal of missing required
 * options without a terminal, kubectl's connection flags, and the CLI run standalone. A command's further
 * variations (a second enable, another filter or output format, the namespace and kubeconfig choices) run
 * the same command line through the CLI's own entry in this process (plugin.inProcess): kubectl hands a
 * plugin its arguments and environment unchanged.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import YAML from 'yaml';
import type { Job } from '../../api/v1alpha1/job_types.js';
import { JobConfigKind, type JobConfig } from '../../api/v1alpha1/jobconfig_types.js';
import { JobKind } from '../../api/v1alpha1/job_types.js';
import { projectFile, startFurikoEnv, type FurikoEnv } from '../furiko-env.js';
import { buildFurikoPlugin, runCommand, TerminalSession, type FurikoPlugin } from './furiko-plugin.js';

/** A JobConfig with one option of each type; all but the Bool required, none with a default. */
const report: JobConfig = {
  apiVersion: 'execution.furiko.io/v1alpha1',
  kind: 'JobConfig',
  metadata: { name: 'report', namespace: 'default' },
  spec: {
    concurrency: { policy: 'Allow' },
    option: {
      options: [
        { type: 'String', name: 'recipient', label: 'Recipient', required: true },
        { type: 'Bool', name: 'dry-run', label: 'Dry run', bool: { default: false, format: 'TrueFalse' } },
        { type: 'Select', name: 'region', label: 'Region', required: true, select: { values: ['us', 'eu', 'ap'] } },
        { type: 'Multi', name: 'channels', label: 'Channels', required: true, multi: { values: ['email', 'sms', 'slack'], delimiter: ',' } },
        { type: 'Date', name: 'since', label: 'Since', required: true, date: { format: 'YYYY-MM-DD' } },
      ],
    },
    template: {
      spec: {
        maxAttempts: 1,
        taskTemplate: {
          pod: {
            spec: {
              restartPolicy: 'Never',
              containers: [
                {
                  name: 'report',
                  image: 'alpine',
                  args: ['echo', '${option.recipient} ${option.region} ${option.channels} ${option.since} ${option.dry-run}'],
                },
              ],
            },
          },
        },
      },
    },
  },
};

let furiko: FurikoEnv;
let plugin: FurikoPlugin;

async function jobs(): Promise<Job[]> {
  return furiko.admin.list(JobKind, { namespace: 'default' });
}

beforeAll(async () => {
  furiko = await startFurikoEnv({ now: new Date(), controllers: 'all', webhooks: true });
  plugin = buildFurikoPlugin(furiko.env.cluster.kubeconfigPath);
  const sample = YAML.parse(readFileSync(projectFile('config/samples/execution_v1alpha1_jobconfig.yaml'), 'utf8')) as JobConfig;
  await furiko.admin.create({ ...sample, metadata: { ...sample.metadata, namespace: 'default' } });
  await furiko.admin.create(report);
  // Two ad-hoc Jobs of `report` from the start, so that the get/list/kill tests do not depend on the run tests.
  for (const name of ['report-first', 'report-second']) {
    const optionValues = JSON.stringify({ recipient: 'a@example.com', region: 'us', channels: ['email'], since: '2026-01-01T00:00:00Z' });
    const job: Job = {
      apiVersion: 'execution.furiko.io/v1alpha1',
      kind: 'Job',
      metadata: { name, namespace: 'default' },
      spec: { configName: 'report', optionValues },
    };
    await furiko.admin.create(job);
  }
  await furiko.env.settle();
}, 120_000);

afterAll(async () => {
  plugin?.remove();
  await furiko?.stop();
});

describe('kubectl furiko (the CLI as a kubectl plugin)', () => {
  it("list jobconfig prints Furiko's table (report runs its two Jobs): NAME STATE ACTIVE QUEUED LAST EXECUTED LAST SCHEDULED CRON SCHEDULE", async () => {
    const result = await plugin.kubectl(['list', 'jobconfig']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +STATE +ACTIVE +QUEUED +LAST EXECUTED +LAST SCHEDULED +CRON SCHEDULE$/);
    expect(lines.slice(1).sort()).toEqual([
      expect.stringMatching(/^jobconfig-sample +ReadyEnabled +0 +0 +H\/15 \* \* \* \*$/),
      expect.stringMatching(/^report +Executing +2 +0 +\S+$/),
    ]);
  });

  it('get jobconfig describes a JobConfig: metadata, concurrency, schedule with its next time, status', async () => {
    const result = await plugin.kubectl(['get', 'jobconfig', 'jobconfig-sample']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(
      /^JOB CONFIG METADATA\nName: +jobconfig-sample\nNamespace: +default\nCreated: +\w{3}, \d\d \w{3} \d{4} \d\d:\d\d:\d\d \+00:00 \(.+ ago\)\n\nCONCURRENCY\nPolicy: +Forbid\n\nSCHEDULE\nEnabled: +true\nCron Expression: +H\/15 \* \* \* \*\nCron Timezone: +Asia\/Singapore\nNext Schedule: +\w{3}, .+ \(in .+\)\n\nJOB STATUS\nState: +ReadyEnabled\nQueued Jobs: +0\nActive Jobs: +0\nLast Scheduled: +Never\n$/,
    );
  });

  it('get jobconfig -o json prints the object as kubectl would (without managed fields)', async () => {
    const result = await plugin.inProcess(['get', 'jobconfig', 'report', '-o', 'json']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const object = JSON.parse(result.stdout) as JobConfig;
    expect(object).toMatchObject({ kind: 'JobConfig', metadata: { name: 'report', namespace: 'default' }, spec: { concurrency: { policy: 'Allow' } } });
    expect(object.metadata).not.toHaveProperty('managedFields');
  });

  it("disable and enable switch spec.schedule.disabled, with Furiko's messages; a JobConfig without a schedule is refused", async () => {
    const disable = await plugin.kubectl(['disable', 'jobconfig-sample']);
    expect(disable).toEqual({ code: 0, stdout: 'Successfully disabled automatic scheduling for job config default/jobconfig-sample\n', stderr: '' });
    expect((await furiko.admin.get(JobConfigKind, { namespace: 'default', name: 'jobconfig-sample' })).spec.schedule?.disabled).toBe(true);
    const enable = await plugin.kubectl(['enable', 'jobconfig-sample']);
    expect(enable).toEqual({ code: 0, stdout: 'Successfully enabled automatic scheduling for job config default/jobconfig-sample\n', stderr: '' });
    expect((await furiko.admin.get(JobConfigKind, { namespace: 'default', name: 'jobconfig-sample' })).spec.schedule?.disabled).toBe(false);
    expect(await plugin.inProcess(['enable', 'jobconfig-sample'])).toMatchObject({ code: 0, stdout: 'Job config default/jobconfig-sample is already enabled\n' });
    expect(await plugin.inProcess(['disable', 'report'])).toEqual({ code: 1, stdout: '', stderr: 'Error: job config has no schedule specified\n' });
  });

  it('run without a terminal refuses required options without a value, naming them, and creates nothing', async () => {
    const before = (await jobs()).length;
    const result = await plugin.kubectl(['run', 'report', '--option', 'recipient=ops@example.com']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'Error: cannot run job config default/report: required options "region" (Region), "channels" (Channels), "since" (Since) have no value and no default; ' +
        'give them with --option <name>=<value> (or -O \'{"<name>": …}\'), or run on a terminal to be prompted\n',
    );
    expect((await jobs()).length).toBe(before);
  });

  it('run with --option values and --at creates an Adhoc Job from the JobConfig (configName, optionValues, startPolicy)', async () => {
    const result = await plugin.kubectl([
      'run',
      'report',
      '--option',
      'recipient=ops@example.com',
      '--option',
      'region=eu',
      '--option',
      'channels=sms,email',
      '--option',
      'since=2026-01-02T03:04:05Z',
      '--option',
      'dry-run=true',
      '--at',
      '2030-01-01T08:00:00+08:00',
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const name = /^Job default\/(report-[a-z0-9]{5}) created\n$/.exec(result.stdout)?.[1];
    expect(name).toBeDefined();
    const job = (await jobs()).find((j) => j.metadata?.name === name)!;
    expect(job.spec).toMatchObject({
      type: 'Adhoc',
      optionValues: '{"channels":["sms","email"],"dry-run":true,"recipient":"ops@example.com","region":"eu","since":"2026-01-02T03:04:05Z"}',
      startPolicy: { concurrencyPolicy: 'Enqueue', startAfter: '2030-01-01T00:00:00Z' },
      substitutions: {
        'option.recipient': 'ops@example.com',
        'option.region': 'eu',
        'option.channels': 'sms,email',
        'option.since': '2026-01-02',
        'option.dry-run': 'true',
      },
    });
    expect(job.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'JobConfig', name: 'report' });
  });

  it('run on a terminal prompts for each option not given, one prompt per type (String, Bool, Select, Multi, Date)', async () => {
    const before = new Set((await jobs()).map((j) => j.metadata?.name));
    const terminal = new TerminalSession('kubectl furiko run report', plugin.env());
    let at = await terminal.waitFor('Please input option values.');
    at = await terminal.waitFor('? Recipient: ', at);
    terminal.type('');
    at = await terminal.waitFor('X Sorry, your reply was invalid: Value is required', at);
    at = await terminal.waitFor('? Recipient: ', at);
    terminal.type('team@example.com');
    at = await terminal.waitFor('? Dry run (y/N): ', at);
    terminal.type('maybe');
    at = await terminal.waitFor('X Sorry, your reply was invalid: "maybe" is not a valid answer, please try again.', at);
    terminal.type('y');
    at = await terminal.waitFor('? Region:\n', at);
    at = await terminal.waitFor('  3) ap', at);
    terminal.type('2');
    at = await terminal.waitFor('? Channels:', at);
    terminal.type('slack,1');
    at = await terminal.waitFor('? Since (RFC3339, e.g. ', at);
    terminal.type('yesterday');
    at = await terminal.waitFor('X Sorry, your reply was invalid: parsing time "yesterday"', at);
    terminal.type('2026-11-01T00:00:00+08:00');
    await terminal.waitFor(' created', at);
    expect(await terminal.exit()).toBe(0);
    const name = /Job default\/(report-[a-z0-9]{5}) created/.exec(terminal.screen)?.[1];
    expect(name).toBeDefined();
    expect(before.has(name)).toBe(false);
    const job = (await jobs()).find((j) => j.metadata?.name === name)!;
    expect(JSON.parse(job.spec.optionValues!)).toEqual({
      recipient: 'team@example.com',
      'dry-run': true,
      region: 'eu',
      channels: ['slack', 'email'],
      since: '2026-11-01T00:00:00+08:00',
    });
    expect(job.spec.substitutions).toMatchObject({ 'option.since': '2026-11-01', 'option.channels': 'slack,email', 'option.dry-run': 'true' });
  });

  it("list job and get jobs print Furiko's table: NAME PHASE START TIME RUN TIME FINISH TIME", async () => {
    const names = (await jobs()).map((j) => j.metadata!.name!).sort();
    expect(names.length).toBeGreaterThanOrEqual(2);
    const list = await plugin.kubectl(['list', 'job']);
    expect(list).toMatchObject({ code: 0, stderr: '' });
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME +PHASE +START TIME +RUN TIME +FINISH TIME$/);
    expect(
      lines
        .slice(1)
        .map((line) => line.split(/ +/)[0])
        .sort(),
    ).toEqual(names);
    expect(lines.slice(1).every((line) => /^report-[a-z0-9]+ +(Queued|Pending|Starting|Running|Killing|Killed)\b/.test(line))).toBe(true);
    // Ages are of the wall clock (the cluster's runs behind): compare names and phases.
    const namesAndPhases = (stdout: string): string[] =>
      stdout
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((line) => line.split(/ +/).slice(0, 2).join(' '));
    const get = await plugin.inProcess(['get', 'jobs']);
    expect(get.stdout.split('\n')[0]).toBe(lines[0]);
    expect(namesAndPhases(get.stdout)).toEqual(namesAndPhases(list.stdout));
    expect(namesAndPhases((await plugin.inProcess(['list', 'job', '--for', 'report'])).stdout)).toEqual(namesAndPhases(list.stdout));
    const forSample = await plugin.inProcess(['list', 'job', '--for', 'jobconfig-sample']);
    expect(forSample).toEqual({ code: 0, stdout: 'No jobs found in default namespace.\n', stderr: '' });
  });

  it('get job describes a Job: info, status and its latest task; -o yaml prints the object', async () => {
    const name = 'report-first';
    const result = await plugin.kubectl(['get', 'job', name]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(
      new RegExp(
        `^JOB INFO\nName: +${name}\nNamespace: +default\nType: +Adhoc\nCreated: +.+ ago\\)\nJob Config: +report\nConcurrency Policy: +Allow\n\nJOB STATUS\nState: +\\w+\nPhase: +\\w+\nStarted: +.+\nTasks: +.*\\d+ Running.*\n`,
      ),
    );
    expect(result.stdout).toMatch(new RegExp(`\n\nLATEST TASK\nName: +${name}-gezdqo-0\nCreated: +.+\nState: +\\w+\n`));
    const yaml = await plugin.inProcess(['get', 'job', name, '-o', 'yaml']);
    expect(YAML.parse(yaml.stdout)).toMatchObject({ apiVersion: 'execution.furiko.io/v1alpha1', kind: 'Job', metadata: { name }, spec: { type: 'Adhoc' } });
  });

  it("kill sets the Job's killTimestamp and the controller kills it; a second kill needs --override", async () => {
    const name = 'report-second';
    const running = (await jobs()).find((j) => j.metadata?.name === name)!;
    expect(running.status?.startTime).toBeDefined();
    const result = await plugin.kubectl(['kill', name]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(
      new RegExp(`^Requested for job default/${name} to be killed at \\w{3}, \\d\\d \\w{3} \\d{4} \\d\\d:\\d\\d:\\d\\d \\+00:00\n$`),
    );
    const killed = (await jobs()).find((j) => j.metadata?.name === name)!;
    expect(Date.parse(killed.spec.killTimestamp!)).toBeGreaterThan(Date.parse(running.metadata!.creationTimestamp!));
    await furiko.env.stepTo(new Date(Date.parse(killed.spec.killTimestamp!) + 5_000));
    await furiko.env.settle();
    expect((await jobs()).find((j) => j.metadata?.name === name)?.status?.phase).toMatch(/^Kill(ing|ed)$/);
    const again = await plugin.inProcess(['kill', name]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^Error: job already has a kill timestamp set to .+, use --override to override previous value\n$/);
  });

  it('reads the kubeconfig as kubectl does: -n, --context, --kubeconfig; and runs standalone', async () => {
    expect(await plugin.inProcess(['list', 'jobconfig', '-n', 'kube-system'])).toEqual({
      code: 0,
      stdout: 'No job configs found in kube-system namespace.\n',
      stderr: '',
    });
    expect(await plugin.inProcess(['list', 'jobconfig', '--context', 'nope'])).toEqual({ code: 1, stdout: '', stderr: 'Error: context "nope" does not exist\n' });
    // A kubeconfig whose current context points elsewhere: --context picks the right one.
    const kubeconfig = YAML.parse(readFileSync(furiko.env.cluster.kubeconfigPath, 'utf8')) as {
      contexts: Array<{ name: string; context: Record<string, string> }>;
      'current-context': string;
    };
    const real = kubeconfig['current-context'];
    kubeconfig.contexts.push({ name: 'elsewhere', context: { ...kubeconfig.contexts.find((c) => c.name === real)!.context, namespace: 'kube-system' } });
    kubeconfig['current-context'] = 'elsewhere';
    const path = join(plugin.binDir, '..', 'kubeconfig-elsewhere');
    writeFileSync(path, YAML.stringify(kubeconfig));
    expect((await plugin.inProcess(['list', 'jobconfig'], { env: { KUBECONFIG: path } })).stdout).toBe('No job configs found in kube-system namespace.\n');
    expect((await plugin.inProcess(['list', 'jobconfig', '--context', real], { env: { KUBECONFIG: path } })).stdout).toMatch(/^NAME .*\njobconfig-sample /);
    // Standalone, with --kubeconfig and no KUBECONFIG.
    const { KUBECONFIG: _unset, ...withoutKubeconfig } = plugin.env();
    const standalone = await runCommand(
      process.execPath,
      [plugin.main, '--kubeconfig', path, '-n', 'default', 'get', 'jobconfig', 'report', '-o', 'name'],
      withoutKubeconfig,
    );
    expect(standalone).toEqual({ code: 0, stdout: 'jobconfig.execution.furiko.io/report\n', stderr: '' });
  });

  it('starts without loading @kubernetes/client-node (its generated API cost every run ~0.4 CPU-s)', async () => {
    // A resolve hook that refuses the package: a run that imports it (statically or lazily) fails.
    const hooks = join(plugin.binDir, '..', 'refuse-client-node-hooks.mjs');
    writeFileSync(
      hooks,
      'export async function resolve(specifier, context, next) {\n' +
        "  if (specifier.startsWith('@kubernetes/client-node')) throw new Error('the furiko CLI imported ' + specifier);\n" +
        '  return next(specifier, context);\n}\n',
    );
    const register = join(plugin.binDir, '..', 'refuse-client-node.mjs');
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const run = (args: string[]) => runCommand(process.execPath, ['--import', register, plugin.main, ...args], plugin.env());
    expect(await run(['get', 'jobconfig', 'report', '-o', 'name'])).toEqual({ code: 0, stdout: 'jobconfig.execution.furiko.io/report\n', stderr: '' });
    expect(await run(['get', 'jobconfig', 'nope'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: cannot get job config: jobconfigs.execution.furiko.io "nope" not found\n',
    });
    const help = await run(['--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('Usage:');
  });
});
