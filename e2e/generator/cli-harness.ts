/**
 * Test support for the generator's CLI tests: throwaway projects made from the fixtures under
 * `fixtures/` (optionally with files changed), the CLI run in-process with its output captured, and
 * fingerprints of a project tree to prove a run wrote nothing.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { main } from '../../src/cli/main.js';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
const made: string[] = [];

/** Copies `fixtures/<name>` to a temporary folder and applies `changes` (path → new content). */
export function makeProject(name: string, changes: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), `kubeforge-e2e-${name}-`));
  made.push(dir);
  cpSync(join(fixturesDir, name), dir, { recursive: true });
  for (const [path, content] of Object.entries(changes)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

/** Reads a fixture file (to derive a changed version of it). */
export function fixtureFile(name: string, path: string): string {
  return readFileSync(join(fixturesDir, name, path), 'utf8');
}

/** Removes every project made by this test file. */
export function removeProjects(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Drops Node's own process warnings (jest's VM-modules notice), which are not the CLI's output. */
function withoutNodeWarnings(text: string): string {
  return text.replace(/^\(node:\d+\) \w*Warning: .*\n(\(Use `node --trace-warnings .*\n)?/gm, '');
}

/** Runs `kubeforge <args>` in this process, capturing what it prints. */
export async function runCli(args: string[]): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const realOut = process.stdout.write.bind(process.stdout);
  const realErr = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((chunk: string | Uint8Array) => (out.push(String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => (err.push(String(chunk)), true)) as typeof process.stderr.write;
  process.exitCode = undefined;
  try {
    const code = await main(['node', 'kubeforge', ...args]);
    return { code, stdout: out.join(''), stderr: withoutNodeWarnings(err.join('')) };
  } finally {
    process.stdout.write = realOut;
    process.stderr.write = realErr;
    process.exitCode = undefined;
  }
}

/** Every file of a tree with a hash of its bytes and its mtime, by relative path. */
export function treeFingerprint(dir: string): Record<string, { sha256: string; mtimeMs: number }> {
  const result: Record<string, { sha256: string; mtimeMs: number }> = {};
  const visit = (abs: string): void => {
    for (const entry of readdirSync(abs).sort()) {
      const path = join(abs, entry);
      const stat = statSync(path);
      if (stat.isDirectory()) visit(path);
      else
        result[relative(dir, path).split(sep).join('/')] = {
          sha256: createHash('sha256').update(readFileSync(path)).digest('hex'),
          mtimeMs: stat.mtimeMs,
        };
    }
  };
  visit(dir);
  return result;
}

/** 1-based line and column of the first occurrence of `needle` in a file's text. */
export function positionOf(text: string, needle: string, nth = 0): { line: number; column: number } {
  let index = -1;
  for (let i = 0; i <= nth; i++) {
    index = text.indexOf(needle, index + 1);
    if (index < 0) throw new Error(`"${needle}" not found`);
  }
  const before = text.slice(0, index).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}
