/**
 * Writes a generator run's planned output files under a project root: atomically (temp file + rename),
 * and only when the bytes change, so untouched files keep their mtime; or, for `--check`, compares
 * the plan with the disk and reports which files are stale or missing without writing anything.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';
import { randomBytes } from 'node:crypto';

/** One file a generator wants on disk; `path` is relative to the project root, with `/` separators. */
export interface PlannedFile {
  path: string;
  content: string;
}

/** What happened to one planned file. */
export type FileOutcome = 'written' | 'unchanged';
/** How one planned file compares with the disk. */
export type FileFreshness = 'fresh' | 'stale' | 'missing';

async function readIfExists(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Compares one planned file with what is on disk. */
async function freshnessOf(root: string, file: PlannedFile): Promise<FileFreshness> {
  const existing = await readIfExists(join(root, file.path));
  if (existing === undefined) return 'missing';
  return existing.equals(Buffer.from(file.content, 'utf8')) ? 'fresh' : 'stale';
}

/** Writes `content` to `target` through a temporary file in the same folder and a rename. */
async function writeAtomically(target: string, content: string): Promise<void> {
  await mkdir(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, content, 'utf8');
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/** Rejects plans that would write outside the root or twice to one path (a generator bug, not user input). */
function assertPlanIsSound(files: PlannedFile[]): void {
  const seen = new Set<string>();
  for (const file of files) {
    if (file.path.startsWith('/') || file.path.split('/').includes('..')) {
      throw new Error(`refusing to write outside the project root: ${file.path}`);
    }
    if (seen.has(file.path)) throw new Error(`two outputs planned for one file: ${file.path}`);
    seen.add(file.path);
  }
}

/** Writes every planned file whose bytes differ from the disk; returns the outcome per file, in plan order. */
export async function writePlannedFiles(
  root: string,
  files: PlannedFile[],
): Promise<{ path: string; outcome: FileOutcome }[]> {
  assertPlanIsSound(files);
  // A few files at a time: each is a chain of small file operations, so overlapping them hides their latency.
  return mapConcurrently(files, WRITE_CONCURRENCY, async (file) => {
    if ((await freshnessOf(root, file)) === 'fresh') return { path: file.path, outcome: 'unchanged' as const };
    await writeAtomically(join(root, file.path), file.content);
    return { path: file.path, outcome: 'written' as const };
  });
}

const WRITE_CONCURRENCY = 8;

/** `items.map(fn)` with at most `limit` calls in flight; results in input order; the first failure rejects and stops new calls. */
async function mapConcurrently<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failed) {
      const index = next++;
      try {
        results[index] = await fn(items[index]!);
      } catch (err) {
        failed = true; // start nothing new once one file failed
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Compares every planned file with the disk, writing nothing. */
export async function checkPlannedFiles(
  root: string,
  files: PlannedFile[],
): Promise<{ path: string; freshness: FileFreshness }[]> {
  assertPlanIsSound(files);
  const results: { path: string; freshness: FileFreshness }[] = [];
  for (const file of files) results.push({ path: file.path, freshness: await freshnessOf(root, file) });
  return results;
}
