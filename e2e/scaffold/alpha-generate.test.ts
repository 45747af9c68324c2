/**
 * `kubeforge alpha generate` (issue 18): a project made by the previous scaffold (e2e/scaffold/fixtures/
 * previous-scaffold, made at 7ac3159 with cmd/flags.ts and internal/webhook/admission.ts copied in), with
 * the user's own code added, is re-scaffolded in place: cmd/ becomes the small entry points, the copied
 * runtime code is gone, the user's types, webhook logic and files are kept (the webhook's import of the
 * removed admission.ts now names kubeforge/runtime), and `make test` stays green. Also: --output-dir
 * leaves the input untouched, a second run changes nothing, and a folder without PROJECT is refused.
 */
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunOutput } from '../../src/cli/generator-run.js';
import { runAlphaGenerate } from '../../src/cli/alpha.js';
import { CHECKOUT, linkDependencies, read, runInProject, tempProject, treeHash } from './scaffold-harness.js';

const FIXTURE = join(CHECKOUT, 'e2e/scaffold/fixtures/previous-scaffold');

async function alphaGenerate(inputDir: string, outputDir?: string): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const output: RunOutput = { out: (l) => out.push(l), err: (l) => err.push(l) };
  const code = await runAlphaGenerate({ inputDir, ...(outputDir ? { outputDir } : {}) }, output);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** The user's work on top of the previous scaffold: a spec field, webhook logic, a module and its test of their own. */
function addUserCode(root: string): void {
  const types = join(root, 'api/v1/frigate_types.ts');
  const typesText = readFileSync(types, 'utf8')
    .replace("import type { Condition, ListMeta, ObjectMeta } from 'kubeforge/api';", "import type { Condition, int32, ListMeta, ObjectMeta } from 'kubeforge/api';")
    .replace('  foo?: string;\n', '  foo?: string;\n\n  /** crew is how many sailors the frigate carries. */\n  // +kubebuilder:validation:Minimum=0\n  crew?: int32;\n');
  writeFileSync(types, typesText);
  const webhook = join(root, 'internal/webhook/v1/frigate_webhook.ts');
  writeFileSync(
    webhook,
    readFileSync(webhook, 'utf8').replace(
      '    // TODO(user): fill in your validation logic upon object creation.\n    void obj;\n    return [];',
      "    if ((obj.spec.crew ?? 0) > 300) throw new Error('a frigate carries at most 300 sailors');\n    return [];",
    ),
  );
  writeFileSync(join(root, 'internal/controller/crew.ts'), "/** Watches per crew size. */\nexport function watchesFor(crew: number): number {\n  return Math.ceil(crew / 100);\n}\n");
  writeFileSync(
    join(root, 'internal/controller/crew.test.ts'),
    "import { watchesFor } from './crew.js';\nimport { FrigateCustomValidator } from '../webhook/v1/frigate_webhook.js';\n\n" +
      "test('three watches for 250 sailors', () => expect(watchesFor(250)).toBe(3));\n" +
      "test('the webhook refuses 301 sailors', async () => {\n" +
      "  const frigate = { apiVersion: 'ship.example.com/v1', kind: 'Frigate', metadata: { name: 'f' }, spec: { crew: 301 } };\n" +
      "  await expect(new FrigateCustomValidator().validateCreate(frigate as never)).rejects.toThrow('at most 300 sailors');\n" +
      '});\n',
  );
}

describe('kubeforge alpha generate on a project of the previous scaffold', () => {
  const project = tempProject('widget');
  let before: Map<string, string>;
  let result: { code: number; out: string; err: string };

  beforeAll(async () => {
    cpSync(FIXTURE, project.root, { recursive: true });
    addUserCode(project.root);
    before = new Map(['api/v1/frigate_types.ts', 'internal/controller/crew.ts', 'internal/controller/crew.test.ts', 'internal/controller/frigate_controller.ts'].map((p) => [p, read(project.root, p)]));
    linkDependencies(project.root);
    result = await alphaGenerate(project.root);
  }, 120_000);
  afterAll(() => project.remove());

  it('removes the copied runtime code and says what it did', () => {
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(result.out).toContain('removed cmd/flags.ts: its code is in kubeforge/runtime (parseManagerFlags, managerUsage, startFailureMessage)');
    expect(result.out).toContain('removed internal/webhook/admission.ts: its code is in kubeforge/runtime (CustomDefaulter, CustomValidator)');
    expect(result.out).toContain('updated internal/webhook/v1/frigate_webhook.ts: imports from kubeforge/runtime instead of a removed scaffold file');
    // cmd/ is scaffold-owned: its two entry points are the current scaffold's (the previous ones imported ./flags.js);
    // so are the Makefile (the previous one ran kubeforge, tsc, eslint and prettier through npx) and
    // eslint.config.mjs (the previous one did not name its tsconfigRootDir)
    expect(result.out.split('\n').filter((line) => line.startsWith('replaced '))).toEqual([
      "replaced Makefile with the current scaffold's (your changes to it are not kept; compare with git)",
      "replaced cmd/main.ts with the current scaffold's (your changes to it are not kept; compare with git)",
      "replaced cmd/run-local.ts with the current scaffold's (your changes to it are not kept; compare with git)",
      "replaced eslint.config.mjs with the current scaffold's (your changes to it are not kept; compare with git)",
    ]);
    expect(read(project.root, 'eslint.config.mjs')).toContain('tsconfigRootDir: import.meta.dirname');
    expect(readdirSync(join(project.root, 'cmd')).sort()).toEqual(['main.ts', 'run-local.ts']);
    expect(read(project.root, 'cmd/main.ts')).toContain("parseManagerFlags(process.argv.slice(2), { leaderElectionId: 'widget-leader.example.com' })");
    expect(read(project.root, 'cmd/main.ts')).toContain('setupWebhooks(mgr);');
    expect(read(project.root, 'cmd/run-local.ts')).toContain("import { runLocal } from 'kubeforge/testing';");
    expect(read(project.root, 'cmd/run-local.ts')).toContain("if (process.env.ENABLE_WEBHOOKS !== 'false') setupWebhooks(mgr);");
    expect(readdirSync(join(project.root, 'internal/webhook')).sort()).toEqual(['index.ts', 'v1']);
  });

  it("keeps the user's files, the webhook logic with its import pointed at kubeforge/runtime, and the CRD follows the types", () => {
    for (const [path, text] of before) expect({ path, same: read(project.root, path) === text }).toEqual({ path, same: true });
    const webhook = read(project.root, 'internal/webhook/v1/frigate_webhook.ts');
    expect(webhook).toContain("throw new Error('a frigate carries at most 300 sailors')");
    expect(webhook).toContain("import type { CustomDefaulter, CustomValidator } from 'kubeforge/runtime';");
    expect(webhook).not.toContain('admission.js');
    expect(read(project.root, 'config/crd/bases/ship.example.com_frigates.yaml')).toContain('crew:');
    expect(existsSync(join(project.root, 'node_modules/kubeforge'))).toBe(true);
  });

  it('make test passes in the re-scaffolded project', async () => {
    const run = await runInProject('make', ['test'], project.root);
    expect({ code: run.code, output: run.code === 0 ? '' : run.output }).toEqual({ code: 0, output: '' });
    expect(run.output).toMatch(/crew\.test\.ts/);
  }, 240_000);

  it('a second run changes nothing', async () => {
    const hash = treeHash(project.root);
    const again = await alphaGenerate(project.root);
    expect(again).toMatchObject({ code: 0, err: '' });
    expect(again.out).not.toContain('removed ');
    expect(again.out).not.toContain('replaced ');
    expect(treeHash(project.root)).toBe(hash);
  }, 120_000);
});

describe('kubeforge alpha generate --output-dir and bad input', () => {
  const input = tempProject('widget');
  const output = tempProject('widget-next');
  afterAll(() => {
    input.remove();
    output.remove();
  });

  it('writes the result to --output-dir and leaves the project as it was', async () => {
    cpSync(FIXTURE, input.root, { recursive: true });
    const hash = treeHash(input.root);
    const result = await alphaGenerate(input.root, join(output.root, 'out'));
    expect(result).toMatchObject({ code: 0, err: '' });
    expect(treeHash(input.root)).toBe(hash);
    expect(existsSync(join(input.root, 'cmd/flags.ts'))).toBe(true);
    expect(readdirSync(join(output.root, 'out/cmd')).sort()).toEqual(['main.ts', 'run-local.ts']);
    expect(read(join(output.root, 'out'), 'PROJECT')).toBe(read(input.root, 'PROJECT'));
  }, 120_000);

  it('refuses a folder without PROJECT and a non-empty --output-dir, writing nothing', async () => {
    const empty = await alphaGenerate(output.root);
    expect(empty.code).toBe(1);
    expect(empty.err).toBe(`kubeforge alpha generate: --input-dir: no PROJECT in ${output.root} (the folder of a project made by kubeforge init)`);
    const hash = treeHash(output.root);
    const busy = await alphaGenerate(input.root, output.root);
    expect(busy.code).toBe(1);
    expect(busy.err).toBe(`kubeforge alpha generate: --output-dir: ${output.root} is not empty; nothing was written`);
    expect(treeHash(output.root)).toBe(hash);
  });
});
