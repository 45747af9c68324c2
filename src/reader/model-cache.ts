/**
 * The saved result of reading a project's API types: `loadApiProject` writes it after a read and takes it
 * instead of parsing while nothing it depends on has changed — the list of API files, the bytes of every file
 * the read opened (API files and the project files they import), and the reader's own code and marker
 * catalogue. So `make manifests generate` parses the types once: `generate` reuses what `manifests` read,
 * without loading the TypeScript compiler. Kept in the project's `node_modules/.cache/kubeforge/models/`;
 * `KUBEFORGE_NO_MODEL_CACHE=1` turns it off. Any doubt (a missing, changed or unreadable file) is a miss.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Diagnostic } from '../markers/types.js';
import type { ApiModel } from '../model/index.js';
import { projectCacheFolder, writeCacheFile } from './cache-files.js';

/** Bumped when the shape of a saved entry changes. */
const FORMAT = 1;

export interface ReadResult {
  model: ApiModel;
  diagnostics: Diagnostic[];
}

interface SavedEntry {
  format: number;
  reader: string;
  apiFiles: string[];
  /** Absolute path → sha1 of the text the read saw. */
  inputs: Record<string, string>;
  result: ReadResult;
}

export function modelCacheWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.KUBEFORGE_NO_MODEL_CACHE !== '1';
}

const contentHash = (text: string): string => createHash('sha1').update(text).digest('hex');

let readerFingerprint: string | undefined;

/** Name, size and time of every module of the reader, marker parser and model, and of the marker catalogue. */
function fingerprintOfReader(): string {
  if (readerFingerprint !== undefined) return readerFingerprint;
  const here = dirname(fileURLToPath(import.meta.url));
  const hash = createHash('sha1');
  for (const folder of [here, join(here, '..', 'markers'), join(here, '..', 'model'), join(here, '..', '..', 'markers')]) {
    let entries: string[] = [];
    try {
      entries = readdirSync(folder).sort();
    } catch {
      hash.update(`${folder}: absent\n`);
    }
    for (const entry of entries) {
      if (!/\.(js|ts|json)$/.test(entry) || entry.endsWith('.test.ts')) continue;
      const { size, mtimeMs } = statSync(join(folder, entry));
      hash.update(`${folder}/${entry} ${size} ${mtimeMs}\n`);
    }
  }
  readerFingerprint = hash.digest('hex');
  return readerFingerprint;
}

/** The saved read of one project and one set of API paths. */
export class ModelCache {
  private constructor(
    private readonly file: string,
    private readonly apiFiles: string[],
  ) {}

  /** The cache for a project, or undefined when it is turned off or the project has no node_modules. */
  static for(root: string, apiPaths: string[], apiFiles: string[], env: NodeJS.ProcessEnv = process.env): ModelCache | undefined {
    if (!modelCacheWanted(env)) return undefined;
    const folder = projectCacheFolder(root);
    if (folder === undefined) return undefined;
    const key = createHash('sha256').update(`${root}\0${apiPaths.join('\0')}`).digest('hex').slice(0, 16);
    return new ModelCache(join(folder, 'models', `${key}.json`), apiFiles);
  }

  /** The saved result when every input is unchanged, else undefined. */
  read(): ReadResult | undefined {
    try {
      const saved = JSON.parse(readFileSync(this.file, 'utf8')) as SavedEntry;
      if (saved.format !== FORMAT || saved.reader !== fingerprintOfReader()) return undefined;
      if (saved.apiFiles.length !== this.apiFiles.length || saved.apiFiles.some((f, i) => f !== this.apiFiles[i])) return undefined;
      for (const [file, hash] of Object.entries(saved.inputs)) if (contentHash(readFileSync(file, 'utf8')) !== hash) return undefined;
      return saved.result;
    } catch {
      return undefined;
    }
  }

  /** Saves a fresh read; `inputs` are the files it opened, each with the text it read. */
  save(result: ReadResult, inputs: ReadonlyMap<string, string>): void {
    try {
      const hashes: Record<string, string> = {};
      for (const [file, text] of inputs) hashes[file] = contentHash(text);
      const entry: SavedEntry = { format: FORMAT, reader: fingerprintOfReader(), apiFiles: this.apiFiles, inputs: hashes, result };
      writeCacheFile(this.file, JSON.stringify(entry));
    } catch {
      // A cache that cannot be written is only a slower next run.
    }
  }
}
