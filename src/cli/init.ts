/**
 * `kubeforge init`: makes a new TypeScript operator project in the current folder (kubebuilder's go/v4
 * layout; see src/scaffold/init-plan.ts for what is made).
 */
import type { Command } from 'commander';
import { planInit, type License } from '../scaffold/init-plan.js';
import { runPlan } from '../scaffold/run-plan.js';
import { processOutput, type RunOutput } from './generator-run.js';

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
  if (code === 0 && !flags.dryRun) {
    output.out('Next: npm install, then `kubeforge create api --group <group> --version v1 --kind <Kind>`');
  }
  return code;
}

export function register(program: Command): void {
  program
    .command('init')
    .description('make a new operator project in the current folder (kubebuilder go/v4 layout, in TypeScript)')
    .requiredOption('--domain <domain>', 'domain of the API groups, e.g. example.com (groups become <group>.<domain>)')
    .requiredOption('--repo <name>', 'npm package name of the project (kubebuilder: the Go module path)')
    .option('--project-name <name>', 'project name: namespace <name>-system and resource prefix (default: the folder name)')
    .option('--owner <owner>', 'copyright owner in the license header')
    .option('--license <license>', 'license header of made files: apache2 or none', 'apache2')
    .option('--multigroup', 'lay APIs out as api/<group>/<version> (several API groups)')
    .option('--kubeforge-dependency <spec>', "package.json's kubeforge dependency, e.g. file:../kubeforge or file:kubeforge-0.1.0.tgz for development (default: ^<this version>, or $KUBEFORGE_DEPENDENCY)")
    .option('--root <dir>', 'project folder', '.')
    .option('--force', 'overwrite files that exist')
    .option('--dry-run', 'print the files that would be written, write nothing')
    .action((flags: InitFlags) => {
      process.exitCode = runInit(flags);
    });
}
