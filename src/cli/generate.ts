/**
 * `kubeforge generate`: writes `zz_generated.deepcopy.ts` next to each api folder's types (controller-gen's
 * `object` generator, as kubebuilder's `make generate` runs it), and `zz_generated.applyconfigurations.ts`
 * in the folders that ask with `+kubebuilder:ac:generate=true` (controller-gen's `applyconfiguration`
 * generator, opt-in as there). `planGenerate` is the same work without the printing, for the demo and benchmarks.
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { loadDeepCopyModules, runGeneratorCommand, type GeneratorRunResult } from './generator-run.js';
import { projectPaths } from './project-paths.js';
import { splitWarnings } from '../markers/types.js';

export interface GenerateOptions {
  root: string;
  /** Folders with API types (kubebuilder `paths=` style: `api/...` or `api`); default `api`. */
  paths?: string[];
  check?: boolean;
  /** `--strict-markers`: markers controller-gen ignores (warnings otherwise) are errors. */
  strictMarkers?: boolean;
}

/** Reads the API types and plans every deep-copy file; writes nothing. */
export async function planGenerate(options: GenerateOptions): Promise<GeneratorRunResult> {
  // Loaded here, not at the top, so `kubeforge --help` and other commands do not pay for the TypeScript parser.
  const { loadApiProject, planDeepCopyFiles, planApplyConfigFiles } = await loadDeepCopyModules();
  const root = resolve(options.root);
  const loaded = await loadApiProject({ root, apiPaths: projectPaths(options.paths, 'api') });
  const { errors: diagnostics, warnings } = splitWarnings(loaded.diagnostics, options.strictMarkers ?? false);
  const files = diagnostics.length > 0 ? [] : [...planDeepCopyFiles(loaded.model), ...planApplyConfigFiles(loaded.model)];
  return { root, command: 'generate', files, diagnostics, warnings, check: options.check ?? false };
}

export function register(program: Command): void {
  program
    .command('generate')
    .description(
      'write api/<version>/zz_generated.deepcopy.ts: typed deepCopy<Type>() helpers for every API type; and zz_generated.applyconfigurations.ts (typed server-side apply configurations) where groupversion_info.ts has +kubebuilder:ac:generate=true',
    )
    .option('--root <dir>', 'project root', '.')
    .option('--paths <paths...>', 'folders with the API types (kubebuilder style, e.g. api/...)')
    .option('--check', 'write nothing; exit 1 when a generated file is stale or missing')
    .option('--strict-markers', 'make the warnings about markers controller-gen ignores (unknown names, stray text) errors')
    .action(async (flags: { root: string; paths?: string[]; check?: boolean; strictMarkers?: boolean }) => {
      process.exitCode = await runGeneratorCommand('generate', flags.root, () =>
        planGenerate({ root: flags.root, paths: flags.paths, check: flags.check, strictMarkers: flags.strictMarkers }),
      );
    });
}
