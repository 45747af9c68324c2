/**
 * `kubeforge init`: makes a new TypeScript operator project in the current folder (kubebuilder's go/v4
 * layout; see src/scaffold/init-plan.ts for what is made).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { planInit, type License } from '../scaffold/init-plan.js';
import { checkDomain, checkRepo, inputErrorsOf, packageNameOf } from '../scaffold/names.js';
import { runPlan } from '../scaffold/run-plan.js';
import { processOutput, type RunOutput } from './generator-run.js';
import { runNpmInstall } from './npm-install.js';
import { missingRequiredOptions, requiredOption } from './required-options.js';

export interface InitFlags {
  root: string;
  domain: string;
  repo: string;
  projectName?: string;
  owner?: string;
  license?: string;
  multigroup?: boolean;
  force?: boolean;
  dryRun?: boolean;
  /** Run `npm install` in the made project afterwards, showing npm's progress. */
  install?: boolean;
  kubeforgeDependency?: string;
}

export function runInit(flags: InitFlags, output: RunOutput = processOutput): number {
  const { code } = runPlan(
    'init',
    () =>
      planInit({
        root: flags.root,
        domain: flags.domain,
        repo: flags.repo,
        projectName: flags.projectName,
        owner: flags.owner,
        license: flags.license as License | undefined,
        multigroup: flags.multigroup,
        force: flags.force,
        kubeforgeDependency: flags.kubeforgeDependency,
      }),
    flags.dryRun ?? false,
    output,
  );
  if (code !== 0) return code;
  const packageName = packageNameOf(flags.repo);
  if (packageName !== flags.repo) {
    output.out(`--repo ${flags.repo} is a module path: the npm package is named "${packageName}" (package.json); PROJECT keeps repo: ${flags.repo}`);
  }
  if (!flags.dryRun && !flags.install) output.out('Next: npm install, then `kubeforge create api --group <group> --version v1 --kind <Kind>`');
  return code;
}

/** `init`, then with --install (and not --dry-run) `npm install` in the made project. */
export async function runInitAndInstall(flags: InitFlags, output: RunOutput = processOutput): Promise<number> {
  const code = runInit(flags, output);
  if (code !== 0 || !flags.install || flags.dryRun) return code;
  const installed = await runNpmInstall(resolve(flags.root), output);
  if (installed === 0) output.out('Next: `npx kubeforge create api --group <group> --version v1 --kind <Kind>`');
  return installed;
}

export function register(program: Command): void {
  const init = program.command('init').description('make a new operator project in the current folder (kubebuilder go/v4 layout, in TypeScript)');
  requiredOption(init, '--domain <domain>', 'domain of the API groups, e.g. example.com (groups become <group>.<domain>)', 'my.domain');
  requiredOption(init, '--repo <name>', 'npm package name of the project, or a module path as kubebuilder takes it (github.com/org/project → @org/project)', 'github.com/org/project');
  init
    .option('--project-name <name>', 'project name: namespace <name>-system and resource prefix (default: the folder name)')
    .option('--owner <owner>', 'copyright owner in the license header')
    .option('--license <license>', 'license header of made files: apache2 or none', 'apache2')
    .option('--multigroup', 'lay APIs out as api/<group>/<version> (several API groups)')
    .option('--kubeforge-dependency <spec>', "package.json's kubeforge dependency, e.g. file:../kubeforge or file:kubeforge-0.1.0.tgz for development (default: $KUBEFORGE_DEPENDENCY, else file:<checkout> when this kubeforge runs from a git checkout, else ^<this version>)")
    .option('--root <dir>', 'project folder', '.')
    .option('--force', 'overwrite files that exist')
    .option('--dry-run', 'print the files that would be written, write nothing')
    .option('--install', "run npm install in the new project afterwards, showing npm's progress")
    .action(async (flags: InitFlags) => {
      const missing = missingRequiredOptions(init);
      if (missing.length > 0) {
        // With the bad values of the options that were given, so one run shows every problem.
        const bad = inputErrorsOf([() => flags.domain !== undefined && checkDomain(flags.domain), () => flags.repo !== undefined && checkRepo(flags.repo)]);
        for (const message of [...missing, ...bad.map((e) => e.message)]) process.stderr.write(`kubeforge init: ${message}\n`);
        process.exitCode = 1;
        return;
      }
      process.exitCode = await runInitAndInstall(flags);
    });
}
