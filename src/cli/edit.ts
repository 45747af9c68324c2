/**
 * `kubeforge edit`: changes an existing project's settings (kubebuilder's `edit`): `--multigroup[=true|false]`
 * and `--plugins`. See src/scaffold/edit-plan.ts for what changes.
 */
import type { Command } from 'commander';
import { planEdit } from '../scaffold/edit-plan.js';
import { runPlan } from '../scaffold/run-plan.js';
import { processOutput, type RunOutput } from './generator-run.js';
import { parseBool } from './boolean-flag.js';
import { findProjectRoot } from '../scaffold/project-root.js';

export interface EditFlags {
  root: string;
  multigroup?: boolean;
  plugins?: string;
  dryRun?: boolean;
}

export function runEdit(flags: EditFlags, output: RunOutput = processOutput): number {
  let notes: string[] = [];
  const { code } = runPlan(
    'edit',
    () => {
      const edit = planEdit(flags);
      notes = edit.notes;
      return edit.plan;
    },
    flags.dryRun ?? false,
    output,
  );
  if (code === 0) for (const note of notes) output.out(note);
  return code;
}

export function register(program: Command): void {
  program
    .command('edit')
    .description("change the project's settings in PROJECT (kubebuilder's edit): the multigroup layout")
    .option('--multigroup [bool]', 'new APIs in api/<group>/<version> (true) or api/<version> (false); existing APIs are not moved', parseBool('--multigroup'))
    .option('--plugins <keys>', `plugins to edit the project with (comma-separated; today only the base layout, kubeforge.io/ts/v1)`)
    .option('--root <dir>', 'project folder', '.')
    .option('--dry-run', 'print the files that would change, write nothing')
    .action((flags: EditFlags) => {
      process.exitCode = runEdit({ ...flags, root: findProjectRoot(flags.root) ?? flags.root });
    });
}
