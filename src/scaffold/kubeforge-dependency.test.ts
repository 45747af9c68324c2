import { KUBEFORGE_ROOT, kubeforgeDependency } from './kubeforge-dependency.js';

describe('kubeforgeDependency from a checkout', () => {
  const saved = process.env.KUBEFORGE_DEPENDENCY;
  beforeEach(() => delete process.env.KUBEFORGE_DEPENDENCY);
  afterAll(() => {
    if (saved !== undefined) process.env.KUBEFORGE_DEPENDENCY = saved;
  });

  it('is relative for a project inside the checkout, so the reference operators install on any clone', () => {
    expect(kubeforgeDependency(`${KUBEFORGE_ROOT}/examples/at`)).toBe('file:../..');
  });

  it('is absolute for a project elsewhere', () => {
    expect(kubeforgeDependency('/tmp/somewhere/else')).toBe(`file:${KUBEFORGE_ROOT}`);
    expect(kubeforgeDependency(`${KUBEFORGE_ROOT}-sibling/x`)).toBe(`file:${KUBEFORGE_ROOT}`);
  });

  it('honours KUBEFORGE_DEPENDENCY', () => {
    process.env.KUBEFORGE_DEPENDENCY = '^9.9.9';
    expect(kubeforgeDependency(`${KUBEFORGE_ROOT}/examples/at`)).toBe('^9.9.9');
  });
});
