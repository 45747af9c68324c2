/**
 * `kubeforge create api` and `kubeforge create webhook`: add a kind (types, controller, test, sample,
 * roles) or its webhooks to a project made by `kubeforge init`, then run `manifests` and `generate` as
 * kubebuilder does. See src/scaffold/create-api-plan.ts and create-webhook-plan.ts for what is made.
 */
import type { Command } from 'commander';
import { planCreateApi } from '../scaffold/create-api-plan.js';
import { planCreateWebhook } from '../scaffold/create-webhook-plan.js';
import { runPlan } from '../scaffold/run-plan.js';
import { finishGeneratorRun, processOutput, type RunOutput } from './generator-run.js';
import { planManifests } from './manifests.js';
import { planGenerate } from './generate.js';
import { parseBool } from './boolean-flag.js';
import { missingRequiredOptions, requiredOption } from './required-options.js';
import { checkGroup, checkKind, checkVersion, inputErrorsOf } from '../scaffold/names.js';
import { findProjectRoot } from '../scaffold/project-root.js';

export interface CreateApiFlags {
  root: string;
  group: string;
  version: string;
  kind: string;
  resource?: boolean;
  controller?: boolean;
  namespaced?: boolean;
  plural?: string;
  multigroup?: boolean;
  force?: boolean;
  dryRun?: boolean;
  make?: boolean;
  /** Run `manifests` afterwards (default true; kubebuilder's --manifests). */
  manifests?: boolean;
  /** `--plugins deploy-image/v1-alpha` and that plugin's flags. */
  plugins?: string;
  image?: string;
  imageContainerCommand?: string;
  imageContainerPort?: string;
  runAsUser?: string;
}

export interface CreateWebhookFlags {
  root: string;
  group: string;
  version: string;
  kind: string;
  defaulting?: boolean;
  programmaticValidation?: boolean;
  conversion?: boolean;
  /** `--spoke v2,v3` (or repeated): the versions converting to and from the hub (--version). */
  spoke?: string[];
  force?: boolean;
  dryRun?: boolean;
  make?: boolean;
}

/** `make manifests generate`, in-process (`manifests: false` runs only generate). */
async function runGenerators(root: string, output: RunOutput, manifests = true): Promise<number> {
  if (manifests) {
    const code = await finishGeneratorRun(await planManifests({ root }), output);
    if (code !== 0) return code;
  }
  return finishGeneratorRun(await planGenerate({ root }), output);
}

export async function runCreateApi(flags: CreateApiFlags, output: RunOutput = processOutput): Promise<number> {
  const { code } = runPlan('create api', () => planCreateApi(flags).plan, flags.dryRun ?? false, output);
  if (code !== 0 || flags.dryRun || flags.make === false) return code;
  return runGenerators(flags.root, output, flags.manifests !== false);
}

export async function runCreateWebhook(flags: CreateWebhookFlags, output: RunOutput = processOutput): Promise<number> {
  const { code } = runPlan('create webhook', () => planCreateWebhook(flags), flags.dryRun ?? false, output);
  if (code !== 0 || flags.dryRun || flags.make === false) return code;
  return runGenerators(flags.root, output);
}

function gvkOptions(command: Command): Command {
  requiredOption(command, '--group <group>', 'API group, without the domain (e.g. batch)', 'batch');
  requiredOption(command, '--version <version>', 'API version (v1, v1alpha1, v2beta3…)', 'v1');
  requiredOption(command, '--kind <Kind>', 'kind, PascalCase (e.g. CronJob)', 'CronJob');
  return command
    .option('--root <dir>', 'project folder', '.')
    .option('--force', 'overwrite files that exist')
    .option('--dry-run', 'print the files that would be written or changed, write nothing')
    .option('--make [bool]', 'run manifests and generate afterwards (default true)', parseBool('--make'));
}

type GvkFlags = { root: string; group?: string; version?: string; kind?: string };

/**
 * Before a create command runs: every missing required option and every bad group/version/kind, all in one
 * report (true when something was reported); and --root moved up to the folder with PROJECT, as git finds .git.
 */
function refuseIncomplete(command: Command, name: string, flags: GvkFlags): boolean {
  const missing = missingRequiredOptions(command);
  if (missing.length > 0) {
    const bad = inputErrorsOf([
      () => flags.group !== undefined && checkGroup(flags.group),
      () => flags.version !== undefined && checkVersion(flags.version),
      () => flags.kind !== undefined && checkKind(flags.kind),
    ]);
    for (const message of [...missing, ...bad.map((e) => e.message)]) process.stderr.write(`kubeforge ${name}: ${message}\n`);
    process.exitCode = 1;
    return true;
  }
  flags.root = findProjectRoot(flags.root) ?? flags.root;
  return false;
}

export function register(program: Command): void {
  const create = program.command('create').description('add an API (kind, controller) or webhooks to the project');
  const api = create.command('api').description('add a kind: types, controller and its test, sample, RBAC roles');
  gvkOptions(api)
    .option('--resource [bool]', 'scaffold the API types (default true)', parseBool('--resource'))
    .option('--controller [bool]', 'scaffold the controller (default true; false when another version of the kind has one)', parseBool('--controller'))
    .option('--namespaced [bool]', 'namespaced kind (default true; false = cluster-scoped)', parseBool('--namespaced'))
    .option('--plural <plural>', 'resource name (default: the English plural of the kind, lower-cased)')
    .option('--multigroup', 'use the api/<group>/<version> layout (only before the first API)')
    .option('--manifests [bool]', 'run manifests afterwards (default true; --make=false skips manifests and generate)', parseBool('--manifests'))
    .option('--plugins <keys>', 'scaffold with a plugin: deploy-image/v1-alpha (a controller that deploys and manages an image)')
    .option('--image <image>', 'deploy-image: the Operand image the controller deploys (e.g. memcached:1.6.26-alpine); set in config/manager as <KIND>_IMAGE')
    .option('--image-container-command <command>', 'deploy-image: the container command, comma-separated (e.g. "memcached,--memory-limit=64,-o,modern,-v")')
    .option('--image-container-port <port>', 'deploy-image: the container port; adds spec.containerPort to the API (e.g. 11211)')
    .option('--run-as-user <uid>', 'deploy-image: the user ID the container runs as (securityContext.runAsUser)')
    .action(async (flags: CreateApiFlags) => {
      if (refuseIncomplete(api, 'create api', flags)) return;
      process.exitCode = await runCreateApi(flags);
    });
  const webhook = create.command('webhook').description('add admission (defaulting, validating) or conversion webhooks for a kind');
  gvkOptions(webhook)
    .option('--defaulting', 'a mutating webhook that sets defaults')
    .option('--programmatic-validation', 'a validating webhook for create, update and delete')
    .option('--conversion', 'a conversion webhook (the kind is served in several versions); --version is the hub')
    .option('--spoke <versions...>', 'with --conversion: the versions that convert to and from the hub (comma-separated or repeated)')
    .action(async (flags: CreateWebhookFlags) => {
      if (refuseIncomplete(webhook, 'create webhook', flags)) return;
      process.exitCode = await runCreateWebhook(flags);
    });
}
