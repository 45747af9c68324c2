import { readFileSync } from 'node:fs';
import { KUBEFORGE_ROOT, kubeforgeDependency } from './kubeforge-dependency.js';

const version = (JSON.parse(readFileSync(`${KUBEFORGE_ROOT}/package.json`, 'utf8')) as { version: string }).version;

describe('kubeforgeDependency', () => {
  const saved = process.env.KUBEFORGE_DEPENDENCY;
  beforeEach(() => delete process.env.KUBEFORGE_DEPENDENCY);
  afterAll(() => {
    if (saved !== undefined) process.env.KUBEFORGE_DEPENDENCY = saved;
  });

  it('is the semver range of this version for a project outside the checkout (what a registry install gives)', () => {
    expect(kubeforgeDependency('/tmp/somewhere/else')).toBe(`^${version}`);
    expect(kubeforgeDependency(`${KUBEFORGE_ROOT}-sibling/x`)).toBe(`^${version}`);
    expect(kubeforgeDependency()).toBe(`^${version}`);
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
