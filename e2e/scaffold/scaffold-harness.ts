/**
 * Helpers for the scaffold tests: a temporary project folder, the scaffold commands run in-process with
 * their output captured (one by one, or the whole command line through `main`), a hash of a whole folder (to prove a failed command changed nothing), and the
 * dependencies of a made project linked from this checkout instead of a real `npm install`.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jest } from '@jest/globals';
import type { RunOutput } from '../../src/cli/generator-run.js';
import { main } from '../../src/cli/main.js';
import { runInit, type InitFlags } from '../../src/cli/init.js';
import { runCreateApi, runCreateWebhook, type CreateApiFlags, type CreateWebhookFlags } from '../../src/cli/create.js';

export const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');

export interface CommandResult {
  code: number;
  out: string;
  err: string;
}

function collector(): { output: RunOutput; result: () => { out: string; err: string } } {
  const out: string[] = [];
  const err: string[] = [];
  return { output: { out: (l) => out.push(l), err: (l) => err.push(l) }, result: () => ({ out: out.join('\n'), err: err.join('\n') }) };
}

/**
 * A project folder in a fresh temporary parent, made on first use of `root` (so a describe block whose
 * tests are all filtered out leaves nothing behind); `remove()` deletes it if it was made.
 */
export function tempProject(name = 'project'): { readonly root: string; remove(): void } {
  let parent: string | undefined;
  // KUBEFORGE_KEEP_SCAFFOLD=1 keeps the made projects for a look after the run.
  const keep = process.env.KUBEFORGE_KEEP_SCAFFOLD === '1';
  return {
    get root(): string {
      if (parent === undefined) {
        parent = mkdtempSync(join(tmpdir(), 'kubeforge-scaffold-'));
        mkdirSync(join(parent, name));
        if (keep) process.stderr.write(`kept: ${join(parent, name)}\n`);
      }
      return join(parent, name);
    },
    remove(): void {
      if (parent !== undefined && !keep) rmSync(parent, { recursive: true, force: true });
    },
  };
}

export function init(root: string, flags: Partial<InitFlags> = {}): CommandResult {
  const c = collector();
  const code = runInit({ root, domain: 'example.com', repo: 'my-operator', ...flags }, c.output);
  return { code, ...c.result() };
}

export async function createApi(root: string, flags: Partial<CreateApiFlags> & Pick<CreateApiFlags, 'group' | 'version' | 'kind'>): Promise<CommandResult> {
  const c = collector();
  const code = await runCreateApi({ root, ...flags }, c.output);
  return { code, ...c.result() };
}

export async function createWebhook(root: string, flags: Partial<CreateWebhookFlags> & Pick<CreateWebhookFlags, 'group' | 'version' | 'kind'>): Promise<CommandResult> {
  const c = collector();
  const code = await runCreateWebhook({ root, ...flags }, c.output);
  return { code, ...c.result() };
}

/** sha256 over every file path and content under `root` (node_modules excluded). */
export function treeHash(root: string): string {
  const hash = createHash('sha256');
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      if (entry === 'node_modules') continue;
      const abs = join(dir, entry);
      if (statSync(abs).isDirectory()) visit(abs);
      else hash.update(`${relative(root, abs)}\0`).update(readFileSync(abs)).update('\0');
    }
  };
  visit(root);
  return hash.digest('hex');
}

export function read(root: string, path: string): string {
  return readFileSync(join(root, path), 'utf8');
}

/** node_modules for a made project: every package of this checkout's node_modules, plus kubeforge itself. */
export function linkDependencies(root: string): void {
  const modules = join(root, 'node_modules');
  mkdirSync(modules);
  for (const entry of readdirSync(join(CHECKOUT, 'node_modules'))) {
    if (entry === 'kubeforge' || entry === '.bin') continue;
    symlinkSync(join(CHECKOUT, 'node_modules', entry), join(modules, entry));
  }
  symlinkSync(CHECKOUT, join(modules, 'kubeforge'));
  // .bin as npm makes it: the checkout's tools plus the kubeforge command.
  const bin = join(modules, '.bin');
  mkdirSync(bin);
  for (const entry of readdirSync(join(CHECKOUT, 'node_modules/.bin'))) symlinkSync(join(CHECKOUT, 'node_modules/.bin', entry), join(bin, entry));
  symlinkSync(join(CHECKOUT, 'bin/kubeforge.js'), join(bin, 'kubeforge'));
}

/**
 * Runs a command of a made project (make, tsc, kubectl, the CLI) to its end: its exit code and its stdout and
 * stderr together. NODE_OPTIONS is cleared (jest's --experimental-vm-modules must not reach the project).
 */
export function runInProject(command: string, args: string[], cwd: string, options: { env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, timeout: options.timeoutMs ?? 240_000, env: { ...process.env, NODE_OPTIONS: '', ...options.env } }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

/** `kubeforge <args>` in this process through the CLI's own `main`, stdout and stderr captured, process.exitCode kept. */
export async function runCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((out += String(chunk)), true));
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((err += String(chunk)), true));
  const previous = process.exitCode;
  process.exitCode = undefined;
  try {
    const code = await main(['node', 'kubeforge', ...args]);
    return { code, out, err };
  } finally {
    process.exitCode = previous;
    stdout.mockRestore();
    stderr.mockRestore();
  }
}

/**
 * In a project with CronJob v1 (hub) and v2 (spoke) from `create webhook --conversion --spoke v2`: v2 renames
 * spec.foo to spec.bar and its scaffolded conversion stub is filled in to map it both ways. Returns the stub
 * and what replaced it.
 */
export function fillRenameConversion(root: string): { stub: string; real: string } {
  const v2Types = join(root, 'api/v2/cronjob_types.ts');
  writeFileSync(v2Types, readFileSync(v2Types, 'utf8').replace('  foo?: string;', '  bar?: string;'));
  const spokeFile = join(root, 'api/v2/cronjob_conversion.ts');
  const stub = readFileSync(spokeFile, 'utf8');
  const real = stub
    .replace(/(convertTo\(src, dst\) \{\n)\s*\/\/ TODO.*\n\s*dst\.spec = src\.spec;/, '$1    dst.spec = src.spec.bar === undefined ? {} : { foo: src.spec.bar };')
    .replace(/(convertFrom\(src, dst\) \{\n)\s*\/\/ TODO.*\n\s*dst\.spec = src\.spec;/, '$1    dst.spec = src.spec.foo === undefined ? {} : { bar: src.spec.foo };');
  writeFileSync(spokeFile, real);
  return { stub, real };
}
