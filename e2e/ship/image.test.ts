/**
 * An image that builds (issue 15), proven without a container engine: a made project whose kubeforge
 * dependency is a tarball outside the project (`file:<path>.tgz`, the development spelling); `make
 * docker-build` with no engine stops with one line naming CONTAINER_TOOL and changes nothing; `make
 * docker-context` copies the tarball into the build context; then the Dockerfile's own instructions are
 * performed in order in a copy of that context (e2e/ship/dockerfile-steps.ts: COPY as copies, RUN through
 * sh) and the image's folder is started the way its ENTRYPOINT would — as the image's non-root USER
 * (setpriv, when the test runs as root), the folder read-only, only production dependencies in it — first
 * with --help, then against a local cluster until it holds the leader lease. `/nodejs/bin/node` (the
 * distroless image's node) is this machine's node. Slow (npm ci with a native build, tsc);
 * KUBEFORGE_SKIP_NPM_INSTALL=1 skips it.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocalCluster, type LocalCluster } from '../../src/cluster/index.js';
import { Kubectl } from '../cluster/kubectl-runner.js';
import { createApi, init } from '../scaffold/scaffold-harness.js';
import { copyContext, inStage, performDockerfile, shellRunner } from './dockerfile-steps.js';
import { expectSuccess, packKubeforge, plainEnv, prebuiltBinaryMirror, runCommand, SKIP_NPM_INSTALL } from './ship-harness.js';

/** Makes every file and folder under `path` read-only for everyone (symbolic links are left alone). */
function makeReadOnly(path: string): void {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) for (const entry of readdirSync(path)) makeReadOnly(join(path, entry));
  chmodSync(path, stat.mode & 0o555);
}

/** The command line that runs `argv` as `user` ("uid:gid"): setpriv when this test runs as root. */
function asUser(user: string, argv: string[]): string[] {
  const [uid, gid] = user.split(':');
  if (process.getuid?.() !== 0) return argv;
  return ['setpriv', `--reuid=${uid}`, `--regid=${gid ?? uid}`, '--clear-groups', '--', ...argv];
}

/**
 * npm's default for the lock's tarball URLs, as a user's `npm install` records them and as the builder image
 * (node:20-bookworm, no npmrc) keeps them: this machine's ~/.npmrc omits them (omit-lockfile-registry-resolved),
 * and npm ci on a lock without them reads every package's metadata to find its tarball (10 CPU-s instead of 4.5).
 */
const NPM_DEFAULTS = { npm_config_omit_lockfile_registry_resolved: 'false' };

(SKIP_NPM_INSTALL ? describe.skip : describe)('the made project’s Dockerfile, performed step by step', () => {
  let parent: string;
  let cluster: LocalCluster | undefined;
  beforeAll(() => {
    parent = mkdtempSync(join(tmpdir(), 'kubeforge-image-'));
    // The image's user (65532) must reach the image folder under it.
    chmodSync(parent, 0o755);
  });
  afterAll(async () => {
    await cluster?.stop();
    // KUBEFORGE_KEEP_SCAFFOLD=1 keeps the project, the context and the stages for a look after the run.
    if (process.env.KUBEFORGE_KEEP_SCAFFOLD === '1') process.stderr.write(`kept: ${parent}\n`);
    else rmSync(parent, { recursive: true, force: true });
  });

  it('builds from its context alone and starts as the ENTRYPOINT, non-root, read-only, production dependencies only', async () => {
    const tarball = await packKubeforge(parent);
    const project = join(parent, 'shop');
    expect(init(project, { domain: 'example.com', repo: 'shop-operator', kubeforgeDependency: `file:${tarball}` })).toMatchObject({ code: 0, err: '' });
    expect(await createApi(project, { group: 'shop', version: 'v1', kind: 'Cart' })).toMatchObject({ code: 0, err: '' });
    // The lock file a user has after `npm install` (resolved only: the Dockerfile's npm ci installs), with
    // npm's defaults for what it records (NPM_DEFAULTS).
    await expectSuccess('image', 'npm', ['install', '--package-lock-only', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], project, plainEnv(NPM_DEFAULTS));
    const locked = JSON.parse(readFileSync(join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, { resolved?: string }> };
    expect(locked.packages['node_modules/yaml']?.resolved).toMatch(/^https?:\/\/.+\/yaml-[^/]+\.tgz$/);

    // No engine: one line naming CONTAINER_TOOL, and nothing packed or copied.
    const noEngine = await runCommand('make', ['docker-build', 'CONTAINER_TOOL=no-such-engine', 'IMG=shop:dev'], project);
    expect(noEngine.code).not.toBe(0);
    expect(noEngine.stdout).toBe('');
    expect(noEngine.output.trim().split('\n')).toEqual([expect.stringContaining('CONTAINER_TOOL=no-such-engine is not on the PATH')]);
    expect(existsSync(join(project, '.kubeforge/image'))).toBe(false);

    // The tarball dependency outside the project is copied into the build context.
    const contextOut = await expectSuccess('image', 'make', ['docker-context'], project);
    expect(contextOut).toContain(`docker-context: kubeforge (file:${tarball}) copied into .kubeforge/image/`);
    expect(readdirSync(join(project, '.kubeforge/image'))).toEqual([tarball.split('/').pop()]);

    const context = join(parent, 'context');
    copyContext(project, context);
    expect(existsSync(join(context, '.kubeforge/image', tarball.split('/').pop()!))).toBe(true);
    // Nothing outside the context: the tarball the project's package.json names is moved away for the build.
    renameSync(tarball, `${tarball}.away`);
    const log: string[] = [];
    const dockerfile = readFileSync(join(context, 'Dockerfile'), 'utf8');
    let stages;
    // better-sqlite3's prebuilt binary as the image build would download it (this machine cannot reach GitHub).
    const mirror = await prebuiltBinaryMirror(join(parent, 'mirror'));
    // npm's cache taken as it is (prefer-offline), as for the lock above, which put every package the lock
    // names in it: otherwise npm revalidates cached metadata with the registry, one request per package whose
    // metadata it reads (the lock update of the first RUN line; npm ci too when the lock has no tarball URLs,
    // 4 s of CPU then), none of it building anything (an image build starts from an empty cache).
    const runEnv = plainEnv({ ...mirror.env, ...NPM_DEFAULTS, npm_config_prefer_offline: 'true' });
    try {
      stages = performDockerfile(dockerfile, context, join(parent, 'stages'), shellRunner(runEnv, log));
    } finally {
      mirror.close();
      process.stderr.write(`image.test.ts:\n${log.join('\n')}\n`);
    }
    // The steps the issue asks for, in the Dockerfile's own RUN lines.
    const runs = log.join('\n');
    for (const step of ['npm ci', 'tsc -p tsconfig.build.json', 'npm prune --omit=dev']) expect(runs).toContain(step);
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const image = stages[stages.length - 1];
    expect(image.user).toBe('65532:65532');
    expect(image.entrypoint).toEqual(['/nodejs/bin/node', '--enable-source-maps', 'dist/cmd/main.js']);

    // Only production dependencies, kubeforge from the tarball (a real folder, not a link out of the image).
    const modules = inStage(image, 'node_modules');
    for (const dev of ['typescript', 'jest', '@swc/core', '@swc/jest', '@types/jest']) expect({ dev, present: existsSync(join(modules, dev)) }).toEqual({ dev, present: false });
    expect(lstatSync(join(modules, 'kubeforge')).isDirectory()).toBe(true);
    expect(existsSync(inStage(image, 'dist/cmd/main.js'))).toBe(true);
    expect(existsSync(inStage(image, 'api'))).toBe(false);

    makeReadOnly(image.root);
    const entrypoint = [process.execPath, ...image.entrypoint!.slice(1)];
    const cwd = inStage(image, '.');
    const [command, ...args] = asUser(image.user!, [...entrypoint, '--help']);
    const help = await runCommand(command, args, cwd);
    expect({ code: help.code, usage: help.stdout.startsWith('Usage: node dist/cmd/main.js') }).toEqual({ code: 0, usage: true });

    // Against a local cluster with the CRDs installed (make install): the manager takes the leader lease,
    // then stops on SIGTERM with exit 0.
    cluster = await startLocalCluster({ clock: 'real' });
    const kubectl = new Kubectl(cluster.kubeconfigPath);
    try {
      await kubectl.ok(['apply', '--server-side', '-f', join(project, 'config/crd/bases')]);
    } finally {
      kubectl.cleanup();
    }
    const kubeconfig = join(parent, 'kubeconfig');
    writeFileSync(kubeconfig, readFileSync(cluster.kubeconfigPath));
    chmodSync(kubeconfig, 0o644);
    const managerArgv = asUser(image.user!, [...entrypoint, '--kubeconfig', kubeconfig, '--leader-elect', '--health-probe-bind-address=0', '--metrics-bind-address=0', '--webhook-port=0']);
    const manager = spawn(managerArgv[0], managerArgv.slice(1), { cwd, env: plainEnv({ HOME: '/nonexistent' }), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    manager.stdout.on('data', (c: Buffer) => (output += c.toString()));
    manager.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => manager.on('exit', (code) => resolve(code)));
    try {
      for (let i = 0; i < 300 && !output.includes('successfully acquired lease') && manager.exitCode === null; i++) await new Promise((r) => setTimeout(r, 100));
      expect({ leader: output.includes('successfully acquired lease'), output: output.includes('successfully acquired lease') ? '' : output }).toEqual({ leader: true, output: '' });
    } finally {
      manager.kill('SIGTERM');
    }
    const code = await exited;
    expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
  }, 900_000);
});
