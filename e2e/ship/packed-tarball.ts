/**
 * One `npm pack` of this checkout for every test file that needs the tarball (publish, image), across jest's
 * workers and runs: kept in <tmpdir>/kubeforge-test-cache/pack-<hash>, where the hash covers npm's version,
 * package.json, the README/LICENSE/.npmignore files and every file under the paths its "files" names (a
 * superset of what npm packs). The first worker packs while holding a lock (a folder made with mkdir, which
 * only one process can make); the others wait for its result.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A tarball npm wrote, with npm's own listing of the files in it (what `npm pack --dry-run --json` lists). */
export interface PackedKubeforge {
  tarball: string;
  files: string[];
}

const CACHE = join(tmpdir(), 'kubeforge-test-cache');
/** A lock older than this is left over by a killed run. */
const STALE_LOCK_MS = 180_000;
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
function npmVersion(): string {
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
  const folder = join(CACHE, key);
  const result = join(folder, 'pack.json');
  const lock = join(CACHE, `${key}.lock`);
  mkdirSync(CACHE, { recursive: true });
  const read = (): PackedKubeforge => {
    const { filename, files } = JSON.parse(readFileSync(result, 'utf8')) as { filename: string; files: string[] };
    return { tarball: join(folder, filename), files };
  };
  for (;;) {
    if (existsSync(result)) return read();
    try {
      mkdirSync(lock);
    } catch {
      // Another worker packs: wait for its result, or take over a lock its killed run left behind.
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      await new Promise((r) => setTimeout(r, 100));
      continue;
    }
    try {
      if (existsSync(result)) return read();
      rmSync(folder, { recursive: true, force: true });
      const scratch = join(CACHE, `${key}.${process.pid}`);
      rmSync(scratch, { recursive: true, force: true });
      mkdirSync(scratch);
      const packed = await pack(scratch);
      writeFileSync(join(scratch, 'pack.json'), JSON.stringify(packed));
      renameSync(scratch, folder);
      removeOldPacks(key);
      return read();
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
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
