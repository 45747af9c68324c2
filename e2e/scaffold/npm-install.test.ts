/**
 * A freshly made project installs for real: `init` + `create api`, then `npm install` (the npm registry and
 * this checkout only), its type-check and its own `npm test` (jest against the local cluster), each exiting
 * 0. Slow (over a minute on a loaded machine); KUBEFORGE_SKIP_NPM_INSTALL=1 skips it, CI runs it. The project
 * takes kubeforge with the development spelling `--kubeforge-dependency file:<this checkout>` (the default,
 * `^<version>`, needs kubeforge on the registry; e2e/ship/publish.test.ts installs the packed tarball).
 *
 * `--ignore-scripts`: the dist/ of this checkout is the one its `npm test` built (kubeforge has no
 * `prepare` script any more, only `prepack`); the only other install script in the tree is @swc/core's
 * check of its native binding, which the type-check and jest run below exercise anyway.
 *
 * The install is the jest run's one fresh install of this dependency set (e2e/fresh-install.ts): e2e/examples/
 * run-local.test.ts's first example has the same inputs, and whichever file comes first runs `npm install`
 * for real; the other gets its outcome (asserted here as if run here) and a hard-linked copy of its tree.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshInstall } from '../fresh-install.js';
import { CHECKOUT, createApi, init, tempProject } from './scaffold-harness.js';

const skip = process.env.KUBEFORGE_SKIP_NPM_INSTALL === '1';
if (skip) process.stderr.write('npm-install.test.ts: skipped because KUBEFORGE_SKIP_NPM_INSTALL=1 (the real npm install of a made project is not run)\n');

/** Runs a command in the made project; resolves to its exit status and the last of its output. */
function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  // No npm_* variables from an outer `npm test`, no NODE_OPTIONS: the made project's npm sees a plain shell.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE_OPTIONS' && k !== 'JEST_WORKER_ID'));
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => resolve({ code: -1, output: `${output}\n${err.message}` }));
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

/** The exit status, with the command's output attached when it failed, so the failure explains itself. */
function expectExitedZero(command: string, args: string[], { code, output }: { code: number; output: string }, started: number): void {
  process.stderr.write(`npm-install.test.ts: \`${command} ${args.join(' ')}\` exited ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  expect({ command: `${command} ${args.join(' ')}`, code, output: code === 0 ? '' : output }).toEqual({ command: `${command} ${args.join(' ')}`, code: 0, output: '' });
}

async function expectSuccess(command: string, args: string[], cwd: string): Promise<void> {
  const started = Date.now();
  expectExitedZero(command, args, await run(command, args, cwd), started);
}

(skip ? describe.skip : describe)('a made project installed with a real npm install', () => {
  const project = tempProject('shop');
  afterAll(() => project.remove());

  it('installs, type-checks and passes its own npm test', async () => {
    // The made project runs kubeforge's compiled output (dist/), which `npm ci`/`npm run build` of this checkout makes.
    if (!existsSync(join(CHECKOUT, 'dist/testing/index.js'))) throw new Error(`${CHECKOUT}/dist is not built: run \`npx tsc -p tsconfig.build.json\` first`);
    const root = project.root;
    // kubeforge is not on the registry: the made project takes it from this checkout (the development spelling).
    const spec = process.env.KUBEFORGE_DEPENDENCY || `file:${CHECKOUT}`;
    expect(init(root, { domain: 'example.com', repo: 'shop-operator', kubeforgeDependency: spec })).toMatchObject({ code: 0, err: '' });
    expect(await createApi(root, { group: 'shop', version: 'v1', kind: 'Cart' })).toMatchObject({ code: 0, err: '' });
    const dependency = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies.kubeforge;
    expect(dependency).toBe(spec);

    // The one fresh install of this dependency set in the jest run (fresh-install.ts): done here for real, or
    // by run-local.test.ts's first example, whose outcome is checked here and whose tree this project gets.
    const installArgs = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'];
    const started = Date.now();
    const installed = await freshInstall(root, installArgs, run);
    if (installed.installedIn !== root) process.stderr.write(`npm-install.test.ts: the tree of the fresh install in ${installed.installedIn} (same inputs), hard-linked\n`);
    expectExitedZero('npm', installArgs, installed, started);
    expect(existsSync(join(root, 'node_modules/.bin/kubeforge'))).toBe(true);
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { name: string; packages: Record<string, { name?: string; dependencies?: Record<string, string> }> };
    expect({ name: lock.name, root: lock.packages['']?.name, kubeforge: lock.packages['']?.dependencies?.kubeforge }).toEqual({ name: 'shop-operator', root: 'shop-operator', kubeforge: spec });
    await expectSuccess('npm', ['run', 'typecheck'], root);
    await expectSuccess('npm', ['test'], root);
  }, 360_000);
});
