/**
 * Helpers for the shipping tests (issue 15): `npm pack` of this checkout, commands run in a plain shell
 * environment with their output kept for the failure message, and the made project's dependencies linked
 * with kubeforge taken from an installed tarball instead of this checkout.
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { CHECKOUT } from '../scaffold/scaffold-harness.js';
import { sharedPack, type PackedKubeforge } from './packed-tarball.js';

export { CHECKOUT, type PackedKubeforge };

/** KUBEFORGE_SKIP_NPM_INSTALL=1 skips the tests that install from the registry (as e2e/scaffold/npm-install.test.ts). */
export const SKIP_NPM_INSTALL = process.env.KUBEFORGE_SKIP_NPM_INSTALL === '1';

/** The environment of a plain shell: no npm_* variables of an outer `npm test`, no NODE_OPTIONS, no jest worker id. */
export function plainEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== 'NODE_OPTIONS' && k !== 'JEST_WORKER_ID' && k !== 'KUBEFORGE_DEPENDENCY'));
  return { ...env, ...extra };
}

export interface CommandOutcome {
  code: number;
  /** The last 20 000 characters of stdout and stderr together. */
  output: string;
  /** All of stdout. */
  stdout: string;
}

/** Runs a command; resolves to its exit status and the last 20 000 characters of stdout and stderr together. */
export function runCommand(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = plainEnv()): Promise<CommandOutcome> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let stdout = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      keep(chunk);
    });
    child.stderr.on('data', keep);
    child.on('error', (err) => resolve({ code: -1, output: `${output}\n${err.message}`, stdout }));
    child.on('close', (code) => resolve({ code: code ?? -1, output, stdout }));
  });
}

/** Runs a command and expects exit 0; the output is in the failure message. Resolves to its stdout. */
export async function expectSuccess(label: string, command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<string> {
  const started = Date.now();
  const { code, output, stdout } = await runCommand(command, args, cwd, env);
  process.stderr.write(`${label}: \`${command} ${args.join(' ')}\` exited ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  const shown = `${command} ${args.join(' ')}`;
  expect({ command: shown, code, output: code === 0 ? '' : output }).toEqual({ command: shown, code: 0, output: '' });
  return stdout;
}

/**
 * `npm pack` of this checkout, copied into `destination`; resolves to the copy's path. `--ignore-scripts`: the
 * prepack build would rewrite the dist/ that other tests read at the same time, so the tarball is made from
 * the dist/ already built (the test checks it is there). One pack serves every file (packed-tarball.ts).
 */
export async function packKubeforge(destination: string): Promise<string> {
  return (await packKubeforgeListed(destination)).tarball;
}

/** packKubeforge with npm's own listing of the files in the tarball (what `npm pack --dry-run --json` lists). */
export async function packKubeforgeListed(destination: string): Promise<PackedKubeforge> {
  if (!existsSync(join(CHECKOUT, 'dist/cli/main.js'))) throw new Error(`${CHECKOUT}/dist is not built: run \`npx tsc -p tsconfig.build.json\` first`);
  const packed = await sharedPack(CHECKOUT, async (folder) => {
    const output = await expectSuccess('npm pack', 'npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', folder], CHECKOUT);
    const [report] = JSON.parse(output) as Array<{ filename: string; files: Array<{ path: string }> }>;
    return { filename: report!.filename, files: report!.files.map((f) => f.path) };
  });
  const name = basename(packed.tarball);
  expect(name).toMatch(/^kubeforge-\d+\.\d+\.\d+.*\.tgz$/);
  // a copy of its own: a test may move it away (image.test.ts)
  copyFileSync(packed.tarball, join(destination, name));
  return { tarball: join(destination, name), files: packed.files };
}

/**
 * node_modules for a made project without an install: this checkout's packages (jest, typescript, swc…)
 * linked, but kubeforge (and its command in .bin) from `installedKubeforge`, a folder an `npm install` of the
 * tarball made, whose own dependencies resolve from that install.
 */
export function linkProjectDependencies(root: string, installedKubeforge: string): void {
  const modules = join(root, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  for (const entry of readdirSync(join(CHECKOUT, 'node_modules'))) {
    if (entry === 'kubeforge' || entry === '.bin') continue;
    symlinkSync(join(CHECKOUT, 'node_modules', entry), join(modules, entry));
  }
  for (const entry of readdirSync(join(CHECKOUT, 'node_modules/.bin'))) {
    if (entry !== 'kubeforge') symlinkSync(join(CHECKOUT, 'node_modules/.bin', entry), join(modules, '.bin', entry));
  }
  symlinkSync(installedKubeforge, join(modules, 'kubeforge'));
  symlinkSync(join(installedKubeforge, 'bin/kubeforge.js'), join(modules, '.bin/kubeforge'));
}

/**
 * better-sqlite3's prebuilt binary for this Node.js, served on 127.0.0.1 the way its GitHub releases serve it
 * to prebuild-install (`<host>/v<version>/better-sqlite3-v<version>-node-v<abi>-<platform>-<arch>.tar.gz`),
 * made from the binary this checkout's `npm ci` built. A user's `npm install` downloads that file; this
 * machine cannot reach GitHub, and without it every install compiles the module from source (a minute or
 * more per install on 2 cores). `env` points prebuild-install at the mirror
 * (`npm_config_better_sqlite3_binary_host`); the server runs in a child process, so it answers while a test
 * blocks in a synchronous step.
 */
export async function prebuiltBinaryMirror(dir: string): Promise<{ env: Record<string, string>; close(): void }> {
  const moduleDir = join(CHECKOUT, 'node_modules/better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(moduleDir, 'package.json'), 'utf8')) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['czf', join(dir, name), '-C', moduleDir, 'build/Release/better_sqlite3.node']);
  const server = spawn(
    process.execPath,
    ['-e', `const http = require('node:http'); const fs = require('node:fs'); const file = process.argv[1];
http.createServer((req, res) => { if (req.url.endsWith('/' + require('node:path').basename(file))) { res.writeHead(200); fs.createReadStream(file).pipe(res); } else { res.writeHead(404); res.end(); } })
  .listen(0, '127.0.0.1', function () { console.log(this.address().port); });`, join(dir, name)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    server.stdout!.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim())));
    server.once('exit', (code) => reject(new Error(`the binary mirror exited (${code})`)));
  });
  return { env: { npm_config_better_sqlite3_binary_host: `http://127.0.0.1:${port}` }, close: () => server.kill() };
}
