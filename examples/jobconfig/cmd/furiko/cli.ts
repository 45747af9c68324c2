/*
Copyright 2026 The jobconfig Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

/**
 * The `furiko` command line (a kubectl plugin as `kubectl-furiko`, or standalone): Furiko's commands —
 * `run`, `get job(s)`, `get jobconfig(s)`, `list job(s)`, `list jobconfig(s)` (with `-w/--watch`), `kill`,
 * `disable`, `enable`, `logs`, `completion bash|zsh` — with kubectl's connection flags (`--kubeconfig`, `--context`, `-n/--namespace`). Streams,
 * environment and terminal detection are passed in, so tests can run it in-process.
 */
import type { Readable, Writable } from 'node:stream';
import { Command, CommanderError, Option as FlagOption } from 'commander';
import type { Job } from '../../api/v1alpha1/job_types.js';
import type { JobConfig } from '../../api/v1alpha1/jobconfig_types.js';
import { JOB_CONFIG_HEADER, JOB_HEADER, jobConfigRow, jobConfigSections, jobRow, jobSections } from './describe.js';
import { connect, type ConnectionFlags, type FurikoClient } from './kube-client.js';
import { LineReader } from './option-prompts.js';
import { completionScript, completeWords, COMPLETE_COMMAND, type Completer } from './completion.js';
import { showLogs, type LogsFlags } from './logs-command.js';
import { DIVIDER, parseOutputFormat, renderDescription, renderObjects, renderTable, WatchedTable, type OutputFormat, type Section } from './printers.js';
import { keyOf, runJob, type RunFlags } from './run-command.js';
import { formatTime, parseGoDuration } from './time-format.js';

export interface CliIO {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  /** Whether stdin is a terminal: `run` prompts only then. */
  stdinIsTTY: boolean;
  /** Whether stdout is a terminal: section headers are coloured only then. */
  stdoutIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  /** The command's name in help texts: `furiko`, or `kubectl furiko` when run as the plugin. */
  name?: string;
  /** The clock for relative times and `--after`; the wall clock by default. */
  now?: () => Date;
}

const LABEL_JOB_CONFIG_UID = 'execution.furiko.io/job-config-uid';

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** Runs one command line (without the program name); resolves to the exit status. */
export async function runFurikoCli(argv: string[], io: CliIO): Promise<number> {
  const now = io.now ?? (() => new Date());
  const out = (text: string): void => void io.stdout.write(text);
  const program = new Command(io.name ?? 'furiko')
    .description('Command-line utility to manage Furiko.')
    .option('--kubeconfig <path>', 'Path to the kubeconfig file to use for CLI requests.')
    .option('--context <name>', 'The name of the kubeconfig context to use.')
    .option('-n, --namespace <namespace>', 'If present, the namespace scope for this CLI request.')
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: (text) => void io.stderr.write(text) })
    .showHelpAfterError(false);

  const clientOf = (command: Command): FurikoClient => connect(command.optsWithGlobals<ConnectionFlags>(), io.env);
  const outputFlag = () => new FlagOption('-o, --output <format>', 'Output format. One of: pretty, detail, name, json, yaml.').default('pretty');

  program
    .command('run')
    .description('Runs a new Job from an existing JobConfig. On a terminal, prompts for the option values not given.')
    .argument('<jobconfig>', 'the JobConfig to run')
    .option('--option <name=value>', 'An option value (repeatable); a Bool takes true or false, a Multi comma-separated values.', collect, [])
    .option('-O, --option-values <json>', 'Option values in JSON format, e.g. \'{"dest_email": "team@example.com"}\'.')
    .option('--use-default-options', 'Do not prompt for options with a usable default value.')
    .option('--no-interactive', 'Never prompt; required options without a value are an error.')
    .option('--name <name>', "A name for the created Job, otherwise it is generated from the job config's name.")
    .option('--generate-name <prefix>', "A name prefix (generateName) for the created Job; defaults to the job config's name.")
    .option('--at <time>', 'RFC3339 time to start the job at. Implies --concurrency-policy=Enqueue unless given.')
    .option('--after <duration>', 'Duration from now to start the job after (Go duration, e.g. 5m, 3h). Implies --concurrency-policy=Enqueue unless given.')
    .option('--concurrency-policy <policy>', "A concurrency policy for the job (Allow, Forbid, Enqueue), overriding the JobConfig's.")
    .option('--enqueue', 'Shorthand for --concurrency-policy=Enqueue.')
    .action(async (name: string, flags: RunFlags, command: Command) => {
      const prompts = io.stdinIsTTY && flags.interactive ? { reader: new LineReader(io.stdin), output: io.stdout } : undefined;
      await runJob(name, flags, { client: clientOf(command), prompts, now: now(), out });
    });

  const get = program.command('get').description('Displays one or more resources.');
  get
    .command('job')
    .alias('jobs')
    .description('Displays information about one or more Jobs (all Jobs of the namespace when no name is given).')
    .argument('[names...]', 'the Jobs')
    .addOption(outputFlag())
    .action(async (names: string[], flags: { output: string }, command: Command) => {
      const format = parseOutputFormat(flags.output);
      const client = clientOf(command);
      if (names.length === 0) return printJobs(await client.listJobs(), format, client.namespace);
      const jobs = await getEach(names, (name) => client.getJob(name), 'cannot get job');
      printObjects(format, jobs, (job) => jobSections(job, now().getTime(), format === 'detail'));
    });
  get
    .command('jobconfig')
    .alias('jobconfigs')
    .description('Displays information about one or more JobConfigs (all JobConfigs of the namespace when no name is given).')
    .argument('[names...]', 'the JobConfigs')
    .addOption(outputFlag())
    .action(async (names: string[], flags: { output: string }, command: Command) => {
      const format = parseOutputFormat(flags.output);
      const client = clientOf(command);
      if (names.length === 0) return printJobConfigs(await client.listJobConfigs(), format, client.namespace);
      const jobConfigs = await getEach(names, (name) => client.getJobConfig(name), 'cannot get job config');
      printObjects(format, jobConfigs, (jobConfig) => jobConfigSections(jobConfig, now().getTime()));
    });

  const list = program.command('list').description('Displays information about multiple resources.');
  list
    .command('job')
    .alias('jobs')
    .description('Displays information about multiple Jobs.')
    .option('--for <jobconfig>', 'Return only jobs for the given job config.')
    .option('-w, --watch', 'If specified, the list will be watched and changes printed after listing.')
    .addOption(outputFlag())
    .action(async (flags: { output: string; for?: string; watch?: boolean }, command: Command) => {
      const format = parseOutputFormat(flags.output);
      const client = clientOf(command);
      let selector: string | undefined;
      if (flags.for) {
        const jobConfig = await client.getJobConfig(flags.for).catch((err: Error) => {
          throw new Error(`cannot get job config ${flags.for}: ${err.message}`);
        });
        selector = `${LABEL_JOB_CONFIG_UID}=${jobConfig.metadata!.uid}`;
      }
      if (!flags.watch) return printJobs(await client.listJobs(selector), format, client.namespace);
      const table = new WatchedTable(JOB_HEADER);
      await listAndWatch<Job>(client, 'jobs', selector, format, (jobs) => table.render(jobs.map((job) => jobRow(job, now().getTime()))));
    });
  list
    .command('jobconfig')
    .alias('jobconfigs')
    .description('Displays information about multiple JobConfigs.')
    .option('--scheduled', 'Only return job configs with a schedule.')
    .option('--schedule-enabled', 'Only return job configs with a schedule and are enabled.')
    .option('--adhoc-only', 'Only return job configs without a schedule (i.e. adhoc-only job configs).')
    .option('-w, --watch', 'If specified, the list will be watched and changes printed after listing.')
    .addOption(outputFlag())
    .action(async (flags: { output: string; scheduled?: boolean; scheduleEnabled?: boolean; adhocOnly?: boolean; watch?: boolean }, command: Command) => {
      const format = parseOutputFormat(flags.output);
      if (flags.scheduled && flags.adhocOnly) throw new Error('cannot specify --scheduled and --adhoc-only together');
      if (flags.scheduleEnabled && flags.adhocOnly) throw new Error('cannot specify --schedule-enabled and --adhoc-only together');
      const client = clientOf(command);
      const keep = (jc: JobConfig): boolean => {
        if (flags.scheduled && !jc.spec.schedule) return false;
        if (flags.adhocOnly && jc.spec.schedule) return false;
        if (flags.scheduleEnabled && (!jc.spec.schedule || jc.spec.schedule.disabled)) return false;
        return true;
      };
      if (!flags.watch) return printJobConfigs((await client.listJobConfigs()).filter(keep), format, client.namespace);
      const table = new WatchedTable(JOB_CONFIG_HEADER);
      await listAndWatch<JobConfig>(client, 'jobconfigs', undefined, format, (jobConfigs) => table.render(jobConfigs.map((jc) => jobConfigRow(jc, now().getTime()))), keep);
    });

  program
    .command('kill')
    .description('Kills an ongoing Job that is currently running or pending.')
    .argument('<job>', 'the Job to kill')
    .option('--override', 'If the Job already has a kill timestamp, allows overriding the previous value.')
    .option('-t, --at <time>', 'An explicit time to kill the job at, in RFC3339 format.')
    .option('-p, --after <duration>', 'A duration from now after which the job should be killed.')
    .action(async (name: string, flags: { override?: boolean; at?: string; after?: string }, command: Command) => {
      const killAt = killTime(flags, now());
      const client = clientOf(command);
      const job = await client.getJob(name).catch((err: Error) => {
        throw new Error(`cannot get job: ${err.message}`);
      });
      if (job.spec.killTimestamp && !flags.override) {
        throw new Error(`job already has a kill timestamp set to ${formatTime(job.spec.killTimestamp)}, use --override to override previous value`);
      }
      job.spec.killTimestamp = killAt;
      const updated = await client.updateJob(job).catch((err: Error) => {
        throw new Error(`cannot update job: ${err.message}`);
      });
      out(`Requested for job ${keyOf(updated)} to be killed at ${formatTime(killAt)}\n`);
    });

  program
    .command('logs')
    .description("Loads and streams logs for a Job's pod. By default, the latest retry attempt's pod logs will be loaded.")
    .argument('<job>', 'the Job')
    .option('-c, --container <name>', 'Print the logs of this container.')
    .option('-f, --follow', 'Specify if the logs should be streamed.')
    .option('-p, --previous', 'If true, print the logs for the previous instance of the container in a pod if it exists.')
    .option('--limit-bytes <bytes>', 'Maximum bytes of logs to return. Defaults to no limit.')
    .option('-t, --tail <lines>', 'Lines of recent log file to display. Defaults to -1, showing all log lines.')
    .option('-i, --index <index>', 'The parallel index of the task: INT (indexNumber), STRING (indexKey), KEY=VALUE[,KEY2=VALUE2] (matrixValues) or its JSON.')
    .option('-r, --retry-index <n>', 'Which retry attempt to load. By default, the latest retry attempt.')
    .action(async (name: string, flags: LogsFlags, command: Command) => {
      await showLogs(name, flags, clientOf(command), io.stdout);
    });

  program
    .command('completion')
    .description('Generates the autocompletion script for the specified shell (bash or zsh): source <(furiko completion bash).')
    .argument('<shell>', 'bash or zsh')
    .action((shell: string) => out(completionScript(shell, io.name === 'kubectl furiko' ? 'furiko' : (io.name ?? 'furiko'))));

  program
    .command(COMPLETE_COMMAND, { hidden: true })
    .description('Completions for the shell scripts of `completion` (one candidate a line, then :<directive>).')
    .argument('[words...]')
    .allowUnknownOption()
    .helpOption(false)
    .action(async (words: string[], _flags: unknown, command: Command) => {
      const completer: Completer = {
        jobConfigs: async () => (await clientOf(command).listJobConfigs()).map((jc) => jc.metadata!.name!),
        jobs: async () => (await clientOf(command).listJobs()).map((job) => job.metadata!.name!),
      };
      out(await completeWords(program, words, completer));
    });

  for (const disable of [true, false]) {
    const verb = disable ? 'disable' : 'enable';
    program
      .command(verb)
      .description(
        `${disable ? 'Disables' : 'Enables'} automatic scheduling for a JobConfig. A JobConfig without a schedule is an error; one already ${verb}d is left as it is.`,
      )
      .argument('<jobconfig>', 'the JobConfig')
      .action(async (name: string, _flags: unknown, command: Command) => {
        const client = clientOf(command);
        const jobConfig = await client.getJobConfig(name).catch((err: Error) => {
          throw new Error(`cannot get job config: ${err.message}`);
        });
        const schedule = jobConfig.spec.schedule;
        if (!schedule) throw new Error('job config has no schedule specified');
        if (Boolean(schedule.disabled) === disable) return out(`Job config ${keyOf(jobConfig)} is already ${verb}d\n`);
        schedule.disabled = disable;
        await client.updateJobConfig(jobConfig).catch((err: Error) => {
          throw new Error(`cannot update job config: ${err.message}`);
        });
        out(`Successfully ${verb}d automatic scheduling for job config ${keyOf(jobConfig)}\n`);
      });
  }

  /**
   * `list … --watch`, as Furiko's: the list first (nothing when empty), then each change from the list's
   * resourceVersion on, one row (or object) per event, until the watch ends or the command is interrupted.
   * An object once shown stays shown when it no longer passes `keep` (Furiko's filter cache).
   */
  async function listAndWatch<T extends Job | JobConfig>(
    client: FurikoClient,
    plural: 'jobs' | 'jobconfigs',
    selector: string | undefined,
    format: OutputFormat,
    rows: (objects: T[]) => string,
    keep: (object: T) => boolean = () => true,
  ): Promise<void> {
    const shown = new Set<string>();
    const passes = (object: T): boolean => {
      if (keep(object)) shown.add(object.metadata!.uid!);
      return shown.has(object.metadata!.uid!);
    };
    const print = (objects: T[]): void => {
      if (format === 'pretty' || format === 'detail') out(rows(objects));
      else for (const object of objects) out(renderObjects(format, [object], false));
    };
    const { items, resourceVersion } = await client.listWithVersion<T>(plural, selector).catch((err: Error) => {
      throw new Error(`cannot list ${plural}: ${err.message}`);
    });
    const listed = items.filter(passes);
    if (listed.length) print(listed);
    await client
      .watch<T>(plural, resourceVersion, selector, ({ object }) => {
        if (passes(object)) print([object]);
      })
      .catch((err: Error) => {
        throw new Error(`cannot watch ${plural}: ${err.message}`);
      });
  }

  function printObjects<T extends Job | JobConfig>(format: ReturnType<typeof parseOutputFormat>, objects: T[], describe: (object: T) => Section[]): void {
    if (format !== 'pretty' && format !== 'detail') return out(renderObjects(format, objects, false));
    out(objects.map((object) => renderDescription(describe(object), io.stdoutIsTTY)).join(DIVIDER));
  }

  function printJobs(jobs: Job[], format: OutputFormat, namespace: string): void {
    if (format !== 'pretty' && format !== 'detail') return out(renderObjects(format, jobs, true));
    if (jobs.length === 0) return out(`No jobs found in ${namespace} namespace.\n`);
    out(
      renderTable(
        JOB_HEADER,
        jobs.map((job) => jobRow(job, now().getTime())),
      ),
    );
  }

  function printJobConfigs(jobConfigs: JobConfig[], format: ReturnType<typeof parseOutputFormat>, namespace: string): void {
    if (format !== 'pretty' && format !== 'detail') return out(renderObjects(format, jobConfigs, true));
    if (jobConfigs.length === 0) return out(`No job configs found in ${namespace} namespace.\n`);
    out(
      renderTable(
        JOB_CONFIG_HEADER,
        jobConfigs.map((jc) => jobConfigRow(jc, now().getTime())),
      ),
    );
  }

  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    io.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

/** Fetches each named object, in order; the first failure stops with `<what>: <server message>`. */
async function getEach<T>(names: string[], get: (name: string) => Promise<T>, what: string): Promise<T[]> {
  const objects: T[] = [];
  for (const name of names) {
    objects.push(
      await get(name).catch((err: Error) => {
        throw new Error(`${what}: ${err.message}`);
      }),
    );
  }
  return objects;
}

/** The kill time of `kill`'s flags: `--at`, now plus `--after`, or now; never in the past. */
function killTime(flags: { at?: string; after?: string }, now: Date): string {
  let at: number | undefined;
  if (flags.at !== undefined) {
    at = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(flags.at) ? Date.parse(flags.at) : NaN;
    if (Number.isNaN(at)) throw new Error(`invalid value for --at: cannot parse ${flags.at} as RFC3339 timestamp`);
  }
  if (flags.after !== undefined) {
    if (at !== undefined) throw new Error('cannot specify both --after and --at together');
    const ms = parseGoDuration(flags.after);
    if (ms === undefined) throw new Error(`invalid value for --after: cannot parse ${flags.after} as duration`);
    at = now.getTime() + ms;
  }
  if (at !== undefined && at < now.getTime()) throw new Error(`cannot specify to kill job after a time in the past: ${formatTime(new Date(at).toISOString())}`);
  return new Date(at ?? now.getTime()).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
