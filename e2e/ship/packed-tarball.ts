/**
 * One `npm pack` of this checkout for every test file that needs the tarball (publish, image), across jest's
 * workers and runs: kept in <tmpdir>/kubeforge-test-cache/pack-<hash>, where the hash covers npm's version,
 * package.json, the README/LICENSE/.npmignore files and every file under the paths its "files" names (a
 * superset of what npm packs). The first worker packs while holding a lock, the others wait for its result
 * (cross-file-result.ts).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { crossFileResult } from '../cross-file-result.js';

/** A tarball npm wrote, with npm's own listing of the files in it (what `npm pack --dry-run --json` lists). */
export interface PackedKubeforge {
  tarball: string;
  files: string[];
}

const CACHE = join(tmpdir(), 'kubeforge-test-cache');
/** Cached tarballs of other states are removed once this old. */
const KEEP_MS = 3_600_000;

/** sha256 over package.json and every file under the paths of its "files" (path and content, in order). */
export function packInputsHash(checkout: string): string {
  const hash = createHash('sha256');
  const manifest = JSON.parse(readFileSync(join(checkout, 'package.json'), 'utf8')) as { files?: string[] };
  // "files" negations (`!dist/demo`, `!dist/furiko-cli-test-*`: another test's scratch folder) are left out
  const leftOut = (manifest.files ?? []).filter((f) => f.startsWith('!')).map((f) => new RegExp(`^${f.slice(1).replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/|$)`));
  const add = (relative: string): void => {
    if (leftOut.some((pattern) => pattern.test(relative))) return;
    const path = join(checkout, relative);
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return; // named by "files" but absent, or removed while walking (another test's scratch folder)
    }
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path).sort()) add(join(relative, entry));
      return;
    }
    let content: Buffer;
    try {
      content = readFileSync(path);
    } catch {
      return;
    }
    hash.update(`${relative}\0${content.length}\0`).update(content);
  };
  hash.update(`npm ${npmVersion()}\0`);
  add('package.json');
  // what npm packs whatever "files" says, and what may leave files out
  for (const entry of readdirSync(checkout).sort()) if (/^(readme|licen[cs]e|changelog|notice)(\.|$)|^\.npmignore$/i.test(entry)) add(entry);
  for (const entry of manifest.files ?? []) if (!entry.startsWith('!')) add(entry);
  return hash.digest('hex').slice(0, 24);
}

/** The version of the npm on the PATH (its package.json next to bin/npm-cli.js); '' when not found. */
export function npmVersion(): string {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    try {
      const cli = realpathSync(join(dir, 'npm'));
      return (JSON.parse(readFileSync(join(dirname(cli), '..', 'package.json'), 'utf8')) as { version: string }).version;
    } catch {
      // not in this folder
    }
  }
  return '';
}

/**
 * The tarball of `checkout` in its present state: from the cache, or made by `pack(folder)` (which writes it
 * into `folder` and resolves to its file name and listing) when no worker made it yet.
 */
export async function sharedPack(checkout: string, pack: (folder: string) => Promise<{ filename: string; files: string[] }>): Promise<PackedKubeforge> {
  const key = `pack-${packInputsHash(checkout)}`;
  const { folder, value, made } = await crossFileResult(CACHE, key, pack);
  if (made) removeOldPacks(key);
  return { tarball: join(folder, value.filename), files: value.files };
}

/** Removes the cached tarballs of other states that nobody made for an hour. */
function removeOldPacks(keep: string): void {
  for (const entry of readdirSync(CACHE)) {
    if (!entry.startsWith('pack-') || entry === keep || entry.endsWith('.lock')) continue;
    try {
      if (Date.now() - statSync(join(CACHE, entry)).mtimeMs > KEEP_MS) rmSync(join(CACHE, entry), { recursive: true, force: true });
    } catch {
      // removed by another run meanwhile
    }
  }
}
