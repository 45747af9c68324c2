import { checkAll, checkGroup, checkKind, checkVersion, isDns1123Subdomain, packageNameOf, pluralOf, projectNameFrom, qualifiedGroup, ScaffoldInputErrors } from './names.js';

describe('scaffold names', () => {
  it('accepts kubebuilder-style versions and refuses others', () => {
    for (const v of ['v1', 'v2', 'v10', 'v1alpha1', 'v2beta3', 'v1beta12']) expect(() => checkVersion(v)).not.toThrow();
    for (const v of ['1', 'v', 'v0', 'v01', 'V1', 'v1alpha', 'v1alpha0', 'v1rc1', 'v1-beta1']) expect(() => checkVersion(v)).toThrow(/^--version/);
  });

  it('accepts PascalCase kinds and refuses reserved words', () => {
    for (const k of ['CronJob', 'A', 'Frigate2', 'HTTPRoute']) expect(() => checkKind(k)).not.toThrow();
    for (const k of ['class', 'Class', 'Type', 'Map', 'Func', 'cronJob', '', 'Cron Job', 'a/B', 'Job.Batch']) expect(() => checkKind(k)).toThrow(/^--kind/);
  });

  it('checks DNS-1123 subdomains', () => {
    expect(isDns1123Subdomain('tutorial.kubebuilder.io')).toBe(true);
    expect(isDns1123Subdomain('a-b.c')).toBe(true);
    for (const bad of ['', '-a', 'a-', 'A.b', 'a..b', 'a_b', 'x'.repeat(64)]) expect(isDns1123Subdomain(bad)).toBe(false);
  });

  it('pluralizes as the CRD generator does', () => {
    expect(pluralOf('CronJob')).toBe('cronjobs');
    expect(pluralOf('Policy')).toBe('policies');
    expect(pluralOf('Ingress')).toBe('ingresses');
  });

  it('derives a project name from a folder and qualifies groups with the domain', () => {
    expect(projectNameFrom('/home/me/My_Operator')).toBe('my-operator');
    expect(qualifiedGroup('batch', 'tutorial.kubebuilder.io')).toBe('batch.tutorial.kubebuilder.io');
  });
});

describe('--repo: npm package names and module paths', () => {
  it.each([
    ['my-operator', 'my-operator'],
    ['@acme/my-operator', '@acme/my-operator'],
    ['my.domain/guestbook', 'guestbook'],
    ['github.com/org/project', '@org/project'],
    ['github.com/Org/Project_X', '@org/project_x'],
    ['gitlab.example.com/group/sub/project', '@group/sub-project'],
    ['org/project', '@org/project'],
  ])('%s → %s', (repo, name) => {
    expect(packageNameOf(repo)).toBe(name);
  });

  it('refuses what is neither', () => {
    expect(() => packageNameOf('my operator')).toThrow('--repo "my operator": must be a valid npm package name');
    expect(() => packageNameOf('/abs/path')).toThrow('--repo "/abs/path"');
  });
});

describe('checkAll', () => {
  it('reports every failing check, each with its own message', () => {
    let thrown: unknown;
    try {
      checkAll([() => checkGroup('Batch'), () => checkVersion('v1'), () => checkKind('cronJob')]);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ScaffoldInputErrors);
    expect((thrown as ScaffoldInputErrors).errors.map((e) => e.flag)).toEqual(['--group', '--kind']);
  });
});
