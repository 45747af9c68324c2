/**
 * `kubeforge alpha generate` (kubebuilder's `alpha generate`): re-scaffolds a project from its PROJECT file
 * with this kubeforge's templates — init, each API, each webhook — in a fresh folder, carries the user's
 * files over (src/scaffold/carry-over.ts), runs manifests and generate, and writes the result to
 * --output-dir or, by default, over the project in place (node_modules, dist, .git and .kubeforge kept).
 * So a project made by an older kubeforge follows its upgrades.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { BOILERPLATE_PATH } from '../scaffold/boilerplate.js';
import { carryOver, RETIRED_SCAFFOLD_FILES, type ProjectFiles } from '../scaffold/carry-over.js';
import { planInit, type License } from '../scaffold/init-plan.js';
import { kubeforgeDependency } from '../scaffold/kubeforge-dependency.js';
import { parseProjectFile, PROJECT_PATH, type ProjectConfig, type ProjectResource } from '../scaffold/project-file.js';
import { runPlan } from '../scaffold/run-plan.js';
import { finishGeneratorRun, processOutput, type RunOutput } from './generator-run.js';
import { runCreateApi, runCreateWebhook } from './create.js';
import { planGenerate } from './generate.js';
import { planManifests } from './manifests.js';

export interface AlphaGenerateFlags {
  /** The project to re-scaffold (the folder with PROJECT). */
  inputDir: string;
  /** Where to write the result; default: over the input project. */
  outputDir?: string;
}

/** Folders that are not the project's sources: never read, and kept as they are when writing in place. */
const KEPT_FOLDERS = new Set(['node_modules', 'dist', '.git', '.kubeforge']);

function readProjectFiles(root: string): ProjectFiles {
  const files: ProjectFiles = new Map();
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      if (dir === root && KEPT_FOLDERS.has(entry)) continue;
      const abs = join(dir, entry);
      if (statSync(abs).isDirectory()) visit(abs);
      else files.set(relative(root, abs).split('\\').join('/'), readFileSync(abs));
    }
  };
  visit(root);
  return files;
}

/** The license, owner and year of the project's header (hack/boilerplate.ts.txt), so made files keep it. */
function boilerplateSettings(old: ProjectFiles): { license: License; owner?: string; year?: number } {
  const text = old.get(BOILERPLATE_PATH)?.toString('utf8');
  if (text === undefined) return { license: 'none' };
  const match = /Copyright (\d{4}) (.+)\.\s*$/m.exec(text);
  return { license: 'apache2', ...(match ? { year: Number(match[1]), owner: match[2] } : {}) };
}

/** The deploy-image plugin's recorded options for a resource, as `create api` flags. */
function pluginFlags(config: ProjectConfig, resource: ProjectResource): Record<string, string> {
  const recorded = config.plugins?.['deploy-image.go.kubebuilder.io/v1-alpha']?.resources?.find((r) => r.group === resource.group && r.version === resource.version && r.kind === resource.kind);
  if (!recorded) return {};
  const options = recorded.options ?? {};
  const flags: Record<string, string> = { plugins: 'deploy-image/v1-alpha' };
  for (const [option, flag] of [['image', 'image'], ['containerCommand', 'imageContainerCommand'], ['containerPort', 'imageContainerPort'], ['runAsUser', 'runAsUser']] as const) {
    if (options[option] !== undefined) flags[flag] = options[option];
  }
  return flags;
}

/** A step's output, shown only when it fails. */
function quietOutput(): { output: RunOutput; text(): string } {
  const lines: string[] = [];
  return { output: { out: (l) => lines.push(l), err: (l) => lines.push(l) }, text: () => lines.join('\n') };
}

/** init, create api and create webhook as PROJECT records them, into `root`; throws naming the failed step. */
/**
 * package.json's kubeforge dependency: a local `file:`/`link:` spec the project chose stays (a checkout or a
 * tarball being developed against); otherwise the one `init` writes today for the target folder (the kubeforge
 * running this command: its templates need its runtime).
 */
function dependencySpec(old: ProjectFiles, target: string): string {
  const oldSpec = old.get('package.json') ? (JSON.parse(old.get('package.json')!.toString('utf8')) as { dependencies?: Record<string, string> }).dependencies?.kubeforge : undefined;
  return oldSpec !== undefined && /^(file|link):/.test(oldSpec) ? oldSpec : kubeforgeDependency(target);
}

async function rescaffold(root: string, config: ProjectConfig, old: ProjectFiles, kubeforgeSpec: string): Promise<void> {
  const fail = (step: string, text: string): never => {
    throw new Error(`re-scaffolding failed at \`kubeforge ${step}\`:\n${text}`);
  };
  const init = quietOutput();
  const initRun = runPlan(
    'init',
    () => planInit({ root, domain: config.domain, repo: config.repo, projectName: config.projectName, multigroup: config.multigroup, kubeforgeDependency: kubeforgeSpec, ...boilerplateSettings(old) }),
    false,
    init.output,
  );
  if (initRun.code !== 0) fail('init', init.text());
  const resources = config.resources ?? [];
  for (const resource of resources) {
    const step = quietOutput();
    const flags = {
      root,
      group: resource.group,
      version: resource.version,
      kind: resource.kind,
      resource: resource.api !== undefined,
      controller: resource.controller ?? false,
      ...(resource.api ? { namespaced: resource.api.namespaced } : {}),
      ...(resource.plural ? { plural: resource.plural } : {}),
      ...pluginFlags(config, resource),
      make: false,
    };
    if ((await runCreateApi(flags, step.output)) !== 0) fail(`create api --group ${resource.group} --version ${resource.version} --kind ${resource.kind}`, step.text());
  }
  // Webhooks once every API exists (a conversion webhook's spokes are other versions); admission first, as made.
  for (const resource of resources) {
    const webhooks = resource.webhooks;
    if (!webhooks) continue;
    const gvk = { root, group: resource.group, version: resource.version, kind: resource.kind, make: false };
    const runs = [
      ...(webhooks.defaulting || webhooks.validation ? [{ ...gvk, defaulting: webhooks.defaulting ?? false, programmaticValidation: webhooks.validation ?? false }] : []),
      ...(webhooks.conversion ? [{ ...gvk, conversion: true, spoke: webhooks.spoke ?? [] }] : []),
    ];
    for (const run of runs) {
      const step = quietOutput();
      if ((await runCreateWebhook(run, step.output)) !== 0) fail(`create webhook --group ${resource.group} --version ${resource.version} --kind ${resource.kind}`, step.text());
    }
  }
}

/** Writes `files` under `root`; in place, first removes the project's files the result no longer has. */
function writeProject(root: string, files: ProjectFiles, previous: ProjectFiles | undefined): void {
  for (const path of previous?.keys() ?? []) if (!files.has(path)) rmSync(join(root, path));
  for (const [path, content] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

export async function runAlphaGenerate(flags: AlphaGenerateFlags, output: RunOutput = processOutput): Promise<number> {
  const input = resolve(flags.inputDir);
  const projectFile = join(input, PROJECT_PATH);
  if (!existsSync(projectFile)) {
    output.err(`kubeforge alpha generate: --input-dir: no ${PROJECT_PATH} in ${input} (the folder of a project made by kubeforge init)`);
    return 1;
  }
  const target = flags.outputDir === undefined ? input : resolve(flags.outputDir);
  if (target !== input && existsSync(target) && readdirSync(target).length > 0) {
    output.err(`kubeforge alpha generate: --output-dir: ${target} is not empty; nothing was written`);
    return 1;
  }
  let config: ProjectConfig;
  try {
    config = parseProjectFile(readFileSync(projectFile, 'utf8'));
  } catch (err) {
    output.err(`kubeforge alpha generate: ${projectFile.slice(0, -PROJECT_PATH.length)}${(err as Error).message}`);
    return 1;
  }
  const old = readProjectFiles(input);
  // In a fresh folder named as the project (init's default project name comes from the folder).
  const work = mkdtempSync(join(tmpdir(), 'kubeforge-alpha-generate-'));
  const fresh = join(work, config.projectName);
  mkdirSync(fresh);
  try {
    await rescaffold(fresh, config, old, dependencySpec(old, target));
    const result = carryOver(old, readProjectFiles(fresh));
    // The generated outputs follow the carried types and markers (make manifests generate).
    rmSync(fresh, { recursive: true });
    writeProject(fresh, result.files, undefined);
    for (const [step, plan] of [['manifests', () => planManifests({ root: fresh })], ['generate', () => planGenerate({ root: fresh })]] as const) {
      const run = quietOutput();
      if ((await finishGeneratorRun(await plan(), run.output)) !== 0) throw new Error(`\`kubeforge ${step}\` on the re-scaffolded project failed:\n${run.text()}`);
    }
    const made = readProjectFiles(fresh);
    writeProject(target, made, target === input ? old : undefined);
    report(output, target, config, result, made.size);
    return 0;
  } catch (err) {
    output.err(`kubeforge alpha generate: ${(err as Error).message}\nnothing was written to ${target}`);
    return 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function report(output: RunOutput, target: string, config: ProjectConfig, result: ReturnType<typeof carryOver>, count: number): void {
  const apis = (config.resources ?? []).length;
  output.out(`re-scaffolded ${config.projectName} (${apis} API${apis === 1 ? '' : 's'} from ${PROJECT_PATH}) with this kubeforge's templates into ${target}: ${count} files`);
  output.out(`kept ${result.carried.length} of your files (types, controllers, webhooks, tests, samples, generated outputs, files the scaffold does not make)`);
  for (const path of result.retired) output.out(`removed ${path}: its code is in ${RETIRED_SCAFFOLD_FILES.get(path)}`);
  for (const path of result.rewritten) output.out(`updated ${path}: imports from kubeforge/runtime instead of a removed scaffold file`);
  for (const path of result.added) output.out(`added ${path}`);
  for (const path of result.replaced) output.out(`replaced ${path} with the current scaffold's (your changes to it are not kept; compare with git)`);
  output.out('Next: npm install, then make test');
}

export function register(program: Command): void {
  const alpha = program.command('alpha').description('alpha-stage commands');
  alpha
    .command('generate')
    .description("re-scaffold the project from its PROJECT file with this kubeforge's templates, keeping your files (kubebuilder's alpha generate)")
    .option('--input-dir <dir>', 'the project to re-scaffold (the folder with PROJECT)', '.')
    .option('--output-dir <dir>', 'write the result here (an empty or new folder) instead of over the project')
    .action(async (flags: AlphaGenerateFlags) => {
      process.exitCode = await runAlphaGenerate(flags);
    });
}
