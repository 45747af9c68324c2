/**
 * Drift of the reference operators (issue 6; memcached, made with the deploy-image plugin: issue 12; storagebucket: issue 19): each example's scaffold is re-made with the CLI in a
 * temporary folder, and every file the scaffold owns must be byte-identical to the committed one; the
 * files generated from the user's code must be current (`manifests --check`, `generate --check` in place).
 *
 * Which made files are compared:
 * - user-edited, NOT compared: files the scaffold marks for the user (`TODO(user)`, "EDIT THIS FILE!"):
 *   the types, the controller and its test, the webhook handlers and their test, the sample, the e2e test;
 *   and README.md. USER_EDITED below lists them per example, and the test fails when the templates' marks
 *   no longer agree with that list.
 * - generated from user code, checked with --check instead: config/crd/bases/*, config/rbac/role.yaml,
 *   config/webhook/manifests.yaml, api/**\/zz_generated.deepcopy.ts.
 * - scaffold-owned, compared byte for byte after replaying the only edits a user is meant to make in them:
 *   package.json's kubeforge dependency (the committed line is given to the CLI through
 *   KUBEFORGE_DEPENDENCY and must be `file:../..`, what the CLI writes inside the checkout), the flags of
 *   the manifests command in the Makefile and in package.json's "manifests" script (cronjob adds
 *   --max-desc-len=0), dependencies and a `bin` added to package.json (jobconfig's `kubectl-furiko`
 *   plugin and the packages it imports), extra `- <file>` entries in config/samples/kustomization.yaml
 *   naming samples the user added, lines added to cmd/main.ts (every scaffold line still there, unchanged,
 *   in order), and the lines ADDED_LINES below declares (an example's dependencies in package.json: taken
 *   out before comparing, each must be there).
 *   Everything else: Makefile, Dockerfile, PROJECT, cmd/, hack/, config/ kustomizations,
 *   patches and RBAC roles, internal/controller/index.ts, webhook registration, tsconfig/jest config,
 *   .gitignore/.dockerignore.
 * Files an example adds beyond the scaffold (its hand-written logic and tests) are not compared.
 */
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finishGeneratorRun, type RunOutput } from '../../src/cli/generator-run.js';
import { planGenerate } from '../../src/cli/generate.js';
import { planManifests, type ManifestsOptions } from '../../src/cli/manifests.js';
import { EXAMPLES, isGeneratedOutput, isUserEdited, listFiles, remakeScaffold, type ApiRecipe, type ExampleRecipe } from './example-scaffold.js';
import { MAKE_GENERATE, MAKE_MANIFESTS, makeFlags, scaffoldDrift, type AddedLines } from './scaffold-drift.js';
import { tempProject } from '../scaffold/scaffold-harness.js';

const RECIPES: ExampleRecipe[] = [
  { name: 'at', init: { domain: 'my.domain', repo: 'k8s-at' }, apis: [{ group: 'batch', version: 'v1', kind: 'AT' }] },
  {
    name: 'cronjob',
    init: { domain: 'tutorial.kubebuilder.io', repo: 'cronjob-tutorial', projectName: 'project' },
    apis: [
      { group: 'batch', version: 'v1', kind: 'CronJob' },
      { group: 'batch', version: 'v2', kind: 'CronJob' },
    ],
    webhooks: [
      { group: 'batch', version: 'v1', kind: 'CronJob', defaulting: true, programmaticValidation: true },
      { group: 'batch', version: 'v1', kind: 'CronJob', conversion: true, spoke: ['v2'] },
    ],
  },
  { name: 'eventjob', init: { domain: 'kitagry.github.io', repo: 'eventjob' }, apis: [{ group: 'batch', version: 'v1', kind: 'EventJob' }] },
  {
    name: 'jobconfig',
    init: { domain: 'furiko.io', repo: 'jobconfig' },
    apis: [furiko('JobConfig'), furiko('Job')],
    webhooks: [furiko('JobConfig', true), furiko('Job', true)],
  },
  {
    name: 'memcached',
    init: { domain: 'example.com', repo: 'memcached-operator' },
    apis: [
      {
        group: 'cache',
        version: 'v1alpha1',
        kind: 'Memcached',
        plugins: 'deploy-image/v1-alpha',
        image: 'memcached:1.6.26-alpine',
        imageContainerCommand: 'memcached,--memory-limit=64,-o,modern,-v',
        imageContainerPort: '11211',
        runAsUser: '1001',
      },
    ],
  },
  { name: 'storagebucket', init: { domain: 'example.com', repo: 'storagebucket-operator' }, apis: [{ group: 'storage', version: 'v1alpha1', kind: 'StorageBucket' }] },
];

/** A Furiko kind (execution.furiko.io/v1alpha1), with both webhooks when `webhook` is set. */
function furiko(kind: string): ApiRecipe;
function furiko(kind: string, webhook: true): ApiRecipe & { defaulting: boolean; programmaticValidation: boolean };
function furiko(kind: string, webhook = false): ApiRecipe {
  return { group: 'execution', version: 'v1alpha1', kind, ...(webhook ? { defaulting: true, programmaticValidation: true } : {}) };
}

const USER_EDITED: Record<string, string[]> = {
  at: ['README.md', 'api/v1/at_types.ts', 'config/samples/batch_v1_at.yaml', 'internal/controller/at_controller.test.ts', 'internal/controller/at_controller.ts', 'test/e2e/e2e.test.ts'],
  cronjob: [
    'README.md',
    'api/v1/cronjob_types.ts',
    'api/v2/cronjob_conversion.ts',
    'api/v2/cronjob_types.ts',
    'config/samples/batch_v1_cronjob.yaml',
    'config/samples/batch_v2_cronjob.yaml',
    'internal/controller/cronjob_controller.test.ts',
    'internal/controller/cronjob_controller.ts',
    'internal/webhook/v1/cronjob_webhook.test.ts',
    'internal/webhook/v1/cronjob_webhook.ts',
    'test/e2e/e2e.test.ts',
  ],
  eventjob: [
    'README.md',
    'api/v1/eventjob_types.ts',
    'config/samples/batch_v1_eventjob.yaml',
    'internal/controller/eventjob_controller.test.ts',
    'internal/controller/eventjob_controller.ts',
    'test/e2e/e2e.test.ts',
  ],
  jobconfig: [
    'README.md',
    'api/v1alpha1/job_types.ts',
    'api/v1alpha1/jobconfig_types.ts',
    'config/samples/execution_v1alpha1_job.yaml',
    'config/samples/execution_v1alpha1_jobconfig.yaml',
    'internal/controller/job_controller.test.ts',
    'internal/controller/job_controller.ts',
    'internal/controller/jobconfig_controller.test.ts',
    'internal/controller/jobconfig_controller.ts',
    'internal/webhook/v1alpha1/job_webhook.test.ts',
    'internal/webhook/v1alpha1/job_webhook.ts',
    'internal/webhook/v1alpha1/jobconfig_webhook.test.ts',
    'internal/webhook/v1alpha1/jobconfig_webhook.ts',
    'test/e2e/e2e.test.ts',
  ],
  memcached: [
    'README.md',
    'api/v1alpha1/memcached_types.ts',
    'config/samples/cache_v1alpha1_memcached.yaml',
    'internal/controller/memcached_controller.test.ts',
    'internal/controller/memcached_controller.ts',
    'test/e2e/e2e.test.ts',
  ],
  storagebucket: [
    'README.md',
    'api/v1alpha1/storagebucket_types.ts',
    'config/samples/storage_v1alpha1_storagebucket.yaml',
    'internal/controller/storagebucket_controller.test.ts',
    'internal/controller/storagebucket_controller.ts',
    'test/e2e/e2e.test.ts',
  ],
};

/**
 * Lines an example added to scaffold-owned files, as kubebuilder users add their flags to cmd/main.go:
 * storagebucket's --probe-interval and --s3-endpoint in the manager's parser and --help, and its S3 client
 * and s3rver in package.json; jobconfig's Furiko start-up in cmd/run-local.ts (as in its cmd/main.ts).
 */
const ADDED_LINES: Record<string, AddedLines> = {
  jobconfig: {
    'cmd/run-local.ts': [
      "import { furikoBootstrap } from '../internal/furiko/startup.js';",
      "    // Furiko, as cmd/main.ts: the bootstrap file of --config, as runLocal's parseManagerFlags read it; its dynamic ConfigMap is watched.",
      '    const furiko = furikoBootstrap();',
      '    furiko.watchDynamicConfig(mgr);',
      '    furiko.configureControllers(mgr);',
    ],
  },
  storagebucket: {
    'package.json': ['    "@aws-sdk/client-s3": "3.1175.0",', '    "s3rver": "3.7.1",'],
  },
};

/** The Makefile's manifests flags as the CLI's options; a flag this test does not know fails loudly. */
function parseFlags(flags: string, file: string): Partial<ManifestsOptions> {
  const options: Partial<ManifestsOptions> = {};
  const tokens = flags.trim() === '' ? [] : flags.trim().split(/\s+/);
  for (let i = 0; i < tokens.length; i++) {
    const [flag, inline] = tokens[i].split('=', 2);
    if (flag === '--max-desc-len') {
      const value = inline ?? tokens[++i];
      if (!/^\d+$/.test(value ?? '')) throw new Error(`${file}: --max-desc-len needs a non-negative integer, got "${value}"`);
      options.maxDescLen = Number(value);
    } else if (flag === '--allow-dangerous-types' && inline === undefined) {
      options.allowDangerousTypes = true;
    } else if (flag === '--strict-markers' && inline === undefined) {
      options.strictMarkers = true;
    } else {
      throw new Error(`${file}: the drift test does not know the flag "${tokens[i]}"; teach parseFlags in e2e/examples/drift.test.ts`);
    }
  }
  return options;
}

/** Runs a planned generator run and keeps what it printed. */
async function checkRun(run: Parameters<typeof finishGeneratorRun>[0]): Promise<{ code: number; text: string }> {
  const lines: string[] = [];
  const output: RunOutput = { out: (l) => lines.push(l), err: (l) => lines.push(l) };
  const code = await finishGeneratorRun(run, output);
  return { code, text: lines.join('\n') };
}

describe.each(RECIPES)('examples/$name', (recipe) => {
  const exampleRoot = join(EXAMPLES, recipe.name);
  const committedPackage = JSON.parse(readFileSync(join(exampleRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; scripts: Record<string, string> };
  const makefile = readFileSync(join(exampleRoot, 'Makefile'), 'utf8');
  let made: { root: string; remove(): void } | undefined;
  let madeFiles: string[] = [];

  beforeAll(async () => {
    made = await remakeScaffold(recipe, committedPackage.dependencies.kubeforge);
    madeFiles = listFiles(made.root);
  }, 120_000);
  afterAll(() => made?.remove());

  it('depends on kubeforge as the CLI does for a project inside the checkout, with matching manifests flags', () => {
    expect(committedPackage.dependencies.kubeforge).toBe('file:../..');
    const makeManifests = makeFlags(makefile, MAKE_MANIFESTS, `examples/${recipe.name}/Makefile`);
    expect(committedPackage.scripts.manifests).toBe(`kubeforge manifests${makeManifests}`);
  });

  it('the files the scaffold marks for the user are exactly the ones this test leaves out', () => {
    const root = made!.root;
    const marked = madeFiles.filter((path) => isUserEdited(path, readFileSync(join(root, path), 'utf8')));
    expect(marked).toEqual(USER_EDITED[recipe.name]);
  });

  it('every scaffold-owned file is byte-identical to what the CLI makes today', () => {
    const { problems, compared } = scaffoldDrift(made!.root, exampleRoot, `examples/${recipe.name}`, USER_EDITED[recipe.name], ADDED_LINES[recipe.name]);
    if (problems.length > 0) throw new Error(`${problems.length} scaffold-owned file(s) drifted:\n\n${problems.join('\n\n')}`);
    // A scaffold that made almost nothing would pass vacuously.
    expect(compared).toBeGreaterThan(30);
  });

  it('the generated outputs exist in the fresh scaffold where the example has them', () => {
    // The generated files are checked in place below; here only that the scaffold still makes each kind of them.
    for (const path of madeFiles.filter(isGeneratedOutput)) expect({ path, exists: existsSync(join(exampleRoot, path)) }).toEqual({ path, exists: true });
  });

  it('kubeforge manifests --check passes in place, with the Makefile\'s flags', async () => {
    const options = parseFlags(makeFlags(makefile, MAKE_MANIFESTS, `examples/${recipe.name}/Makefile`), `examples/${recipe.name}/Makefile`);
    const result = await checkRun(await planManifests({ root: exampleRoot, ...options, check: true }));
    expect({ code: result.code, output: result.code === 0 ? '' : result.text }).toEqual({ code: 0, output: '' });
  }, 60_000);

  it('kubeforge generate --check passes in place', async () => {
    // `make generate` takes no flags in these examples; one added there would need passing here.
    expect(makeFlags(makefile, MAKE_GENERATE, `examples/${recipe.name}/Makefile`)).toBe('');
    const result = await checkRun(await planGenerate({ root: exampleRoot, check: true }));
    expect({ code: result.code, output: result.code === 0 ? '' : result.text }).toEqual({ code: 0, output: '' });
  }, 60_000);
});

describe('the drift comparison itself', () => {
  let made: { root: string; remove(): void } | undefined;
  let copy: ReturnType<typeof tempProject> | undefined;
  const userEdited = USER_EDITED.at;

  beforeAll(async () => {
    made = await remakeScaffold(RECIPES[0], 'file:../..');
  }, 120_000);
  afterAll(() => {
    made?.remove();
    copy?.remove();
  });

  it('passes an identical copy and the allowed edits, and names each drifted or missing file with its diff', () => {
    copy = tempProject('at');
    cpSync(made!.root, copy.root, { recursive: true });
    const committed = copy.root;
    expect(scaffoldDrift(made!.root, committed, 'copy', userEdited).problems).toEqual([]);

    // Allowed: manifests flags (Makefile and package.json), dependencies and a bin added to package.json,
    // an added sample, any change to a user-edited file.
    const edit = (path: string, change: (text: string) => string): void => writeFileSync(join(committed, path), change(readFileSync(join(committed, path), 'utf8')));
    edit('Makefile', (t) => t.replace('\t$(KUBEFORGE) manifests --strict-markers\n', '\t$(KUBEFORGE) manifests --strict-markers --max-desc-len=0\n'));
    edit('package.json', (t) => t.replace('"kubeforge manifests --strict-markers"', '"kubeforge manifests --strict-markers --max-desc-len=0"'));
    edit('package.json', (t) => {
      const pkg = JSON.parse(t) as { bin?: Record<string, string>; dependencies: Record<string, string> };
      pkg.bin = { 'kubectl-at': 'dist/cmd/at/main.js' };
      pkg.dependencies = { commander: '^14.0.3', ...pkg.dependencies };
      return `${JSON.stringify(pkg, null, 2)}\n`;
    });
    writeFileSync(join(committed, 'config/samples/extra.yaml'), 'kind: ConfigMap\n');
    edit('config/samples/kustomization.yaml', (t) => t.replace('- batch_v1_at.yaml\n', '- batch_v1_at.yaml\n- extra.yaml\n'));
    edit('internal/controller/at_controller.ts', (t) => `${t}// hand-written\n`);
    edit('cmd/main.ts', (t) => t.replace('  const mgr = new Manager(', '  // added by the user\n  const mgr = new Manager('));
    expect(scaffoldDrift(made!.root, committed, 'copy', userEdited).problems).toEqual([]);

    // Allowed when declared: lines added to a scaffold-owned file; a declared line that is missing is named.
    edit('cmd/run-local.ts', (t) => t.replace("import { runLocal } from 'kubeforge/testing';\n", "import { runLocal } from 'kubeforge/testing';\nimport { extra } from './extra.js';\n"));
    expect(scaffoldDrift(made!.root, committed, 'copy', userEdited).problems).toHaveLength(1);
    expect(scaffoldDrift(made!.root, committed, 'copy', userEdited, { 'cmd/run-local.ts': ["import { extra } from './extra.js';"] }).problems).toEqual([]);
    expect(scaffoldDrift(made!.root, committed, 'copy', userEdited, { 'cmd/run-local.ts': ["import { extra } from './extra.js';", '// gone'] }).problems).toEqual([
      'copy/cmd/run-local.ts: the added line "// gone" is not there (update the example\'s added lines)',
    ]);
    edit('cmd/run-local.ts', (t) => t.replace("import { extra } from './extra.js';\n", ''));

    // Not allowed: a changed Makefile target, a changed scaffold dependency, a sample entry naming no
    // sample, a removed scaffold file, a changed line of cmd/main.ts.
    edit('Makefile', (t) => t.replace('\t$(KUBEFORGE) generate\n', '\t$(KUBEFORGE) generate --paths api\n'));
    edit('package.json', (t) => t.replace(/"pino": "[^"]+"/, '"pino": "^8.0.0"'));
    edit('config/samples/kustomization.yaml', (t) => t.replace('- extra.yaml\n', '- extra.yaml\n- ghost.yaml\n'));
    rmSync(join(committed, 'Dockerfile'));
    edit('cmd/main.ts', (t) => t.replace('  const mgr = new Manager(', '  const manager = new Manager('));
    const { problems } = scaffoldDrift(made!.root, committed, 'copy', userEdited);
    expect(problems).toHaveLength(5);
    expect(problems[0]).toBe('copy/Dockerfile: missing (the CLI makes it today)');
    expect(problems[1]).toMatch(/^copy\/Makefile differs from what the CLI makes today \(- CLI today, \+ committed\):\n@@ committed line \d+ @@\n/);
    expect(problems[1]).toContain('\n- \t$(KUBEFORGE) generate\n+ \t$(KUBEFORGE) generate --paths api\n');
    expect(problems[2]).toMatch(/^copy\/cmd\/main\.ts differs/);
    expect(problems[2]).toContain('\n+   const manager = new Manager(');
    expect(problems[3]).toMatch(/^copy\/config\/samples\/kustomization\.yaml differs/);
    expect(problems[3]).toContain('\n+ - ghost.yaml\n');
    expect(problems[4]).toMatch(/^copy\/package\.json differs/);
    expect(problems[4]).toMatch(/\n\+ +"pino": "\^8\.0\.0"/);
  });
});
