/**
 * The command line's edges: `version`, `edit`, required options in `--help`, every bad name in one run,
 * mistyped options, `init` twice, module-path `--repo`, and every project command outside a project.
 * The real binary (`node bin/kubeforge.js` in a fresh process, from dist/) runs `version`, `--version`, a
 * mistyped option and `manifests` outside a project: its exit status and its stdout and stderr as a user
 * sees them (the installed command is run by install-cli.test.ts, `create webhook --dry-run` through the
 * binary by conversion.test.ts). Every other case runs the same `main` in this process from the same
 * folder (process.chdir, the output captured as runCli does): a spawn costs ~0.17 CPU-s, this ~0.02.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CHECKOUT, runCli, tempProject, treeHash } from './scaffold-harness.js';

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `kubeforge <args>` from `cwd` through the real binary, in a fresh process. */
function kubeforgeBinary(args: string[], cwd: string): Run {
  if (!existsSync(join(CHECKOUT, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npx tsc -p tsconfig.build.json` first');
  const run = spawnSync(process.execPath, [join(CHECKOUT, 'bin/kubeforge.js'), ...args], { cwd, encoding: 'utf8' });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** `kubeforge <args>` from `cwd` through the CLI's `main` in this process (the working folder restored after). */
async function kubeforge(args: string[], cwd: string): Promise<Run> {
  const previous = process.cwd();
  process.chdir(cwd);
  try {
    const { code, out, err } = await runCli(args);
    return { status: code, stdout: out, stderr: err };
  } finally {
    process.chdir(previous);
  }
}

const packageVersion = (JSON.parse(readFileSync(join(CHECKOUT, 'package.json'), 'utf8')) as { version: string }).version;
const readProject = (root: string) => parse(readFileSync(join(root, 'PROJECT'), 'utf8')) as { repo: string; multigroup?: boolean; resources: Array<{ group: string; kind: string; path: string }> };

describe('kubeforge version', () => {
  it('prints its version, the Kubernetes version it targets and the controller-runtime/controller-tools levels, as `version` and `--version`', () => {
    const command = kubeforgeBinary(['version'], CHECKOUT);
    expect(command.status).toBe(0);
    const lines = command.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`kubeforge:          ${packageVersion}`);
    expect(lines[1]).toMatch(/^Kubernetes: +1\.32 \(.*v1\.32\.\d+\)$/);
    expect(lines[2]).toMatch(/^controller-runtime: v0\.22 /);
    expect(lines[3]).toMatch(/^controller-tools: +v0\.21 /);
    expect(lines[4]).toMatch(/^kubebuilder layout: go\/v4 /);
    expect(lines[5]).toMatch(/^Node\.js: +v\d+/);
    const flag = kubeforgeBinary(['--version'], CHECKOUT);
    expect(flag).toEqual({ status: 0, stdout: command.stdout, stderr: '' });
  });
});

describe('kubeforge usage errors', () => {
  const project = tempProject('edges');
  let root = '';
  beforeAll(async () => {
    root = project.root;
    expect((await kubeforge(['init', '--domain', 'example.com', '--repo', 'edges', '--license', 'none'], root)).status).toBe(0);
  });
  afterAll(() => project.remove());

  it('marks --domain and --repo of init, and --group/--version/--kind of the create commands, as required in --help', async () => {
    const requiredIn = async (args: string[]) =>
      (await kubeforge([...args, '--help'], root)).stdout
        .split(/\n(?=  -)/)
        .filter((entry) => entry.includes('(required)'))
        .map((entry) => entry.trim().split(' ')[0]);
    expect(await requiredIn(['init'])).toEqual(['--domain', '--repo']);
    expect(await requiredIn(['create', 'api'])).toEqual(['--group', '--version', '--kind']);
    expect(await requiredIn(['create', 'webhook'])).toEqual(['--group', '--version', '--kind']);
  });

  it('reports a mistyped option with a suggestion and a one-line pointer to --help, not a missing --version or the whole help', async () => {
    const before = treeHash(root);
    const run = kubeforgeBinary(['create', 'api', '--group', 'batch', '--verison', 'v1', '--kind', 'CronJob'], root);
    expect(run).toEqual({
      status: 1,
      stdout: '',
      stderr: "error: unknown option '--verison' (did you mean --version?)\nRun 'kubeforge create api --help' for its options.\n",
    });
    expect((await kubeforge(['--verison'], root)).stderr).toBe("error: unknown option '--verison' (did you mean --version?)\nRun 'kubeforge --help' for its options.\n");
    expect((await kubeforge(['verison'], root)).stderr).toBe("error: unknown command 'verison' (did you mean version?)\nRun 'kubeforge --help' for its options.\n");
    expect(treeHash(root)).toBe(before);
  });

  it('reports every bad --group/--version/--kind in one run, and missing required options with them', async () => {
    const before = treeHash(root);
    const bad = await kubeforge(['create', 'api', '--group', 'Batch', '--version', '1', '--kind', 'cronJob'], root);
    expect(bad.status).toBe(1);
    expect(bad.stderr.split('\n').filter(Boolean)).toEqual([
      'kubeforge create api: --group "Batch": must be a DNS-1123 subdomain: lower-case letters, digits, "-" and ".", starting and ending with a letter or digit',
      'kubeforge create api: --version "1": must look like v1, v2, v1alpha1 or v2beta3 (v, a number, then optionally alpha|beta and a number)',
      'kubeforge create api: --kind "cronJob": must be PascalCase: an upper-case letter, then letters and digits (e.g. CronJob)',
    ]);
    const missing = await kubeforge(['create', 'webhook', '--group', 'Batch', '--kind', 'cronJob', '--defaulting'], root);
    expect(missing.status).toBe(1);
    expect(missing.stderr.split('\n').filter(Boolean)).toEqual([
      'kubeforge create webhook: --version: required, not given (e.g. --version v1)',
      'kubeforge create webhook: --group "Batch": must be a DNS-1123 subdomain: lower-case letters, digits, "-" and ".", starting and ending with a letter or digit',
      'kubeforge create webhook: --kind "cronJob": must be PascalCase: an upper-case letter, then letters and digits (e.g. CronJob)',
    ]);
    const bare = tempProject('bare');
    const init = await kubeforge(['init'], bare.root);
    bare.remove();
    expect(init.stderr).toBe('kubeforge init: --domain: required, not given (e.g. --domain my.domain)\nkubeforge init: --repo: required, not given (e.g. --repo github.com/org/project)\n');
    expect(treeHash(root)).toBe(before);
  });

  it('refuses init in an initialised folder in one line and changes nothing', async () => {
    const before = treeHash(root);
    const again = await kubeforge(['init', '--domain', 'example.com', '--repo', 'edges'], root);
    expect(again).toEqual({
      status: 1,
      stdout: '',
      stderr: `kubeforge init: ${root} already holds a project (its PROJECT exists); nothing was written (use --force to scaffold over it)\n`,
    });
    expect(treeHash(root)).toBe(before);
  });
});

describe('init --repo with module paths (the kubebuilder book)', () => {
  it.each([
    ['my.domain/guestbook', 'guestbook'],
    ['github.com/Example-Org/cronjob-operator', '@example-org/cronjob-operator'],
  ])('--repo %s: package.json is named %s, PROJECT keeps the module path, and the output says so', async (repo, packageName) => {
    const project = tempProject('book');
    try {
      const run = await kubeforge(['init', '--domain', 'my.domain', '--repo', repo], project.root);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain(`--repo ${repo} is a module path: the npm package is named "${packageName}" (package.json); PROJECT keeps repo: ${repo}\n`);
      expect((JSON.parse(readFileSync(join(project.root, 'package.json'), 'utf8')) as { name: string }).name).toBe(packageName);
      expect(readProject(project.root).repo).toBe(repo);
      const api = await kubeforge(['create', 'api', '--group', 'webapp', '--version', 'v1', '--kind', 'Guestbook', '--make=false'], project.root);
      expect(api.status).toBe(0);
      expect(readProject(project.root).resources[0]!.path).toBe(`${repo}/api/v1`);
    } finally {
      project.remove();
    }
  });
});

describe('outside a project', () => {
  it.each([
    ['manifests', ['manifests'], 'the binary'],
    ['generate', ['generate'], 'in-process'],
    ['create api', ['create', 'api', '--group', 'batch', '--version', 'v1', '--kind', 'CronJob'], 'in-process'],
    ['create webhook', ['create', 'webhook', '--group', 'batch', '--version', 'v1', '--kind', 'CronJob', '--defaulting'], 'in-process'],
    ['edit', ['edit', '--multigroup'], 'in-process'],
  ])('kubeforge %s says no PROJECT was found in the folder or its parents, exits 1 and writes nothing (%s)', async (name, args, via) => {
    const empty = tempProject('empty');
    try {
      const before = treeHash(empty.root);
      const run = via === 'the binary' ? kubeforgeBinary(args, empty.root) : await kubeforge(args, empty.root);
      expect(run).toEqual({
        status: 1,
        stdout: '',
        stderr: `kubeforge ${name}: no PROJECT found in ${empty.root} or its parents; run \`kubeforge init\` first, or pass --root <project folder>\n`,
      });
      expect(treeHash(empty.root)).toBe(before);
    } finally {
      empty.remove();
    }
  });
});

describe('kubeforge edit', () => {
  const project = tempProject('editable');
  let root = '';
  beforeAll(async () => {
    root = project.root;
    expect((await kubeforge(['init', '--domain', 'example.com', '--repo', 'editable', '--license', 'none'], root)).status).toBe(0);
    expect((await kubeforge(['create', 'api', '--group', 'batch', '--version', 'v1', '--kind', 'CronJob', '--make=false'], root)).status).toBe(0);
  });
  afterAll(() => project.remove());

  it('--multigroup sets PROJECT, moves nothing, and the next create api uses api/<group>/<version>', async () => {
    const run = await kubeforge(['edit', '--multigroup'], root);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n')[0]).toBe('update PROJECT');
    expect(run.stdout).toContain('the 1 existing API stays where it is');
    expect(readProject(root).multigroup).toBe(true);
    expect(existsSync(join(root, 'api/v1/cronjob_types.ts'))).toBe(true);

    const second = await kubeforge(['create', 'api', '--group', 'ship', '--version', 'v1beta1', '--kind', 'Frigate', '--make=false'], root);
    expect(second.stderr).toBe('');
    expect(existsSync(join(root, 'api/ship/v1beta1/frigate_types.ts'))).toBe(true);
    expect(existsSync(join(root, 'internal/controller/ship/frigate_controller.ts'))).toBe(true);
    expect(readProject(root).resources.map((r) => r.path)).toEqual(['editable/api/v1', 'editable/api/ship/v1beta1']);

    // An API made before the switch keeps its layout: its webhook imports its types from api/v1.
    const webhook = await kubeforge(['create', 'webhook', '--group', 'batch', '--version', 'v1', '--kind', 'CronJob', '--defaulting', '--make=false'], root);
    expect(webhook.stderr).toBe('');
    expect(readFileSync(join(root, 'internal/webhook/v1/cronjob_webhook.ts'), 'utf8')).toContain("from '../../../api/v1/cronjob_types.js'");
  });

  it('with the same setting changes nothing; back to single-group is refused with two groups; --plugins takes only what edits', async () => {
    const before = treeHash(root);
    expect(await kubeforge(['edit', '--multigroup=true'], root)).toEqual({ status: 0, stdout: 'PROJECT already has multigroup: true; nothing to change\n', stderr: '' });
    expect(await kubeforge(['edit', '--multigroup=false'], root)).toEqual({
      status: 1,
      stdout: '',
      stderr: 'kubeforge edit: --multigroup "false": the project has APIs in 2 groups (batch, ship); a single-group project has one\n',
    });
    expect((await kubeforge(['edit', '--plugins', 'helm/v1-alpha'], root)).stderr).toBe(
      'kubeforge edit: --plugins "helm/v1-alpha": unknown plugin "helm/v1-alpha" for edit; edit supports kubeforge.io/ts/v1\n',
    );
    expect((await kubeforge(['edit', '--multigroup=maybe'], root)).stderr).toContain('--multigroup: expected true or false, got "maybe"');
    expect(await kubeforge(['edit'], root)).toMatchObject({ status: 1, stderr: 'kubeforge edit: nothing to edit: pass --multigroup[=true|false] (or --plugins with a plugin that edits the project)\n' });
    expect(treeHash(root)).toBe(before);
  });

  it('finds the project from a subfolder, as git finds .git', async () => {
    const run = await kubeforge(['edit', '--multigroup'], join(root, 'api'));
    expect(run).toEqual({ status: 0, stdout: 'PROJECT already has multigroup: true; nothing to change\n', stderr: '' });
  });
});
