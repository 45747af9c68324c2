/**
 * The jest run's one fresh install (fresh-install.ts) with a stand-in npm: of two projects with the same
 * install inputs asking at the same time, one installs and the other gets its outcome, a hard-linked copy of
 * its tree and the lock with its own name; a failed install is every caller's failure; other inputs install
 * again. And the run's folder it keeps results in exists for the whole jest run (jest.config.js).
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshInstall, freshInstallKey } from './fresh-install.js';

const ARGS = ['install', '--no-audit'];
const MANIFEST = { version: '0.0.1', license: 'Apache-2.0', dependencies: { yaml: '^2.9.1' }, devDependencies: { jest: '^30.5.2' } };

/** A stand-in for npm install (writes a tree and both locks, as npm does; fails when told) that counts its runs; `cp` is the real one. */
function standIn(failWith?: string) {
  const installs: string[] = [];
  const run = async (command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> => {
    if (command === 'cp') {
      return new Promise((done) => execFile('cp', args, { cwd }, (err, stdout, stderr) => done({ code: err ? 1 : 0, output: stdout + stderr })));
    }
    expect({ command, args }).toEqual({ command: 'npm', args: ARGS });
    installs.push(cwd);
    await new Promise((r) => setTimeout(r, 50));
    if (failWith) return { code: 1, output: failWith };
    const name = (JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as { name: string }).name;
    mkdirSync(join(cwd, 'node_modules/yaml'), { recursive: true });
    writeFileSync(join(cwd, 'node_modules/yaml/index.js'), 'export {};\n');
    const lock = { name, version: '0.0.1', lockfileVersion: 3, packages: { '': { name, version: '0.0.1', dependencies: MANIFEST.dependencies }, 'node_modules/yaml': { version: '2.9.1' } } };
    writeFileSync(join(cwd, 'package-lock.json'), JSON.stringify(lock));
    writeFileSync(join(cwd, 'node_modules/.package-lock.json'), JSON.stringify({ name, version: '0.0.1', lockfileVersion: 3, packages: { 'node_modules/yaml': { version: '2.9.1' } } }));
    return { code: 0, output: 'added 1 package' };
  };
  return { installs, run };
}

describe('freshInstall', () => {
  let folder = '';
  let outerRunFolder: string | undefined;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'kubeforge-fresh-install-'));
    outerRunFolder = process.env.KUBEFORGE_TEST_RUN_DIR;
    process.env.KUBEFORGE_TEST_RUN_DIR = join(folder, 'run');
  });
  afterEach(() => {
    if (outerRunFolder === undefined) delete process.env.KUBEFORGE_TEST_RUN_DIR;
    else process.env.KUBEFORGE_TEST_RUN_DIR = outerRunFolder;
    rmSync(folder, { recursive: true, force: true });
  });

  const project = (name: string, extra: Record<string, unknown> = {}): string => {
    const root = join(folder, name);
    mkdirSync(root);
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name, ...MANIFEST, ...extra }));
    writeFileSync(join(root, '.npmrc'), 'foreground-scripts=true\n');
    return root;
  };

  it('installs once for two projects with the same inputs; the other gets the outcome, the tree hard-linked and its own lock', async () => {
    const shop = project('shop');
    const at = project('k8s-at');
    const { installs, run } = standIn();
    const [a, b] = await Promise.all([freshInstall(shop, ARGS, run), freshInstall(at, ARGS, run)]);
    expect(installs).toHaveLength(1);
    const installer = installs[0]!;
    const other = installer === shop ? at : shop;
    expect([a, b]).toEqual([
      { code: 0, output: 'added 1 package', installedIn: installer },
      { code: 0, output: 'added 1 package', installedIn: installer },
    ]);
    expect(statSync(join(other, 'node_modules/yaml/index.js')).ino).toBe(statSync(join(installer, 'node_modules/yaml/index.js')).ino);
    const otherName = other === shop ? 'shop' : 'k8s-at';
    const lock = JSON.parse(readFileSync(join(other, 'package-lock.json'), 'utf8')) as { name: string; packages: Record<string, { name?: string }> };
    expect({ name: lock.name, root: lock.packages['']!.name, yaml: lock.packages['node_modules/yaml'] }).toEqual({ name: otherName, root: otherName, yaml: { version: '2.9.1' } });
    // npm rewrites the hidden lock in place: each project has a file of its own, with its own name
    const hidden = join(other, 'node_modules/.package-lock.json');
    expect(statSync(hidden).ino).not.toBe(statSync(join(installer, 'node_modules/.package-lock.json')).ino);
    expect((JSON.parse(readFileSync(hidden, 'utf8')) as { name: string }).name).toBe(otherName);
    // a third project with those inputs later in the run reads the result
    expect(await freshInstall(project('third'), ARGS, run)).toEqual({ code: 0, output: 'added 1 package', installedIn: installer });
    expect(installs).toHaveLength(1);
  });

  it('gives a failed install to every caller, and gives no tree', async () => {
    const { installs, run } = standIn('npm error 404 Not Found');
    const shop = project('shop');
    const at = project('k8s-at');
    const outcomes = await Promise.all([freshInstall(shop, ARGS, run), freshInstall(at, ARGS, run)]);
    expect(installs).toHaveLength(1);
    expect(outcomes.map((o) => o.code)).toEqual([1, 1]);
    expect(outcomes.map((o) => o.output)).toEqual(['npm error 404 Not Found', 'npm error 404 Not Found']);
    expect([existsSync(join(shop, 'node_modules')), existsSync(join(at, 'node_modules'))]).toEqual([false, false]);
  });

  it('installs again for other dependencies, another .npmrc or other flags', async () => {
    const base = freshInstallKey(project('shop'), ARGS);
    expect(freshInstallKey(project('same', {}), ARGS)).toBe(base);
    expect(freshInstallKey(project('more', { dependencies: { ...MANIFEST.dependencies, commander: '^14.0.3' } }), ARGS)).not.toBe(base);
    expect(freshInstallKey(project('flags'), [...ARGS, '--ignore-scripts'])).not.toBe(base);
    const npmrc = project('npmrc');
    writeFileSync(join(npmrc, '.npmrc'), 'registry=http://localhost:1/\n');
    expect(freshInstallKey(npmrc, ARGS)).not.toBe(base);
    const { installs, run } = standIn();
    await freshInstall(project('first'), ARGS, run);
    await freshInstall(project('with-commander', { dependencies: { ...MANIFEST.dependencies, commander: '^14.0.3' } }), ARGS, run);
    expect(installs).toHaveLength(2);
  });

  it('installs in every project when jest runs without the run folder (another config)', async () => {
    delete process.env.KUBEFORGE_TEST_RUN_DIR;
    const { installs, run } = standIn();
    await freshInstall(project('shop'), ARGS, run);
    await freshInstall(project('k8s-at'), ARGS, run);
    expect(installs).toHaveLength(2);
  });
});

describe("the jest run's folder", () => {
  it('is made for the run by jest.config.js (scripts/jest-run-folder) and exists while its files run', () => {
    const runFolder = process.env.KUBEFORGE_TEST_RUN_DIR;
    expect(runFolder).toMatch(new RegExp(`^${tmpdir().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/kubeforge-test-run-`));
    expect(statSync(runFolder!).isDirectory()).toBe(true);
  });
});
