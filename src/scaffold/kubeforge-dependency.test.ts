import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KUBEFORGE_ROOT, kubeforgeDependency } from './kubeforge-dependency.js';

describe('kubeforgeDependency', () => {
  const saved = process.env.KUBEFORGE_DEPENDENCY;
  beforeEach(() => delete process.env.KUBEFORGE_DEPENDENCY);
  afterAll(() => {
    if (saved !== undefined) process.env.KUBEFORGE_DEPENDENCY = saved;
  });

  it('is the semver range of this version for an installed kubeforge (what a registry install gives)', () => {
    const installed = mkdtempSync(join(tmpdir(), 'kubeforge-installed-')); // a package folder: no .git
    try {
      writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: 'kubeforge', version: '3.2.1' }));
      expect(kubeforgeDependency('/tmp/somewhere/else', undefined, installed)).toBe('^3.2.1');
      expect(kubeforgeDependency(undefined, undefined, installed)).toBe('^3.2.1');
    } finally {
      rmSync(installed, { recursive: true, force: true });
    }
  });

  it('is this checkout, by absolute path, for a project outside it when kubeforge runs from a git checkout', () => {
    expect(kubeforgeDependency('/tmp/somewhere/else')).toBe(`file:${KUBEFORGE_ROOT}`);
    expect(kubeforgeDependency(`${KUBEFORGE_ROOT}-sibling/x`)).toBe(`file:${KUBEFORGE_ROOT}`);
    expect(kubeforgeDependency()).toBe(`file:${KUBEFORGE_ROOT}`);
  });

  it('is relative for a project inside the checkout, so the reference operators install on any clone', () => {
    expect(kubeforgeDependency(`${KUBEFORGE_ROOT}/examples/at`)).toBe('file:../..');
  });

  it('honours KUBEFORGE_DEPENDENCY, and the --kubeforge-dependency flag before it', () => {
    process.env.KUBEFORGE_DEPENDENCY = 'file:/opt/kubeforge-9.9.9.tgz';
    expect(kubeforgeDependency(`${KUBEFORGE_ROOT}/examples/at`)).toBe('file:/opt/kubeforge-9.9.9.tgz');
    expect(kubeforgeDependency('/tmp/x', 'file:../kubeforge')).toBe('file:../kubeforge');
  });

  it('refuses a spec npm cannot read, naming the flag or the variable', () => {
    expect(() => kubeforgeDependency('/tmp/x', 'file:../my kubeforge')).toThrow('--kubeforge-dependency "file:../my kubeforge": must be an npm dependency spec');
    process.env.KUBEFORGE_DEPENDENCY = '"^1.0.0"';
    expect(() => kubeforgeDependency('/tmp/x')).toThrow('KUBEFORGE_DEPENDENCY "\\"^1.0.0\\"": must be an npm dependency spec');
  });
});
