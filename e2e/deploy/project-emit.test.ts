/**
 * emitProject (the deploy proofs' dist/ without a type-check) writes what `tsc -p tsconfig.build.json` writes:
 * the same .js and .js.map files, byte for byte, for the tutorial CronJob example (two versions, webhooks,
 * conversion: the most varied TypeScript of the examples); and refuses a project that is not an ES module.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { CHECKOUT, linkDependencies } from '../scaffold/scaffold-harness.js';
import { emitProject } from './project-emit.js';

/** Every .js and .js.map under `dir` (relative path → content). */
function emitted(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const visit = (at: string): void => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const path = join(at, entry.name);
      if (entry.isDirectory()) visit(path);
      else if (/\.js(\.map)?$/.test(entry.name)) files.set(relative(dir, path), readFileSync(path, 'utf8'));
    }
  };
  visit(dir);
  return files;
}

describe('emitProject', () => {
  let temp = '';
  beforeAll(() => {
    temp = mkdtempSync(join(tmpdir(), 'kubeforge-project-emit-'));
  });
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  it("writes tsc's own .js and .js.map files for examples/cronjob", () => {
    const root = join(temp, 'cronjob');
    cpSync(join(CHECKOUT, 'examples/cronjob'), root, { recursive: true, filter: (src) => !/\/(node_modules|dist|\.kubeforge)$/.test(src) });
    linkDependencies(root);
    execFileSync(process.execPath, [join(CHECKOUT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'pipe' });
    renameSync(join(root, 'dist'), join(root, 'dist-tsc'));
    const byTsc = emitted(join(root, 'dist-tsc'));

    const written = emitProject(root);
    const byEmit = emitted(join(root, 'dist'));
    expect(byTsc.has('cmd/main.js')).toBe(true);
    expect(written.length).toBeGreaterThan(10);
    expect(written.sort()).toEqual([...byTsc.keys()].filter((f) => f.endsWith('.js')).map((f) => `dist/${f}`).sort());
    expect([...byEmit.keys()].sort()).toEqual([...byTsc.keys()].sort());
    const differing = [...byTsc].filter(([file, text]) => byEmit.get(file) !== text).map(([file]) => file);
    expect(differing).toEqual([]);
  }, 120_000);

  it('refuses a project whose package.json is not "type": "module", naming the file, and writes nothing', () => {
    const root = join(temp, 'commonjs');
    cpSync(join(CHECKOUT, 'examples/at'), root, { recursive: true, filter: (src) => !/\/(node_modules|dist|\.kubeforge)$/.test(src) });
    const packageJson = join(root, 'package.json');
    const manifest = JSON.parse(readFileSync(packageJson, 'utf8')) as Record<string, unknown>;
    delete manifest.type;
    writeFileSync(packageJson, JSON.stringify(manifest));
    expect(() => emitProject(root)).toThrow(`${packageJson}: "type" is undefined, not "module": emitProject writes ES modules only`);
    expect(readdirSync(root)).not.toContain('dist');
  });
});
