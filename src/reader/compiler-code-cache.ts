/**
 * `requireWithCodeCache(file)`: requires a big CommonJS file (the TypeScript compiler) with V8's code cache kept
 * on disk, as Node 22's module compile cache does (Node 20 has none): the first run compiles the file and saves
 * V8's code at exit; later runs start from it. The cache is in `node_modules/.cache/kubeforge/`, one file per
 * source file, size, mtime and Node version; V8 rejects a cache that does not match and it is then rewritten.
 * Any problem (no cache folder, read-only disk) falls back to a plain `require`. The module is registered in
 * `require.cache`, so a later `require` of the file gets the same one. See codeCacheWanted for when it is used.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire, Module } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { cacheFolderHolding, writeCacheFile } from './cache-files.js';

/** The cache file of `file` (or of its part `part`, see requirePartWithCodeCache). */
function cacheFileFor(file: string, part = ''): string | undefined {
  const folder = cacheFolderHolding(file);
  if (folder === undefined) return undefined;
  const { size, mtimeMs } = statSync(file);
  const key = createHash('sha256').update(`${file}\0${size}\0${mtimeMs}\0${process.version}\0${process.arch}\0${part}`).digest('hex').slice(0, 16);
  return join(folder, `${key}.v8-code-cache`);
}

function readIfPresent(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The text of a source file. A pure-ASCII file (the TypeScript compiler is one) reads as the same string through
 * Latin-1, which decodes its 9 MB several times faster than UTF-8 (~5 ms instead of ~30 ms).
 */
export function readSourceText(file: string): string {
  const bytes = readFileSync(file);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** Caches to write at exit (after the run, so they hold what it compiled lazily too). */
const pendingSaves = new Map<string, Script>();

/** Writes the code caches this process still owes; returns how many were written. Runs at exit. */
export function writePendingCodeCaches(): number {
  const count = pendingSaves.size;
  for (const [path, script] of pendingSaves) writeCacheFile(path, script.createCachedData());
  pendingSaves.clear();
  return count;
}

/** Modules loaded here, by file: the one instance every later call gets. */
const loadedModules = new Map<string, unknown>();

/**
 * Whether to use the code cache: not with `KUBEFORGE_NO_CODE_CACHE=1`, and not under jest, whose tests run in
 * a VM context of their own and have their own `require` (the compiler would be loaded into another realm).
 */
export function codeCacheWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.KUBEFORGE_NO_CODE_CACHE !== '1' && env.JEST_WORKER_ID === undefined;
}

/** Drops what requireWithCodeCache holds for `file` (or requirePartWithCodeCache for `file#part`): the next call loads it as a new process would (tests). */
export function forgetLoadedModule(file: string): void {
  loadedModules.delete(file);
}

export function requireWithCodeCache(file: string): unknown {
  const plainRequire = createRequire(file);
  const known = loadedModules.get(file);
  if (known !== undefined) return known;
  if (plainRequire.cache[file]) return plainRequire(file);
  let cacheFile: string | undefined;
  try {
    cacheFile = cacheFileFor(file);
  } catch {
    cacheFile = undefined;
  }
  if (cacheFile === undefined) return plainRequire(file);
  const loaded = runModule(file, readSourceText(file), cacheFile);
  plainRequire.cache[file] = loaded;
  loadedModules.set(file, loaded.exports);
  return loaded.exports;
}

/**
 * Runs `select(text of file)` — a part of a CommonJS file, itself a complete module (the parser-only part of the
 * TypeScript compiler, see parser-only-compiler.ts) — as a module of its own, with its own code cache when the file
 * lies in a node_modules and `useCache` (compiled afresh otherwise). It is not registered in `require.cache`: a `require` of the
 * file still gets the whole module. Undefined when `select` gives undefined. Loaded once per process and part.
 */
export function requirePartWithCodeCache(file: string, part: string, select: (text: string) => string | undefined, useCache = true): unknown {
  const key = `${file}#${part}`;
  const known = loadedModules.get(key);
  if (known !== undefined) return known;
  const source = select(readSourceText(file));
  if (source === undefined) return undefined;
  let cacheFile: string | undefined;
  try {
    cacheFile = useCache ? cacheFileFor(file, part) : undefined;
  } catch {
    cacheFile = undefined;
  }
  const exports = runModule(file, source, cacheFile).exports;
  loadedModules.set(key, exports);
  return exports;
}

/** Compiles `source` as the CommonJS module `file` (from the code cache in `cacheFile` when it has one) and runs it. */
function runModule(file: string, source: string, cacheFile: string | undefined): Module {
  const cachedData = cacheFile === undefined ? undefined : readIfPresent(cacheFile);
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  const plainRequire = createRequire(file);
  const loaded = new Module(file);
  loaded.filename = file;
  loaded.paths = plainRequire.resolve.paths(file) ?? [];
  const body = script.runInThisContext() as (...args: unknown[]) => void;
  body.call(loaded.exports, loaded.exports, plainRequire, loaded, file, dirname(file));
  loaded.loaded = true;
  if (cacheFile !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    // Saved at exit, so the cache also holds the functions this run compiled lazily (the parser's).
    if (pendingSaves.size === 0) process.once('exit', writePendingCodeCaches);
    pendingSaves.set(cacheFile, script);
  }
  return loaded;
}
