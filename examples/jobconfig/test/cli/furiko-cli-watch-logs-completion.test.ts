/**
 * The `furiko` CLI's list watch, logs and shell completion, through the real `kubectl furiko …` against
 * the local cluster running this operator with the kubelet simulator running the task Pods (so they have
 * logs): `list job -w` prints the list then each change; `logs <job>` prints the task Pod's log (the
 * simulator's container start line); `completion bash` is sourced by a real bash and completes from
 * `__complete`, which lists subcommands, flags and JobConfig/Job names from the cluster. Each command's
 * first run (and a refusal's exit status) goes through kubectl; its further flag variations run the same
 * command line through the CLI's own entry in this process (plugin.inProcess).
 */
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JobKind, type Job } from '../../api/v1alpha1/job_types.js';
import { startFurikoEnv, type FurikoEnv } from '../furiko-env.js';
import { job, jobConfig } from '../webhook-env.js';
import { buildFurikoPlugin, runCommand, TerminalSession, type FurikoPlugin } from './furiko-plugin.js';

let furiko: FurikoEnv;
let plugin: FurikoPlugin;
const start = new Date();
const COMMAND = 'sh -c echo hi; sleep 600';

const adhoc = (name: string, extra: Partial<Job['spec']> = {}): Job =>
  job(name, {
    ...extra,
    template: { taskTemplate: { pod: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'alpine', command: ['sh', '-c', 'echo hi; sleep 600'] }] } } } },
  });

const jobOf = (name: string) => furiko.admin.get(JobKind, { namespace: 'default', name });

beforeAll(async () => {
  furiko = await startFurikoEnv({ now: start, controllers: 'all', webhooks: true, pods: 'simulate' });
  plugin = buildFurikoPlugin(furiko.env.cluster.kubeconfigPath);
  await furiko.admin.create(jobConfig('nightly', { schedule: { cron: { expression: '0 3 * * *' } } }));
  await furiko.admin.create(adhoc('first'));
  // Not before a day from now: no task yet.
  await furiko.admin.create(adhoc('later', { startPolicy: { concurrencyPolicy: 'Allow', startAfter: new Date(start.getTime() + 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z') } }));
  await furiko.env.settle();
  // The simulator pulls the image and starts the container within seconds of cluster time.
  await furiko.env.stepTo(new Date(start.getTime() + 30_000));
}, 120_000);

afterAll(async () => {
  plugin?.remove();
  await furiko?.stop();
});

describe('kubectl furiko logs', () => {
  it("prints the log of the Job's task Pod (its only task, latest retry)", async () => {
    const task = (await jobOf('first')).status?.tasks?.[0];
    expect(task?.status.state).toBe('Running');
    const result = await plugin.kubectl(['logs', 'first']);
    expect(result).toEqual({ code: 0, stdout: `kubeforge: container main started (image alpine, command: ${COMMAND})\n`, stderr: '' });
  });

  it("refuses a Job without tasks yet and a bad --retry-index, with Furiko's messages", async () => {
    expect(await plugin.kubectl(['logs', 'later'])).toEqual({ code: 1, stdout: '', stderr: 'Error: cannot load logs for later: no tasks created yet, try again later\n' });
    expect(await plugin.inProcess(['logs', 'first', '--retry-index', 'x'])).toMatchObject({ code: 1, stderr: 'Error: invalid value for --retry-index: cannot parse x as int\n' });
    expect(await plugin.inProcess(['logs', 'first', '-r', '3'])).toMatchObject({ code: 1, stderr: 'Error: cannot load logs for first: no started tasks found for retry 3\n' });
  });
});

describe('kubectl furiko list job --watch', () => {
  it('prints the list, then a row for each change until interrupted', async () => {
    const session = new TerminalSession(`kubectl furiko list job -w`, plugin.env());
    const listed = await session.waitFor('later');
    await furiko.admin.create(adhoc('second'));
    await session.waitFor('second', listed);
    await session.stop();
    const lines = session.screen.split('\n').filter((line) => line.trim() !== '');
    expect(lines[0]).toMatch(/^NAME +PHASE +START TIME +RUN TIME +FINISH TIME$/);
    expect(lines.slice(1, 3)).toEqual([expect.stringMatching(/^first +Running +/), expect.stringMatching(/^later +\w+/)]);
    // Its first change is its creation (no phase yet, so the row may be its name alone).
    expect(lines.slice(3).some((line) => /^second( |$)/.test(line))).toBe(true);
    expect(lines.filter((line) => line.startsWith('NAME'))).toHaveLength(1);
  });
});

describe('shell completion', () => {
  it('__complete lists subcommands, flags and names from the cluster, then the no-file directive', async () => {
    expect((await plugin.kubectl(['__complete', 'l'])).stdout).toBe('list\nlogs\n:4\n');
    expect((await plugin.inProcess(['__complete', 'run', ''])).stdout).toBe('nightly\n:4\n');
    expect((await plugin.inProcess(['__complete', 'logs', 'f'])).stdout).toBe('first\n:4\n');
    expect((await plugin.inProcess(['__complete', 'list', 'job', '--for', ''])).stdout).toBe('nightly\n:4\n');
    expect((await plugin.inProcess(['__complete', 'get', 'job', '-o', 'y'])).stdout).toBe('yaml\n:4\n');
    expect((await plugin.inProcess(['__complete', 'list', 'job', '--w'])).stdout).toBe('--watch\n:4\n');
  });

  it('completion bash, sourced by bash, completes `furiko run <TAB>` and `furiko kill s<TAB>`', async () => {
    const script = await plugin.kubectl(['completion', 'bash']);
    expect(script).toMatchObject({ code: 0, stderr: '' });
    expect(script.stdout).toContain('complete -F __furiko_complete furiko');
    symlinkSync(join(plugin.binDir, 'kubectl-furiko'), join(plugin.binDir, 'furiko'));
    // (Asynchronously: the cluster answering the completions runs in this process.) The first completion
    // loads the script as its comment says, `source <(furiko completion bash)`; the others source the same
    // script saved from the run above (one furiko process fewer each: its answers come from __complete).
    const saved = join(plugin.binDir, 'furiko-completion.bash');
    writeFileSync(saved, script.stdout);
    let source = 'source <(furiko completion bash)';
    const complete = async (line: string): Promise<string> => {
      const words = line.split(' ');
      const program = `${source}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; __furiko_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
      source = `source '${saved}'`;
      const result = await runCommand('bash', ['-c', program], plugin.env());
      expect(result).toMatchObject({ code: 0, stderr: '' });
      return result.stdout;
    };
    expect(await complete('furiko run ')).toBe('nightly\n');
    expect(await complete('furiko kill s')).toBe('second\n');
    expect(await complete('furiko get j')).toBe('job\njobconfig\n');
  });

  it('completion zsh is a #compdef script calling __complete; another shell is refused', async () => {
    const zsh = await plugin.inProcess(['completion', 'zsh']);
    expect(zsh.stdout.split('\n')[0]).toBe('#compdef furiko');
    expect(zsh.stdout).toContain('__complete "${(@)words[2,CURRENT]}"');
    expect(await plugin.inProcess(['completion', 'fish'])).toEqual({ code: 1, stdout: '', stderr: 'Error: unsupported shell "fish": one of bash, zsh\n' });
  });
});

describe('kubectl furiko logs -f', () => {
  it("follows the task Pod's log to the end of its container (here already finished: the whole log, then exit 0)", async () => {
    // sleep 600 ends on the cluster's clock; the task and its Pod finish.
    await furiko.env.stepTo(new Date(start.getTime() + 700_000));
    expect((await jobOf('first')).status?.tasks?.[0]?.status.state).toBe('Terminated');
    const result = await plugin.kubectl(['logs', 'first', '-f']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.startsWith(`kubeforge: container main started (image alpine, command: ${COMMAND})\n`)).toBe(true);
  });

  it('passes --tail, --limit-bytes and -c on to the API server, with and without -f, and prints its refusals', async () => {
    const whole = (await plugin.inProcess(['logs', 'first'])).stdout;
    const lines = whole.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(1);
    const last = `${lines.at(-1)}\n`;
    for (const follow of [[], ['-f']]) {
      expect(await plugin.inProcess(['logs', 'first', ...follow, '--tail', '1'])).toEqual({ code: 0, stdout: last, stderr: '' });
      expect(await plugin.inProcess(['logs', 'first', ...follow, '--limit-bytes', '9'])).toEqual({ code: 0, stdout: 'kubeforge', stderr: '' });
      expect(await plugin.inProcess(['logs', 'first', ...follow, '-c', 'main'])).toEqual({ code: 0, stdout: whole, stderr: '' });
    }
    const pod = (await jobOf('first')).status!.tasks![0]!.name;
    // Without -f, the Status message; a refused follow reads as client-node's log streamer put it.
    expect(await plugin.inProcess(['logs', 'first', '-c', 'nope'])).toEqual({ code: 1, stdout: '', stderr: `Error: cannot stream pod logs for ${pod}: container nope is not valid for pod ${pod}\n` });
    expect(await plugin.inProcess(['logs', 'first', '-f', '-c', 'nope'])).toEqual({ code: 1, stdout: '', stderr: `Error: cannot stream pod logs for ${pod}: the server answered 400\n` });
  });
});
