/**
 * Where kubeforge keeps its caches and how it writes them: `node_modules/.cache/kubeforge` (the folder build tools
 * share by convention), each file written through a temporary file and a rename so concurrent runs never see
 * half a cache. A cache is only ever a shortcut: every failure here is silent and the caller does the work.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';

/** `node_modules/.cache/kubeforge` of the node_modules folder holding `file`, or undefined outside one. */
export function cacheFolderHolding(file: string): string | undefined {
  const marker = `${sep}node_modules${sep}`;
  const at = file.lastIndexOf(marker);
  return at < 0 ? undefined : join(file.slice(0, at + marker.length), '.cache', 'kubeforge');
}

/** `node_modules/.cache/kubeforge` of the nearest folder at or above `root` that has node_modules, if any. */
export function projectCacheFolder(root: string): string | undefined {
  for (let dir = root; ; dir = dirname(dir)) {
    const modules = join(dir, 'node_modules');
    try {
      if (existsSync(modules) && statSync(modules).isDirectory()) return join(modules, '.cache', 'kubeforge');
    } catch {
      return undefined;
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** Writes `data` to `path` atomically (temporary file, then rename); quietly does nothing when it cannot. */
export function writeCacheFile(path: string, data: string | Buffer): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(temp, data);
    renameSync(temp, path);
  } catch {
    rmSync(temp, { force: true });
  }
}
