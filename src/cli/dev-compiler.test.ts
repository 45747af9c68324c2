/**
 * `kubeforge dev`'s in-memory incremental build: a one-file edit re-emits that file only; errors (syntax
 * or types) are reported as tsc reports them and nothing is emitted; a new compiler starts from the
 * tsbuildinfo and emits nothing when nothing changed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IncrementalCompiler } from './dev-compiler.js';

const CHECKOUT = fileURLToPath(new URL('../../', import.meta.url));

describe('IncrementalCompiler', () => {
  let root = '';
  const write = (path: string, text: string): void => writeFileSync(join(root, path), text);
  const jsFiles = (emitted: string[]): string[] => emitted.filter((f) => f.endsWith('.js')).map((f) => basename(f)).sort();

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'kubeforge-dev-compiler-'));
    mkdirSync(join(root, 'node_modules'));
    mkdirSync(join(root, 'src'));
    symlinkSync(join(CHECKOUT, 'node_modules/typescript'), join(root, 'node_modules/typescript'));
    write('package.json', '{ "type": "module" }\n');
    write(
      'tsconfig.build.json',
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: [], outDir: 'dist', rootDir: '.', incremental: true, tsBuildInfoFile: 'dist/tsconfig.build.tsbuildinfo', skipLibCheck: true }, include: ['src/**/*.ts'] }),
    );
    write('src/a.ts', 'export function greeting(): string {\n  return "hello";\n}\n');
    write('src/b.ts', "import { greeting } from './a.js';\nexport const shout = greeting().toUpperCase();\n");
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a one-file edit that keeps its signature re-emits that file alone', () => {
    const compiler = new IncrementalCompiler(root);
    const first = compiler.build();
    expect({ ok: first.ok, js: jsFiles(first.emitted) }).toEqual({ ok: true, js: ['a.js', 'b.js'] });
    // The first edit after a start also re-checks the dependents: the builder learns a.ts's signature then.
    write('src/a.ts', 'export function greeting(): string {\n  return "hello again";\n}\n');
    compiler.invalidate(['src/a.ts']);
    expect(compiler.build().ok).toBe(true);
    write('src/a.ts', 'export function greeting(): string {\n  return "hello once more";\n}\n');
    compiler.invalidate(['src/a.ts']);
    const third = compiler.build();
    expect({ ok: third.ok, js: jsFiles(third.emitted) }).toEqual({ ok: true, js: ['a.js'] });
    expect(readFileSync(join(root, 'dist/src/a.js'), 'utf8')).toContain('hello once more');
  });

  it('a syntax error is reported as tsc reports it and nothing is emitted; the fix is built', () => {
    const compiler = new IncrementalCompiler(root);
    compiler.build();
    write('src/a.ts', 'export function greeting(): string {\n  return ;;\n}\nexport const x = ;\n');
    compiler.invalidate(['src/a.ts']);
    const broken = compiler.build();
    expect({ ok: broken.ok, errorCount: broken.errorCount, emitted: broken.emitted }).toEqual({ ok: false, errorCount: 1, emitted: [] });
    expect(broken.errorText).toBe('src/a.ts(4,18): error TS1109: Expression expected.\n');
    expect(readFileSync(join(root, 'dist/src/a.js'), 'utf8')).toContain('"hello"');
    write('src/a.ts', 'export function greeting(): string {\n  return "fixed";\n}\n');
    compiler.invalidate(['src/a.ts']);
    const fixed = compiler.build();
    // b.ts is emitted again too: a.ts's exports differ from the broken version's.
    expect({ ok: fixed.ok, js: jsFiles(fixed.emitted) }).toEqual({ ok: true, js: ['a.js', 'b.js'] });
    expect(readFileSync(join(root, 'dist/src/a.js'), 'utf8')).toContain('"fixed"');
  });

  it("a type error in a dependent file is found and blocks every emit", () => {
    const compiler = new IncrementalCompiler(root);
    compiler.build();
    write('src/a.ts', 'export function greeting(): number {\n  return 1;\n}\n');
    compiler.invalidate(['src/a.ts']);
    const broken = compiler.build();
    expect(broken.ok).toBe(false);
    expect(broken.errorText).toBe("src/b.ts(2,33): error TS2339: Property 'toUpperCase' does not exist on type 'number'.\n");
    expect(broken.emitted).toEqual([]);
  });

  it('a new file is compiled; a fresh compiler finds the project up to date through the tsbuildinfo', () => {
    const compiler = new IncrementalCompiler(root);
    compiler.build();
    write('src/c.ts', 'export const c = 3;\n');
    compiler.invalidate(['src/c.ts']);
    expect(jsFiles(compiler.build().emitted)).toEqual(['c.js']);
    const again = new IncrementalCompiler(root).build();
    expect({ ok: again.ok, js: jsFiles(again.emitted) }).toEqual({ ok: true, js: [] });
  });
});
