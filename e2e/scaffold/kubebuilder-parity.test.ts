/**
 * A made project at kubebuilder v4 parity (issue 14 item 8): GitHub workflows for test, lint and e2e (the
 * e2e one with kubeforge's local cluster, no kind), a devcontainer, test/utils, eslint and prettier as
 * devDependencies with real `make lint`, `make lint-fix`, `make fmt` (run here on a planted problem and a
 * badly formatted file), `make lint-config`, `make setup-test-e2e` / `cleanup-test-e2e` starting and
 * stopping a local cluster, and `make docker-buildx`.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CHECKOUT, createApi, createWebhook, init, linkDependencies, read, runInProject, tempProject } from './scaffold-harness.js';

function run(command: string, args: string[], cwd: string): Promise<{ code: number; output: string }> {
  const home = join(cwd, '..', 'home');
  return runInProject(command, args, cwd, { env: { HOME: home, KUBECACHEDIR: join(home, '.kube-cache') }, timeoutMs: 120_000 });
}

interface Workflow {
  jobs: Record<string, { steps: Array<{ name?: string; uses?: string; run?: string }> }>;
}

describe('a made project at kubebuilder v4 parity', () => {
  const project = tempProject('parity');
  let root = '';

  beforeAll(async () => {
    root = project.root;
    expect(init(root, { domain: 'example.com', repo: 'parity' }).code).toBe(0);
    expect(await createApi(root, { group: 'ship', version: 'v1', kind: 'Frigate' })).toMatchObject({ code: 0, err: '' });
    expect(await createWebhook(root, { group: 'ship', version: 'v1', kind: 'Frigate', defaulting: true, programmaticValidation: true })).toMatchObject({ code: 0, err: '' });
    linkDependencies(root);
  }, 120_000);
  afterAll(async () => {
    if (root && existsSync(join(root, '.kubeforge/e2e-cluster/pid'))) await run('make', ['cleanup-test-e2e'], root);
    project.remove();
  });

  it('has the test, lint and e2e workflows; the e2e one runs make test-e2e without kind', () => {
    const steps = (file: string): string[] => {
      const workflow = parse(read(root, `.github/workflows/${file}`)) as Workflow;
      return Object.values(workflow.jobs).flatMap((job) => job.steps.map((s) => s.run ?? s.uses ?? ''));
    };
    expect(steps('test.yml')).toEqual(['actions/checkout@v4', 'actions/setup-node@v4', 'npm install', 'make test']);
    expect(steps('lint.yml')).toEqual(['actions/checkout@v4', 'actions/setup-node@v4', 'npm install', 'make lint-config', 'make lint', 'make vet']);
    expect(steps('test-e2e.yml')).toEqual(['actions/checkout@v4', 'actions/setup-node@v4', 'npm install', 'azure/setup-kubectl@v4', 'make test-e2e']);
    expect(read(root, '.github/workflows/test-e2e.yml')).not.toMatch(/kind (create|load)|helm\/kind-action/);
  });

  it('has a devcontainer with its post-install script, and test/utils with kubebuilder\'s helpers', () => {
    const devcontainer = JSON.parse(read(root, '.devcontainer/devcontainer.json')) as { onCreateCommand: string; features: Record<string, unknown> };
    expect(devcontainer.onCreateCommand).toBe('bash .devcontainer/post-install.sh');
    expect(Object.keys(devcontainer.features)).toContain('ghcr.io/devcontainers/features/docker-in-docker:2');
    expect(read(root, '.devcontainer/post-install.sh')).toContain('npm install');
    const utils = read(root, 'test/utils/utils.ts');
    for (const helper of ['run', 'getProjectDir', 'getNonEmptyLines', 'uncommentCode', 'installCertManager', 'uninstallCertManager', 'isCertManagerCRDsInstalled', 'installPrometheusOperator', 'uninstallPrometheusOperator', 'isPrometheusCRDsInstalled']) {
      expect({ helper, exported: new RegExp(`export (async )?function ${helper}\\(`).test(utils) }).toEqual({ helper, exported: true });
    }
  });

  it('depends on eslint, @eslint/js, typescript-eslint and prettier at kubeforge\'s own versions', () => {
    const own = JSON.parse(readFileSync(join(CHECKOUT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    const made = JSON.parse(read(root, 'package.json')) as { devDependencies: Record<string, string> };
    for (const tool of ['eslint', '@eslint/js', 'typescript-eslint', 'prettier']) {
      expect({ tool, version: made.devDependencies[tool] }).toEqual({ tool, version: own.devDependencies[tool] });
    }
  });

  it('make lint-config loads the flat config; make lint passes on the scaffold and catches a planted problem', async () => {
    expect(existsSync(join(root, 'eslint.config.mjs'))).toBe(true);
    expect(await run('make', ['lint-config'], root)).toMatchObject({ code: 0 });
    const clean = await run('make', ['lint'], root);
    expect({ code: clean.code, output: clean.code === 0 ? '' : clean.output }).toEqual({ code: 0, output: '' });

    writeFileSync(join(root, 'internal/controller/planted.ts'), 'const unused = 1;\nexport const loose: any = 2;\n');
    const caught = await run('make', ['lint'], root);
    expect(caught.code).not.toBe(0);
    expect(caught.output).toContain('internal/controller/planted.ts');
    expect(caught.output).toMatch(/1:7 +error +'unused' is assigned a value but never used.*@typescript-eslint\/no-unused-vars/);
    expect(caught.output).toMatch(/Unexpected any\. Specify a different type\s+@typescript-eslint\/no-explicit-any/);
  }, 120_000);

  it('make lint-fix fixes what eslint can fix', async () => {
    writeFileSync(join(root, 'internal/controller/planted.ts'), 'let fixed = 1;\nexport { fixed };\n');
    expect(await run('make', ['lint-fix'], root)).toMatchObject({ code: 0 });
    expect(read(root, 'internal/controller/planted.ts')).toBe('const fixed = 1;\nexport { fixed };\n');
  }, 120_000);

  it('make fmt rewrites a badly formatted file with prettier and leaves generated files alone', async () => {
    writeFileSync(join(root, 'internal/controller/ugly.ts'), 'export   const  ugly = {b:1,"c" : [ 2,3 ]}\n');
    const deepcopy = read(root, 'api/v1/zz_generated.deepcopy.ts');
    const result = await run('make', ['fmt'], root);
    expect({ code: result.code, output: result.code === 0 ? '' : result.output }).toEqual({ code: 0, output: '' });
    expect(read(root, 'internal/controller/ugly.ts')).toBe('export const ugly = { b: 1, c: [2, 3] };\n');
    expect(read(root, 'api/v1/zz_generated.deepcopy.ts')).toBe(deepcopy);
  }, 120_000);

  it('make setup-test-e2e starts kubeforge\'s local cluster (kubectl reaches it) and cleanup-test-e2e stops it', async () => {
    const setup = await run('make', ['setup-test-e2e'], root);
    expect({ code: setup.code, output: setup.code === 0 ? '' : setup.output }).toEqual({ code: 0, output: '' });
    expect(setup.output).toContain('KUBECONFIG=.kubeforge/e2e-cluster/kubeconfig');
    const pid = Number(read(root, '.kubeforge/e2e-cluster/pid').trim());
    const namespaces = await run('kubectl', ['--kubeconfig', join(root, '.kubeforge/e2e-cluster/kubeconfig'), 'get', 'namespaces', '-o', 'name'], root);
    expect(namespaces).toMatchObject({ code: 0 });
    expect(namespaces.output).toContain('namespace/default');
    // A second setup finds it running.
    expect((await run('make', ['setup-test-e2e'], root)).output).toContain(`The e2e cluster is running already (pid ${pid})`);

    // test/utils against it, from the project's own jest, as a kubebuilder e2e suite uses utils.Run.
    writeFileSync(
      join(root, 'test/utils/probe.test.ts'),
      [
        "import { writeFileSync, readFileSync } from 'node:fs';",
        "import { join } from 'node:path';",
        "import { getNonEmptyLines, getProjectDir, run, uncommentCode } from './utils.js';",
        "it('runs kubectl against the e2e cluster and edits files', async () => {",
        "  expect(getProjectDir()).toBe(process.cwd());",
        "  const namespaces = getNonEmptyLines(await run('kubectl', ['get', 'namespaces', '-o', 'name']));",
        "  expect(namespaces).toContain('namespace/kube-system');",
        "  await expect(run('kubectl', ['get', 'nosuchkind'])).rejects.toThrow('kubectl get nosuchkind\\\" failed with error');",
        "  const file = join(getProjectDir(), '.kubeforge', 'uncomment.yaml');",
        "  writeFileSync(file, 'a: 1\\n#b: 2\\n#c: 3\\n');",
        "  uncommentCode(file, '#b: 2\\n#c: 3', '#');",
        "  expect(readFileSync(file, 'utf8')).toBe('a: 1\\nb: 2\\nc: 3\\n');",
        "});",
        '',
      ].join('\n'),
    );
    const probe = await run('env', [`KUBECONFIG=${join(root, '.kubeforge/e2e-cluster/kubeconfig')}`, 'node', '--experimental-vm-modules', 'node_modules/jest/bin/jest.js', 'test/utils'], root);
    expect({ code: probe.code, output: probe.code === 0 ? '' : probe.output }).toEqual({ code: 0, output: '' });
    expect(probe.output).toContain('PASS test/utils/probe.test.ts');
    rmSync(join(root, 'test/utils/probe.test.ts'));

    const cleanup = await run('make', ['cleanup-test-e2e'], root);
    expect(cleanup).toMatchObject({ code: 0 });
    expect(existsSync(join(root, '.kubeforge/e2e-cluster'))).toBe(false);
    let alive = true;
    for (let i = 0; i < 50 && alive; i++) {
      try {
        process.kill(pid, 0);
        await new Promise((r) => setTimeout(r, 100));
      } catch {
        alive = false;
      }
    }
    expect(alive).toBe(false);
  }, 120_000);

  it('make test-e2e starts the local cluster, runs test/e2e and stops the cluster', async () => {
    // test-e2e type-checks first (vet, as kubebuilder's runs fmt and vet); that type-check of a scaffold like this
    // one, test/utils included, is proven by made-project.test.ts (tsc -p tsconfig.json) and tutorial-types.test.ts
    // (make test), so here make takes vet as done (-o vet: a whole tsc program, 2.4 CPU-s, fewer).
    expect(read(root, 'Makefile')).toContain('\ntest-e2e: setup-test-e2e manifests generate vet ##');
    const result = await run('make', ['-o', 'vet', 'test-e2e'], root);
    expect({ code: result.code, output: result.code === 0 ? '' : result.output }).toEqual({ code: 0, output: '' });
    expect(result.output).toContain('Started the e2e cluster');
    expect(result.output).toContain('PASS test/e2e/e2e.test.ts');
    expect(result.output).toContain('Stopped the e2e cluster.');
    expect(existsSync(join(root, '.kubeforge/e2e-cluster'))).toBe(false);
  }, 180_000);

  it('make docker-buildx builds and pushes for several platforms with buildx', async () => {
    const dry = await run('make', ['-n', 'docker-buildx', 'IMG=example.com/parity:v1'], root);
    expect(dry.code).toBe(0);
    expect(dry.output).toContain('docker buildx build --push --platform=linux/arm64,linux/amd64 --tag example.com/parity:v1 .');
    expect(dry.output).toContain('docker buildx create --name parity-builder');
  });
});
