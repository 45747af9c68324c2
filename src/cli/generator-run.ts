/**
 * The common ending of `kubeforge manifests` and `kubeforge generate`: print every diagnostic of the run
 * as `file:line:col: message` (paths relative to the project root) and write nothing when there are any;
 * otherwise write the planned files (printing what was written), or with `--check` only compare them.
 */
import { isAbsolute, relative, sep } from 'node:path';
import { formatDiagnostic, type Diagnostic } from '../markers/types.js';
import { importInTurn } from '../reader/import-in-turn.js';
import { checkPlannedFiles, writePlannedFiles, type PlannedFile } from './output-files.js';
import { projectRootProblem } from './project-paths.js';
import { findProjectRoot, noProjectMessage } from '../scaffold/project-root.js';

/** The generator's parts (reader, CRD, RBAC, webhook and deep-copy generators). */
export type GeneratorModules = typeof import('./generator-modules.js');

/** The parts `kubeforge generate` runs (a subset of GeneratorModules). */
export type DeepCopyModules = typeof import('./deepcopy-modules.js');

let generatorModules: Promise<GeneratorModules> | undefined;
let deepCopyModules: Promise<DeepCopyModules> | undefined;

/** Loads the generator's parts once, on first use; every caller shares the one import. */
export function loadGeneratorModules(): Promise<GeneratorModules> {
  generatorModules ??= importInTurn(() => import('./generator-modules.js'));
  return generatorModules;
}

/** Loads what `generate` runs once, on first use (all the generator's parts when they are loaded or loading). */
export function loadDeepCopyModules(): Promise<DeepCopyModules> {
  if (generatorModules !== undefined) return generatorModules;
  deepCopyModules ??= importInTurn(() => import('./deepcopy-modules.js'));
  return deepCopyModules;
}

/** Where a run prints; the process streams unless a caller (a test, the demo) wants the text. */
export interface RunOutput {
  out(line: string): void;
  err(line: string): void;
}

export const processOutput: RunOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** A diagnostic with its file shown relative to the root (as the reader and scanners usually give it already). */
export function relativeDiagnostic(root: string, diagnostic: Diagnostic): Diagnostic {
  const file = diagnostic.position.file;
  if (!isAbsolute(file)) return diagnostic;
  const rel = relative(root, file);
  if (rel.startsWith('..')) return diagnostic;
  return { ...diagnostic, position: { ...diagnostic.position, file: rel.split(sep).join('/') } };
}

/** Diagnostics in file, line, column order, each printed once. */
export function orderedDiagnosticLines(root: string, diagnostics: Diagnostic[]): string[] {
  const sorted = diagnostics
    .map((d) => relativeDiagnostic(root, d))
    .sort((a, b) => {
      const pa = a.position;
      const pb = b.position;
      if (pa.file !== pb.file) return pa.file < pb.file ? -1 : 1;
      return pa.line - pb.line || pa.column - pb.column;
    });
  return [...new Set(sorted.map(formatDiagnostic))];
}

export interface GeneratorRunResult {
  root: string;
  command: string;
  files: PlannedFile[];
  diagnostics: Diagnostic[];
  /** Printed first, as `file:line:col: warning: …`; they change neither the exit status nor what is written. */
  warnings?: Diagnostic[];
  check: boolean;
}

/**
 * Runs a planned generator command for the CLI: refuses a bad --root or a folder outside any project (no
 * PROJECT in it or its parents), then prints, writes or checks.
 */
export async function runGeneratorCommand(
  command: string,
  root: string,
  plan: () => Promise<GeneratorRunResult>,
  output: RunOutput = processOutput,
): Promise<number> {
  const problem = projectRootProblem(root) ?? (findProjectRoot(root) === undefined ? noProjectMessage(root) : undefined);
  if (problem !== undefined) {
    output.err(`kubeforge ${command}: ${problem}`);
    return 1;
  }
  return finishGeneratorRun(await plan(), output);
}

/** Prints, writes or checks; resolves to the exit status (0 or 1). */
export async function finishGeneratorRun(run: GeneratorRunResult, output: RunOutput = processOutput): Promise<number> {
  for (const line of orderedDiagnosticLines(run.root, run.warnings ?? [])) output.err(line);
  if (run.diagnostics.length > 0) {
    const lines = orderedDiagnosticLines(run.root, run.diagnostics);
    for (const line of lines) output.err(line);
    output.err(`kubeforge ${run.command}: ${lines.length} error${lines.length === 1 ? '' : 's'}; no file was written`);
    return 1;
  }
  if (run.check) {
    const results = await checkPlannedFiles(run.root, run.files);
    const outdated = results.filter((r) => r.freshness !== 'fresh');
    for (const r of outdated) output.err(`${r.freshness === 'missing' ? 'missing' : 'stale'}: ${r.path}`);
    if (outdated.length > 0) {
      output.err(`kubeforge ${run.command} --check: ${outdated.length} generated file${outdated.length === 1 ? ' is' : 's are'} out of date; run \`kubeforge ${run.command}\``);
      return 1;
    }
    output.out(`kubeforge ${run.command} --check: ${results.length} generated file${results.length === 1 ? '' : 's'} up to date`);
    return 0;
  }
  const results = await writePlannedFiles(run.root, run.files);
  for (const r of results) if (r.outcome === 'written') output.out(`wrote ${r.path}`);
  if (results.length === 0) output.out(`kubeforge ${run.command}: nothing to generate`);
  return 0;
}
