/**
 * `make docker-context` (issue 15): the made Makefile copies a kubeforge dependency that lies outside the
 * project into .kubeforge/image/, the one place of the build context the Dockerfile takes it from, for every
 * spelling: a folder (`file:../kubeforge`, packed with npm pack), a tarball (`file:<path>.tgz`, copied) and a
 * registry range (nothing to copy; a stale tarball of an earlier run is removed). No lock file: one line
 * saying to run npm install. Cheap: a stand-in kubeforge folder, no install.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { init } from '../scaffold/scaffold-harness.js';
import { runCommand } from './ship-harness.js';

describe('make docker-context', () => {
  let parent: string;
  let project: string;
  beforeAll(() => {
    parent = mkdtempSync(join(tmpdir(), 'kubeforge-context-'));
    // A stand-in for a kubeforge checkout: a package folder npm can pack.
    mkdirSync(join(parent, 'kubeforge'));
    writeFileSync(join(parent, 'kubeforge/package.json'), JSON.stringify({ name: 'kubeforge', version: '9.8.7', files: ['index.js'] }));
    writeFileSync(join(parent, 'kubeforge/index.js'), 'export {};\n');
    project = join(parent, 'shop');
  });
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  function makeProject(spec: string): void {
    rmSync(project, { recursive: true, force: true });
    expect(init(project, { domain: 'example.com', repo: 'shop-operator', kubeforgeDependency: spec })).toMatchObject({ code: 0, err: '' });
    writeFileSync(join(project, 'package-lock.json'), '{}\n');
  }

  it('packs a folder dependency into .kubeforge/image/', async () => {
    makeProject('file:../kubeforge');
    const result = await runCommand('make', ['docker-context'], project);
    expect({ code: result.code, output: result.code === 0 ? '' : result.output }).toEqual({ code: 0, output: '' });
    expect(result.stdout).toContain('docker-context: kubeforge (file:../kubeforge) copied into .kubeforge/image/kubeforge-9.8.7.tgz');
    expect(readdirSync(join(project, '.kubeforge/image'))).toEqual(['kubeforge-9.8.7.tgz']);
  });

  it('copies a tarball dependency, and leaves the folder empty for a registry range', async () => {
    // A tarball of the stand-in made with tar (the Makefile copies it as it is; npm pack costs 0.4 CPU-s more).
    const packed = await runCommand('tar', ['czf', join(parent, 'kubeforge-dev.tgz'), 'kubeforge'], parent);
    expect(packed.code).toBe(0);
    makeProject(`file:${join(parent, 'kubeforge-dev.tgz')}`);
    expect((await runCommand('make', ['docker-context'], project)).code).toBe(0);
    expect(readdirSync(join(project, '.kubeforge/image'))).toEqual(['kubeforge-dev.tgz']);

    // Registry range over the same project: the stale tarball goes, the (empty) folder stays for the COPY line.
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'shop-operator', dependencies: { kubeforge: '^0.1.0' } }));
    const registry = await runCommand('make', ['docker-context'], project);
    expect({ code: registry.code, stdout: registry.stdout }).toEqual({ code: 0, stdout: '' });
    expect(readdirSync(join(project, '.kubeforge/image'))).toEqual([]);
  });

  it('stops with one line when there is no lock file (npm ci needs it), changing nothing', async () => {
    makeProject('^0.1.0');
    rmSync(join(project, 'package-lock.json'));
    const result = await runCommand('make', ['docker-context'], project);
    expect(result.code).not.toBe(0);
    expect(result.output.split('\n')[0]).toBe('docker-context: package-lock.json is missing (the image installs with npm ci): run npm install first');
    expect(existsSync(join(project, '.kubeforge/image'))).toBe(false);
  });
});
