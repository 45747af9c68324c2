/**
 * kubebuilder's deploy-image/v1-alpha plugin for `kubeforge create api --plugins deploy-image/v1-alpha`:
 * the kind and its controller are made to deploy and manage one container image (the Operand) — types with
 * `size` (and `containerPort`), a controller that owns a Deployment of the image with a restricted security
 * context, status conditions, a finalizer and an Event, its test, a sample — and the image goes into the
 * manager's environment (config/manager/manager.yaml) and PROJECT. Its flags are checked here, naming the
 * flag, before anything is planned.
 */
import { ScaffoldInputError } from './names.js';
import type { ScaffoldPlan } from './plan.js';
import type { ProjectConfig } from './project-file.js';
import { DEPLOY_IMAGE_PLUGIN, type DeployImageFlags } from './plugins.js';
import { render } from './render.js';
import type { ResourceNames } from './resource-layout.js';

export interface DeployImageSettings {
  image: string;
  /** The container command, one element per comma-separated part of --image-container-command. */
  command: string[];
  port?: number;
  runAsUser?: number;
  /** The flags as given, recorded in PROJECT as kubebuilder does. */
  given: DeployImageFlags;
}

/** The templates the plugin renders instead of create api's own. */
export const DEPLOY_IMAGE_TEMPLATES = {
  types: 'deploy-image/types.ts',
  sample: 'deploy-image/sample.yaml',
  controller: 'deploy-image/controller.ts',
  controllerTest: 'deploy-image/controller.test.ts',
} as const;

const MANAGER_YAML = 'config/manager/manager.yaml';

/** An image reference: [registry[:port]/]path[:tag][@sha256:digest], as a container runtime reads it. */
const IMAGE_REFERENCE = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$/;

/** Checks the plugin's flags and what create api was asked (the plugin makes namespaced kinds with a controller). */
export function checkDeployImageFlags(flags: DeployImageFlags, base: { resource?: boolean; controller?: boolean; namespaced?: boolean }): DeployImageSettings {
  if (base.resource === false) throw new ScaffoldInputError('--resource', 'false', 'the deploy-image/v1-alpha plugin always scaffolds the API types (they hold the size of the Deployment)');
  if (base.controller === false) throw new ScaffoldInputError('--controller', 'false', 'the deploy-image/v1-alpha plugin always scaffolds the controller (it deploys the image)');
  if (base.namespaced === false) {
    throw new ScaffoldInputError('--namespaced', 'false', 'the deploy-image/v1-alpha plugin deploys the image into the namespace of each object, so its kind must be namespaced');
  }
  const image = flags.image;
  if (image === undefined || image.trim() === '') {
    throw new ScaffoldInputError('--image', image ?? '', 'required with --plugins deploy-image/v1-alpha: the image the controller deploys and manages (e.g. memcached:1.6.26-alpine)');
  }
  if (!IMAGE_REFERENCE.test(image) || image.length > 255) {
    throw new ScaffoldInputError('--image', image, 'must be a container image reference such as memcached:1.6.26-alpine or registry.example.com/team/image:1.0');
  }
  const settings: DeployImageSettings = { image, command: [], given: flags };
  if (flags.imageContainerCommand !== undefined) {
    const parts = flags.imageContainerCommand.split(',').map((part) => part.trim());
    if (parts.some((part) => part === '')) {
      throw new ScaffoldInputError('--image-container-command', flags.imageContainerCommand, 'has an empty part: the command is comma-separated, e.g. "memcached,--memory-limit=64,-o,modern,-v"');
    }
    settings.command = parts;
  }
  if (flags.imageContainerPort !== undefined) {
    const port = /^[0-9]+$/.test(flags.imageContainerPort) ? Number(flags.imageContainerPort) : NaN;
    if (!(port >= 1 && port <= 65535)) throw new ScaffoldInputError('--image-container-port', flags.imageContainerPort, 'must be a port number from 1 to 65535');
    settings.port = port;
  }
  if (flags.runAsUser !== undefined) {
    const user = /^[0-9]+$/.test(flags.runAsUser) ? Number(flags.runAsUser) : NaN;
    if (!(user >= 0 && user <= 2147483647)) throw new ScaffoldInputError('--run-as-user', flags.runAsUser, 'must be a user ID: a whole number from 0 to 2147483647');
    settings.runAsUser = user;
  }
  return settings;
}

/** A TypeScript string literal in single quotes. */
function quoted(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The values the plugin's templates use beside create api's. */
export function deployImageValues(names: ResourceNames, settings: DeployImageSettings): Record<string, unknown> {
  return {
    envVar: imageEnvVar(names),
    finalizer: `${names.qualifiedGroup}/finalizer`,
    containerName: names.lowerKind,
    command: settings.command.map(quoted).join(', '),
    hasPort: settings.port !== undefined,
    port: settings.port ?? '',
    runAsUser: settings.runAsUser === undefined ? '' : String(settings.runAsUser),
  };
}

/** `MEMCACHED_IMAGE`: the manager's environment variable holding the Operand image. */
export function imageEnvVar(names: ResourceNames): string {
  return `${names.kind.toUpperCase()}_IMAGE`;
}

/** The plugin's own files and edits: the shared condition reasons and the image in the manager's environment. */
export function planDeployImageFiles(plan: ScaffoldPlan, names: ResourceNames, values: object, settings: DeployImageSettings): void {
  plan.createIfMissing(`${names.controllerDir}/conditions.ts`, render('deploy-image/conditions.ts', values));
  const manager = plan.read(MANAGER_YAML);
  if (manager === undefined) {
    plan.conflict(`${MANAGER_YAML} is missing (it should have been made by \`kubeforge init\`); the plugin puts the ${imageEnvVar(names)} environment variable there`);
    return;
  }
  const updated = withImageEnv(manager, imageEnvVar(names), settings.image);
  if (updated === undefined) plan.conflict(`${MANAGER_YAML}: no manager container (a "name: manager" line) to give the ${imageEnvVar(names)} environment variable`);
  else plan.update(MANAGER_YAML, updated);
}

/**
 * The manager.yaml text with `name: value` in the manager container's `env:` (made after `name: manager`
 * when missing, as kubebuilder does); a variable already there gets the new value.
 */
export function withImageEnv(text: string, name: string, value: string): string | undefined {
  const lines = text.split('\n');
  const at = lines.findIndex((line) => /^\s+name: manager\s*$/.test(line));
  if (at < 0) return undefined;
  const indent = /^\s*/.exec(lines[at]!)![0];
  const existing = lines.findIndex((line) => line === `${indent}- name: ${name}`);
  if (existing >= 0 && lines[existing + 1]?.startsWith(`${indent}  value:`)) {
    lines[existing + 1] = `${indent}  value: ${value}`;
    return lines.join('\n');
  }
  const entry = [`${indent}- name: ${name}`, `${indent}  value: ${value}`];
  const env = lines.findIndex((line) => line === `${indent}env:`);
  if (env >= 0) lines.splice(env + 1, 0, ...entry);
  else lines.splice(at + 1, 0, `${indent}env:`, ...entry);
  return lines.join('\n');
}

/** PROJECT's `plugins` with this resource recorded under the plugin's key (kubebuilder's per-plugin config). */
export function withDeployImageConfig(config: ProjectConfig, names: ResourceNames, domain: string, settings: DeployImageSettings): NonNullable<ProjectConfig['plugins']> {
  const plugins = { ...(config.plugins ?? {}) };
  const others = (plugins[DEPLOY_IMAGE_PLUGIN]?.resources ?? []).filter((r) => !(r.group === names.group && r.version === names.version && r.kind === names.kind));
  const { given } = settings;
  const options = {
    ...(given.imageContainerCommand !== undefined ? { containerCommand: given.imageContainerCommand } : {}),
    ...(given.imageContainerPort !== undefined ? { containerPort: given.imageContainerPort } : {}),
    image: settings.image,
    ...(given.runAsUser !== undefined ? { runAsUser: given.runAsUser } : {}),
  };
  plugins[DEPLOY_IMAGE_PLUGIN] = { resources: [...others, { domain, group: names.group, kind: names.kind, options, version: names.version }] };
  return plugins;
}
