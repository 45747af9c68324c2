/**
 * The project as it was at a git ref, for the API-evolution check: resolves the ref to a commit and writes
 * that commit's copy of the project folder (the folder may lie inside a bigger repository, as the examples
 * do) into a temporary folder with `git archive`, so the generator can read it as it reads today's files.
 * Problems (no git, not a repository, no such ref) come back as one line each.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface GitSnapshot {
  /** The temporary folder holding the project's files at the ref (empty when the project did not exist then). */
  dir: string;
  /** The full commit id the ref names. */
  commit: string;
  /** False when the commit has no project folder (the project came later). */
  existed: boolean;
  remove(): void;
}

export type GitSnapshotResult = { ok: true; snapshot: GitSnapshot } | { ok: false; error: string };

function git(cwd: string, args: string[], binary = false) {
  return spawnSync('git', args, { cwd, encoding: binary ? 'buffer' : 'utf8', maxBuffer: 1 << 30, env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });
}

/** Writes the project folder `root` as it was at `ref` into a temporary folder. */
export function snapshotAt(root: string, ref: string): GitSnapshotResult {
  const top = git(root, ['rev-parse', '--show-toplevel', '--show-prefix']);
  if (top.error) return { ok: false, error: `git is not available here (${top.error.message}): the check reads the API at a git ref` };
  if (top.status !== 0) return { ok: false, error: `${root} is not in a git repository: the check reads the API at a git ref (git init, commit, then compare)` };
  // git archive of `<commit>:<folder>` works from the top of the work tree only.
  const [topLevel = root, shownPrefix = ''] = String(top.stdout).split('\n');
  const prefix = shownPrefix.trim().replace(/\/$/, '');
  if (ref.startsWith('-')) return { ok: false, error: `"${ref}" is not a commit, branch or tag of the git repository at ${root}` };
  const resolved = git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]);
  if (resolved.status !== 0) return { ok: false, error: `"${ref}" is not a commit, branch or tag of the git repository at ${root}` };
  const commit = String(resolved.stdout).trim();
  const tree = prefix === '' ? commit : `${commit}:${prefix}`;
  const dir = mkdtempSync(join(tmpdir(), 'kubeforge-compat-'));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  const existed = prefix === '' || String(git(root, ['cat-file', '-t', tree]).stdout).trim() === 'tree';
  if (existed) {
    const archive = git(topLevel, ['archive', '--format=tar', tree], true);
    if (archive.status !== 0) {
      remove();
      return { ok: false, error: `git archive ${tree} failed: ${String(archive.stderr).trim().split('\n')[0]}` };
    }
    const extract = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout as Buffer, encoding: 'utf8' });
    if (extract.status !== 0) {
      remove();
      return { ok: false, error: `unpacking the project at ${ref} failed: ${(extract.error?.message ?? extract.stderr).trim().split('\n')[0]}` };
    }
  }
  return { ok: true, snapshot: { dir, commit, existed, remove } };
}
