// The compiled code jest's workers share (scripts/jest-code-cache, issue 14): a module compiled again under
// the same name with the same text starts from V8's cached code, yet each compile is its own instance; any
// other text is compiled afresh; a cache V8 refuses falls back to a plain compile. CommonJS functions are
// scripts V8 shares, each compile its own function. Texts calling import() keep their dynamic-import
// callback (Node 20 drops it from cached code). Source texts are read once per worker while their files stay
// the same. And jest.config.js installs it all.
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { createCodeCache, mayImportDynamically, type CodeCacheStats, type VmCompilers } from '../scripts/jest-code-cache/code-cache.cjs';
import { createSourceTexts, type SourceTextStats } from '../scripts/jest-code-cache/source-texts.cjs';

const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Installed {
  stats: CodeCacheStats;
  original: VmCompilers;
  sourceTexts: SourceTextStats;
}
const installed = (vm as unknown as Record<symbol, Installed | undefined>)[Symbol.for('kubeforge.jestCodeCache')];
// the compilers under the installed cache, so these tests see one cache only: their own
const base: VmCompilers = installed?.original ?? { SourceTextModule: vm.SourceTextModule, compileFunction: vm.compileFunction, Script: vm.Script };

let names = 0;
/** A name no other test compiles under. */
const uniqueName = (stem: string): string => `/code-cache-test/${stem}-${process.pid}-${++names}.mjs`;

/** Compiles, links (no static imports) and evaluates `text` as a module in a fresh context; its namespace. */
async function evaluate(SourceTextModule: VmCompilers['SourceTextModule'], text: string, identifier: string, extra: Partial<vm.SourceTextModuleOptions> = {}): Promise<Record<string, unknown>> {
  const module = new SourceTextModule(text, { identifier, context: vm.createContext({}), ...extra });
  await module.link(() => {
    throw new Error('no static imports here');
  });
  await module.evaluate();
  return module.namespace as Record<string, unknown>;
}

/** A module a dynamic import() resolves to: one export `from` naming who answered. */
async function answeringModule(from: string): Promise<vm.SyntheticModule> {
  const answer = new vm.SyntheticModule(['from'], function (this: vm.SyntheticModule) {
    this.setExport('from', from);
  });
  await answer.link(() => {
    throw new Error('no imports');
  });
  await answer.evaluate();
  return answer;
}

describe('modules', () => {
  const counter = 'let count = 0;\nexport function next() {\n  return ++count;\n}\nexport const url = import.meta.url;\n';

  it('compiles the same text under the same name from the cache, each compile its own instance with its own import.meta', async () => {
    const cache = createCodeCache(base);
    const name = uniqueName('counter');
    const first = await evaluate(cache.SourceTextModule, counter, name, { initializeImportMeta: (meta) => void (meta.url = 'first') });
    const second = await evaluate(cache.SourceTextModule, counter, name, { initializeImportMeta: (meta) => void (meta.url = 'second') });
    expect(cache.stats).toMatchObject({ hits: 1, misses: 1, rejected: 0 });
    expect(cache.stats.bytes).toBeGreaterThan(0);
    const [next1, next2] = [first.next as () => number, second.next as () => number];
    expect([next1(), next1(), next2()]).toEqual([1, 2, 1]);
    expect([first.url, second.url]).toEqual(['first', 'second']);
  });

  it('compiles a changed text afresh, also one of the same length (V8 would take the stale cache)', async () => {
    const cache = createCodeCache(base);
    const name = uniqueName('changed');
    expect((await evaluate(cache.SourceTextModule, 'export const v = 1;', name)).v).toBe(1);
    expect((await evaluate(cache.SourceTextModule, 'export const v = 2;', name)).v).toBe(2);
    expect(cache.stats).toMatchObject({ hits: 0, misses: 2 });
  });

  it('never caches a text that calls import(): each compile keeps its own dynamic-import callback', async () => {
    const cache = createCodeCache(base);
    const name = uniqueName('dynamic');
    const text = 'export const load = () => import("anything");';
    const answers: unknown[] = [];
    for (const who of ['first', 'second']) {
      const namespace = await evaluate(cache.SourceTextModule, text, name, { importModuleDynamically: () => answeringModule(who) });
      answers.push(((await (namespace.load as () => Promise<{ from: string }>)()) as { from: string }).from);
    }
    expect(answers).toEqual(['first', 'second']);
    expect(cache.stats).toMatchObject({ hits: 0, misses: 2, bytes: 0 });
  });

  it('compiles afresh when V8 refuses the cached code', async () => {
    class Refusing extends base.SourceTextModule {
      constructor(text: string, options: vm.SourceTextModuleOptions = {}) {
        if (options.cachedData !== undefined) throw Object.assign(new Error('cachedData buffer was rejected'), { code: 'ERR_VM_MODULE_CACHED_DATA_REJECTED' });
        super(text, options);
      }
    }
    const cache = createCodeCache({ ...base, SourceTextModule: Refusing });
    const name = uniqueName('refused');
    await evaluate(cache.SourceTextModule, counter, name);
    const again = await evaluate(cache.SourceTextModule, counter, name);
    expect((again.next as () => number)()).toBe(1);
    expect(cache.stats).toMatchObject({ hits: 0, misses: 2, rejected: 1, bytes: 0 });
  });
});

describe('functions (CommonJS)', () => {
  const scriptName = (stem: string): string => uniqueName(stem).replace(/\.mjs$/, '.js');

  it('compiles a text without import() as a script V8 shares, each compile its own function in its own context', () => {
    const cache = createCodeCache(base);
    const filename = scriptName('function');
    const body = "'use strict';\nlet count = 0;\nconst self = this;\nreturn () => [++count + offset, globalThis.marker, self];";
    const compile = (marker: string) => cache.compileFunction(body, ['offset'], { filename, parsingContext: vm.createContext({ marker }) });
    const [first, second] = [compile('first'), compile('second')];
    const [next1, next2] = [first(10) as () => unknown[], second(100) as () => unknown[]];
    // own state, own globals, and strict mode from the text's directive (no global `this`)
    expect([next1(), next1(), next2()]).toEqual([
      [11, 'first', undefined],
      [12, 'first', undefined],
      [101, 'second', undefined],
    ]);
    expect(cache.stats).toMatchObject({ sharedFunctions: 2, plainFunctions: 0 });
    for (const compiled of [first, second]) expect(Object.keys(compiled)).toEqual([]);
  });

  it('keeps the lines and columns of the text in stack traces', () => {
    const cache = createCodeCache(base);
    const filename = scriptName('thrower');
    const fail = cache.compileFunction('const unused = 1;\n\n    throw new Error("here");', [], { filename, parsingContext: vm.createContext({}) });
    expect(fail).toThrow('here');
    let stack = '';
    try {
      fail();
    } catch (error) {
      stack = String((error as Error).stack);
    }
    expect(stack).toContain(`${filename}:3:11`);
  });

  it('compiles a text calling import() as asked, keeping its dynamic-import callback, and passes other options through', async () => {
    const cache = createCodeCache(base);
    const filename = scriptName('dynamic-function');
    const answers: string[] = [];
    for (const who of ['first', 'second']) {
      const load = cache.compileFunction('return import("anything");', [], { filename, importModuleDynamically: () => answeringModule(who) });
      answers.push(((await load()) as { from: string }).from);
    }
    expect(answers).toEqual(['first', 'second']);
    // real-require's way: import() in a string made into code at run time
    const realRequire = cache.compileFunction("return new Function('p', 'return import(p)');", [], { filename: scriptName('real-require'), importModuleDynamically: () => answeringModule('made at run time') });
    expect(((await (realRequire() as (p: string) => Promise<{ from: string }>)('x')) as { from: string }).from).toBe('made at run time');
    const produced = cache.compileFunction('return 1;', [], { filename, produceCachedData: true });
    expect([produced(), produced.cachedDataProduced]).toEqual([1, true]);
    expect(cache.stats).toMatchObject({ sharedFunctions: 0, plainFunctions: 3 });
  });
});

describe('source texts', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(path.join(tmpdir(), 'kubeforge-source-texts-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it("hands a text read for one test file to the next without reading it again, keeping each file's own entries", () => {
    const texts = createSourceTexts();
    const file = path.join(folder, 'a.js');
    writeFileSync(file, 'export const a = 1;\n');
    const first = texts.forTestFile(new Map([['/the/test.ts', 'test source']]));
    expect([first.get(file), first.get('/the/test.ts')]).toEqual(['export const a = 1;\n', 'test source']);
    const second = texts.forTestFile(new Map());
    expect([second.get(file), second.get('/the/test.ts')]).toEqual(['export const a = 1;\n', undefined]);
    expect(texts.stats).toEqual({ read: 1, reused: 1 });
  });

  it('reads a file again when its modification time, size or inode changed', () => {
    const texts = createSourceTexts();
    const file = path.join(folder, 'a.js');
    const at = new Date('2026-01-01T00:00:00Z');
    const write = (text: string) => {
      writeFileSync(file, text);
      utimesSync(file, at, at);
    };
    write('one');
    expect(texts.forTestFile(new Map()).get(file)).toBe('one');
    // the same size and modification time, another inode (an editor's save by rename)
    writeFileSync(`${file}.new`, 'two');
    utimesSync(`${file}.new`, at, at);
    renameSync(`${file}.new`, file);
    expect(texts.forTestFile(new Map()).get(file)).toBe('two');
    // the same inode and size, another modification time
    writeFileSync(file, 'six');
    utimesSync(file, new Date('2026-01-02T00:00:00Z'), new Date('2026-01-02T00:00:00Z'));
    expect(texts.forTestFile(new Map()).get(file)).toBe('six');
    // the same inode and modification time, another size
    write('seven');
    expect(texts.forTestFile(new Map()).get(file)).toBe('seven');
    expect(texts.stats).toEqual({ read: 4, reused: 0 });
  });

  it('leaves a missing file or a folder to jest, which reports it', () => {
    const texts = createSourceTexts();
    mkdirSync(path.join(folder, 'sub'));
    const map = texts.forTestFile(new Map());
    expect([map.get(path.join(folder, 'missing.js')), map.get(path.join(folder, 'sub'))]).toEqual([undefined, undefined]);
    expect(texts.stats).toEqual({ read: 0, reused: 0 });
  });
});

test('a text may import dynamically when the lexer finds import() in its code, or when it makes code at run time', () => {
  const calling = ['import("x")', 'await import ("x")', 'import\n("x")', 'import/* why */("x")', 'import // why\n("x")', 'const m = `${await import("x")}`;'];
  const makingCode = ["const load = new Function('p', 'return import(p)');", 'eval(text)', 'const f = Function ("return 1");'];
  const notCalling = ['import x from "x";', 'export * from "x";', 'const important = 1;', 'import.meta.url', 'reimport("x")', '"use import() here"', '// import("x")\nconst a = 1;', 'const t = `import("${name}")`;', '/* import("x") */', 'const evaluate = 1; medieval(1);'];
  for (const text of [...calling, ...makingCode]) expect([text, mayImportDynamically(text)]).toEqual([text, true]);
  for (const text of notCalling) expect([text, mayImportDynamically(text)]).toEqual([text, false]);
  // a text the lexer cannot read counts as one that may
  expect(mayImportDynamically('import("x"); const = ;')).toBe(true);
});

test('jest.config.js runs the tests with the code cache installed in this worker', () => {
  const config = readFileSync(path.join(checkout, 'jest.config.js'), 'utf8');
  expect(config).toMatch(/runtime: '<rootDir>\/scripts\/jest-code-cache\/runtime\.cjs'/);
  // KUBEFORGE_JEST_CODE_CACHE=0 (for comparing) leaves node:vm alone
  if (process.env.KUBEFORGE_JEST_CODE_CACHE === '0') {
    expect(installed).toBeUndefined();
    return;
  }
  expect(installed).toBeDefined();
  expect(vm.SourceTextModule).not.toBe(installed!.original.SourceTextModule);
  // this file's own imports went through it: this worker compiled at least one module and read its text
  expect(installed!.stats.hits + installed!.stats.misses).toBeGreaterThan(0);
  expect(installed!.sourceTexts.read).toBeGreaterThan(0);
});
