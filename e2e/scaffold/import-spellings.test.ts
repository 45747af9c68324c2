/**
 * Import spellings (issue 14 item 2): every import kubeforge's README shows compiles in a made project
 * under its NodeNext settings, and `kubeforge manifests` warns — file:line:col, the import, the spelling
 * that works — exactly where tsc would fail on a spelling the generator itself accepts
 * (`kubernetes-types/batch/v1` without `.js`, a relative import without its extension), exiting 0.
 * The project's type-check is one `tsc --watch` of its tsconfig.json, checked after each edit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { finishGeneratorRun, type RunOutput } from '../../src/cli/generator-run.js';
import { planManifests } from '../../src/cli/manifests.js';
import { CHECKOUT, createApi, init, linkDependencies, read, tempProject } from './scaffold-harness.js';
import { TypeCheckWatch } from './type-check-watch.js';

async function manifests(root: string): Promise<{ code: number; err: string[] }> {
  const err: string[] = [];
  const output: RunOutput = { out: () => undefined, err: (l) => err.push(l) };
  const code = await finishGeneratorRun(await planManifests({ root }), output);
  return { code, err };
}

/** The import statements of the README's ```ts blocks, and the `kubernetes-types/…` modules its text names. */
function readmeImports(): string[] {
  const readme = readFileSync(join(CHECKOUT, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const statements = blocks.flatMap((block) => [...block.matchAll(/^import [^;]+;/gm)].map((m) => m[0]));
  const named = [...readme.matchAll(/`(kubernetes-types\/[a-z0-9/.]+)`/g)].map((m) => `import type * as named from '${m[1]}';`);
  return [...statements, ...named];
}

describe('import spellings under the scaffold\'s NodeNext settings', () => {
  const project = tempProject('spellings');
  let root = '';
  let typeCheck: TypeCheckWatch;

  beforeAll(async () => {
    root = project.root;
    expect(init(root, { domain: 'tutorial.kubebuilder.io', repo: 'spellings' }).code).toBe(0);
    expect(await createApi(root, { group: 'batch', version: 'v1', kind: 'CronJob', make: false })).toMatchObject({ code: 0, err: '' });
    linkDependencies(root);
    typeCheck = new TypeCheckWatch(root);
  }, 120_000);
  afterAll(async () => {
    await typeCheck?.stop();
    project.remove();
  });

  it('every import the README shows compiles in a made project (from cmd/, where the README\'s main.ts lives)', async () => {
    const imports = readmeImports();
    expect(imports.length).toBeGreaterThanOrEqual(5);
    expect(imports.some((i) => i.includes('kubernetes-types/batch/v1.js'))).toBe(true);
    // One file per statement: the README's snippets may import the same name twice.
    const result = await typeCheck.afterEdit(() => imports.forEach((statement, i) => writeFileSync(join(root, `cmd/readme-import-${i}.ts`), `${statement}\nexport {};\n`)));
    expect({ code: result.code, output: result.output }).toEqual({ code: 0, output: '' });
  }, 120_000);

  it('manifests warns where tsc fails, with the spelling that works, and still succeeds', async () => {
    const typesPath = join(root, 'api/v1/cronjob_types.ts');
    const scaffolded = read(root, 'api/v1/cronjob_types.ts');
    const edited = scaffolded
      .replace("import { groupVersion } from './groupversion_info.js';", "import { groupVersion } from './groupversion_info';\nimport type { JobTemplateSpec } from 'kubernetes-types/batch/v1';")
      .replace('  foo?: string;\n', '  foo?: string;\n  jobTemplate?: JobTemplateSpec;\n');
    expect(edited).toContain('jobTemplate?: JobTemplateSpec;');
    const failingCheck = typeCheck.afterEdit(() => writeFileSync(typesPath, edited));
    const lines = edited.split('\n');
    const groupLine = lines.findIndex((l) => l.includes("'./groupversion_info'")) + 1;
    const k8sLine = groupLine + 1;

    const warned = await manifests(root);
    expect(warned.code).toBe(0);
    expect(warned.err).toEqual([
      `api/v1/cronjob_types.ts:${groupLine}:30: warning: import './groupversion_info' is read here, but tsc (module NodeNext) cannot resolve it (TS2835); write './groupversion_info.js'`,
      `api/v1/cronjob_types.ts:${k8sLine}:38: warning: import 'kubernetes-types/batch/v1' is read here, but tsc (module NodeNext) cannot resolve it (TS2307); write 'kubernetes-types/batch/v1.js'`,
    ]);
    // tsc fails at exactly those places…
    const failing = await failingCheck;
    expect(failing.code).toBe(1);
    expect(failing.output).toContain(`api/v1/cronjob_types.ts(${groupLine},30): error TS2835`);
    expect(failing.output).toContain(`api/v1/cronjob_types.ts(${k8sLine},38): error TS2307: Cannot find module 'kubernetes-types/batch/v1'`);

    // …and the spellings the warnings give compile, with no warning left.
    const fixedCheck = typeCheck.afterEdit(() => writeFileSync(typesPath, edited.replace("'./groupversion_info'", "'./groupversion_info.js'").replace("'kubernetes-types/batch/v1'", "'kubernetes-types/batch/v1.js'")));
    expect(await manifests(root)).toEqual({ code: 0, err: [] });
    const fixed = await fixedCheck;
    expect({ code: fixed.code, output: fixed.output }).toEqual({ code: 0, output: '' });
  }, 180_000);
});
