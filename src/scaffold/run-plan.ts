/**
 * The common ending of the scaffold commands: print the plan (`--dry-run`) or write it and say what was
 * written; turn bad input and conflicts into clear error lines (one per bad flag) and exit status 1, with
 * nothing written.
 */
import type { RunOutput } from '../cli/generator-run.js';
import type { ScaffoldPlan } from './plan.js';
import { ScaffoldInputErrors } from './names.js';

/** Builds the plan (which checks every input), then prints or writes it; returns the exit status and the plan. */
export function runPlan(command: string, makePlan: () => ScaffoldPlan, dryRun: boolean, output: RunOutput): { code: number; plan?: ScaffoldPlan } {
  let plan: ScaffoldPlan;
  try {
    plan = makePlan();
    plan.assertNoConflicts();
  } catch (err) {
    // Several bad flags: one line each, so every one is fixed in one go.
    if (err instanceof ScaffoldInputErrors) {
      for (const error of err.errors) output.err(`kubeforge ${command}: ${error.message}`);
      return { code: 1 };
    }
    // ScaffoldInputError (a bad flag), ScaffoldConflictError (files in the way) and project errors alike.
    if (err instanceof Error) {
      output.err(`kubeforge ${command}: ${err.message}`);
      return { code: 1 };
    }
    throw err;
  }
  if (dryRun) {
    output.out(`kubeforge ${command} --dry-run: would write ${plan.list().length} file${plan.list().length === 1 ? '' : 's'} (nothing written):`);
    for (const line of plan.describe()) output.out(`  ${line}`);
    return { code: 0, plan };
  }
  plan.write();
  for (const line of plan.describe()) output.out(line);
  return { code: 0, plan };
}
