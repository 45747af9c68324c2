// requireWithCodeCache: the module works the same with and without a cache, is loaded once per process, saves
// V8's code under node_modules/.cache/kubeforge, loads again from it, and survives a corrupt cache.
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { codeCacheWanted, forgetLoadedModule, readSourceText, requireWithCodeCache, writePendingCodeCaches } from './compiler-code-cache.js';

const SOURCE = "exports.answer = 42;\nexports.double = function (n) { return n * 2; };\nexports.dir = __dirname;\n";

function tempPackage(): { root: string; file: string; cacheFolder: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kubeforge-code-cache-'));
  const file = path.join(root, 'node_modules', 'big', 'index.js');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, SOURCE);
  return { root, file, cacheFolder: path.join(root, 'node_modules', '.cache', 'kubeforge') };
}

/** Makes the next call load the file again (a new process, as far as the cache is concerned). */
function forget(file: string): void {
  forgetLoadedModule(file);
  delete createRequire(file).cache[file];
}

const cacheFiles = (folder: string): string[] => (fs.existsSync(folder) ? fs.readdirSync(folder) : []);

describe('requireWithCodeCache', () => {
  afterEach(() => writePendingCodeCaches());

  it('loads the module once, saves the code cache, and loads again from a good or a corrupt cache', () => {
    const { root, file, cacheFolder } = tempPackage();
    try {
      const first = requireWithCodeCache(file) as { answer: number; double(n: number): number; dir: string };
      expect(first.answer).toBe(42);
      expect(first.double(21)).toBe(42);
      expect(first.dir).toBe(path.dirname(file));
      expect(requireWithCodeCache(file)).toBe(first);
      expect(writePendingCodeCaches()).toBe(1);
      expect(cacheFiles(cacheFolder)).toHaveLength(1);

      // (Whether V8 accepts a cache cannot be seen in one process: it keeps compiled code in memory anyway.)
      forget(file);
      const second = requireWithCodeCache(file) as { double(n: number): number };
      expect(second).not.toBe(first);
      expect(second.double(4)).toBe(8);

      fs.writeFileSync(path.join(cacheFolder, cacheFiles(cacheFolder)[0]!), 'not a code cache');
      forget(file);
      expect((requireWithCodeCache(file) as { answer: number }).answer).toBe(42);
    } finally {
      forget(file);
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('is a plain require outside node_modules', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kubeforge-code-cache-'));
    const loose = path.join(root, 'loose.js');
    fs.writeFileSync(loose, SOURCE);
    try {
      expect((requireWithCodeCache(loose) as { answer: number }).answer).toBe(42);
      expect(writePendingCodeCaches()).toBe(0);
    } finally {
      forget(loose);
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('is wanted unless switched off or under jest', () => {
    expect(codeCacheWanted({})).toBe(true);
    expect(codeCacheWanted({ KUBEFORGE_NO_CODE_CACHE: '1' })).toBe(false);
    expect(codeCacheWanted({ JEST_WORKER_ID: '1' })).toBe(false);
  });
});

describe('readSourceText', () => {
  it('reads ASCII and non-ASCII sources as the same text UTF-8 decoding gives', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubeforge-source-text-'));
    try {
      for (const [name, text] of [
        ['ascii.js', SOURCE],
        ['utf8.js', "exports.greeting = 'grüß dich → ✓ 😀';\n"],
        ['empty.js', ''],
      ] as const) {
        const file = path.join(dir, name);
        fs.writeFileSync(file, text);
        expect(readSourceText(file)).toBe(text);
        expect(readSourceText(file)).toBe(fs.readFileSync(file, 'utf8'));
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
