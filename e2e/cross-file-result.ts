/**
 * One result for every test file (in any jest worker) that asks for it under the same key: the first caller
 * makes it in a scratch folder while holding a lock (a folder made with mkdir, which only one process can
 * make), then renames the scratch folder into place; the others wait for that folder and read its result.
 * A lock whose holder stopped touching it (a killed worker or run) is taken over.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The result of `key`: its folder (what `make` wrote there) and the value `make` returned. */
export interface CrossFileResult<T> {
  folder: string;
  value: T;
  /** Whether this call made it (false: another caller did, this one read it). */
  made: boolean;
}

/** How often the holder touches its lock, and after how long without a touch the lock counts as abandoned. */
const TOUCH_MS = 5_000;
const STALE_LOCK_MS = 60_000;
const POLL_MS = 100;

/**
 * The result of `key` under `cache`: read when some caller made it, or made by `make(folder)` (which writes
 * into the scratch `folder` and resolves to a JSON-serialisable value). When `make` throws, nothing is
 * kept, the lock is released, and the error is thrown to this caller (a waiting caller then makes it itself).
 */
export async function crossFileResult<T>(cache: string, key: string, make: (folder: string) => Promise<T>): Promise<CrossFileResult<T>> {
  const folder = join(cache, key);
  const result = join(folder, 'result.json');
  const lock = join(cache, `${key}.lock`);
  mkdirSync(cache, { recursive: true });
  const read = (made: boolean): CrossFileResult<T> => ({ folder, value: JSON.parse(readFileSync(result, 'utf8')) as T, made });
  for (;;) {
    if (existsSync(result)) return read(false);
    try {
      mkdirSync(lock);
    } catch {
      // Another caller makes it: wait for its result, or take over a lock that nobody touches any more.
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // released meanwhile
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
      continue;
    }
    const touch = setInterval(() => {
      try {
        const now = new Date();
        utimesSync(lock, now, now);
      } catch {
        // taken over (this process was too slow to touch it): the rename below still publishes one whole result
      }
    }, TOUCH_MS);
    touch.unref();
    try {
      if (existsSync(result)) return read(false);
      rmSync(folder, { recursive: true, force: true });
      const scratch = join(cache, `${key}.${process.pid}`);
      rmSync(scratch, { recursive: true, force: true });
      mkdirSync(scratch);
      try {
        const value = await make(scratch);
        writeFileSync(join(scratch, 'result.json'), JSON.stringify(value));
        renameSync(scratch, folder);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
      return read(true);
    } finally {
      clearInterval(touch);
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
