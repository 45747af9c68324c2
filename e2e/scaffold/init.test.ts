/** `kubeforge init`: the files of a new project, PROJECT's schema, --dry-run, and no overwrite without --force. */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { init, read, tempProject, treeHash, CHECKOUT } from './scaffold-harness.js';

describe('kubeforge init', () => {
  let project: ReturnType<typeof tempProject>;
  beforeEach(() => {
    project = tempProject('guestbook');
  });
  afterEach(() => project.remove());

  it('lays a project out as kubebuilder go/v4 does', () => {
    const result = init(project.root, { owner: 'Example Corp' });
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    for (const file of [
      'PROJECT', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'jest.config.js', '.gitignore', '.dockerignore', 'README.md', 'Makefile', 'Dockerfile',
      'hack/boilerplate.ts.txt', 'cmd/main.ts', 'cmd/run-local.ts', 'internal/controller/index.ts', 'test/e2e/e2e.test.ts',
      'config/crd/kustomization.yaml', 'config/rbac/role.yaml', 'config/rbac/leader_election_role.yaml', 'config/rbac/metrics_auth_role.yaml',
      'config/rbac/metrics_reader_role.yaml', 'config/rbac/service_account.yaml', 'config/manager/manager.yaml', 'config/default/kustomization.yaml',
      'config/default/manager_metrics_patch.yaml', 'config/default/metrics_service.yaml', 'config/prometheus/monitor.yaml',
      'config/network-policy/allow-metrics-traffic.yaml', 'config/samples/kustomization.yaml',
    ]) {
      expect({ file, exists: existsSync(join(project.root, file)) }).toEqual({ file, exists: true });
    }
    expect(result.out).toContain('create cmd/main.ts');
    // issue 18: cmd/ holds only the user's entry points, calling kubeforge/runtime and kubeforge/testing
    expect(readdirSync(join(project.root, 'cmd')).sort()).toEqual(['main.ts', 'run-local.ts']);
    expect(read(project.root, 'cmd/main.ts')).toContain("parseManagerFlags(process.argv.slice(2), { leaderElectionId: 'guestbook-leader.example.com' })");
    expect(read(project.root, 'cmd/run-local.ts')).toContain("import { runLocal } from 'kubeforge/testing';");
    expect(read(project.root, 'cmd/main.ts').split('\n').length).toBeLessThan(60);
    expect(read(project.root, 'cmd/run-local.ts').split('\n').length).toBeLessThan(40);
  });

  it('writes PROJECT in kubebuilder schema with the kubeforge layout', () => {
    init(project.root);
    const config = parse(read(project.root, 'PROJECT'));
    expect(config).toMatchObject({ domain: 'example.com', layout: ['kubeforge.io/ts/v1'], projectName: 'guestbook', repo: 'my-operator', resources: [], version: '3' });
  });

  it('depends on this checkout when run from it (or --kubeforge-dependency) and pins the tools it is tested with', () => {
    const saved = process.env.KUBEFORGE_DEPENDENCY;
    delete process.env.KUBEFORGE_DEPENDENCY;
    try {
      init(project.root);
    } finally {
      if (saved !== undefined) process.env.KUBEFORGE_DEPENDENCY = saved;
    }
    // kubeforge runs from this git checkout here: the project depends on it by path (an installed kubeforge
    // writes ^<version>: e2e/ship/publish.test.ts).
    expect(JSON.parse(read(project.root, 'package.json')).dependencies.kubeforge).toBe(`file:${CHECKOUT}`);
    expect(init(project.root, { force: true, kubeforgeDependency: `file:${CHECKOUT}` })).toMatchObject({ code: 0, err: '' });
    const pkg = JSON.parse(read(project.root, 'package.json'));
    expect(pkg.dependencies.kubeforge).toBe(`file:${CHECKOUT}`);
    expect(pkg.type).toBe('module');
    expect(Object.keys(pkg.devDependencies)).toEqual(expect.arrayContaining(['typescript', 'jest', '@swc/jest']));
    expect(JSON.parse(read(project.root, 'tsconfig.json')).compilerOptions.strict).toBe(true);
  });

  it('names the namespace and prefix after --project-name and hardens the manager', () => {
    init(project.root, { projectName: 'shop' });
    const kustomization = parse(read(project.root, 'config/default/kustomization.yaml'));
    expect(kustomization).toMatchObject({ namespace: 'shop-system', namePrefix: 'shop-' });
    const manager = read(project.root, 'config/manager/manager.yaml');
    expect(manager).toContain('runAsNonRoot: true');
    expect(manager).toContain('readOnlyRootFilesystem: true');
    expect(manager).toContain('allowPrivilegeEscalation: false');
    expect(read(project.root, 'Dockerfile')).toContain('USER 65532:65532');
    expect(read(project.root, 'Makefile')).toMatch(/install: manifests[^\n]*\n\t\$\(KUBECTL\) kustomize config\/crd \| \$\(KUBECTL\) apply --server-side -f -/);
  });

  it("make help lists kubebuilder's targets", () => {
    init(project.root);
    // eslint-disable-next-line no-control-regex -- make help's colours are ANSI escapes (ESC [ … m)
    const help = execFileSync('make', ['help'], { cwd: project.root, encoding: 'utf8' }).replace(/\x1b\[[0-9;]*m/g, '');
    for (const target of ['manifests', 'generate', 'api-compat', 'fmt', 'lint', 'test', 'build', 'run', 'run-local', 'cluster-local', 'deploy-local', 'install', 'uninstall', 'deploy', 'undeploy', 'build-installer', 'docker-build', 'docker-push']) {
      expect(help).toMatch(new RegExp(`\\s${target}\\s`));
    }
  });

  it('has a README that says what every file init made is for', () => {
    const result = init(project.root);
    const readme = read(project.root, 'README.md');
    const made = result.out.split('\n').filter((l) => l.startsWith('create ')).map((l) => l.slice('create '.length));
    expect(made.length).toBeGreaterThan(30);
    // A file is explained by its own row or by its folder's (`config/rbac/`).
    const unexplained = made.filter((file) => {
      if (file === 'README.md') return false;
      const folders = file.split('/').slice(0, -1).map((_, i, parts) => `${parts.slice(0, i + 1).join('/')}/`);
      return ![file, ...folders].some((name) => readme.includes(`\`${name}\``));
    });
    expect(unexplained).toEqual([]);
  });

  it('keeps the scaffold markers create api inserts at', () => {
    init(project.root);
    const index = read(project.root, 'internal/controller/index.ts');
    expect(index).toContain('export async function setupControllers(mgr: Manager)');
    expect(index).toContain('// +kubebuilder:scaffold:imports');
    expect(index).toContain('// +kubebuilder:scaffold:builder');
    expect(read(project.root, 'cmd/main.ts')).toContain('// +kubebuilder:scaffold:imports');
  });

  it('--license none leaves the header out', () => {
    init(project.root, { license: 'none' });
    expect(existsSync(join(project.root, 'hack/boilerplate.ts.txt'))).toBe(false);
    expect(read(project.root, 'cmd/main.ts').startsWith('/**')).toBe(true);
  });

  it('--dry-run lists the files and writes none', () => {
    const result = init(project.root, { dryRun: true });
    expect(result.code).toBe(0);
    expect(result.out).toContain('create PROJECT');
    expect(result.out).toContain('create config/manager/manager.yaml');
    expect(readdirSync(project.root)).toEqual([]);
  });

  it('refuses to scaffold over a project, changing nothing, unless --force', () => {
    init(project.root);
    const before = treeHash(project.root);
    const again = init(project.root);
    expect(again.code).toBe(1);
    // One line, not a listing of every file (PROJECT among them twice).
    expect(again.err).toBe(`kubeforge init: ${project.root} already holds a project (its PROJECT exists); nothing was written (use --force to scaffold over it)`);
    expect(again.out).toBe('');
    expect(treeHash(project.root)).toBe(before);
    expect(init(project.root, { force: true }).code).toBe(0);
  });
});
