/**
 * Where the files of one resource (group/version/kind) live in a made project, single-group
 * (`api/<v>`, kubebuilder's default) or multigroup (`api/<group>/<v>`), and the names derived from it.
 */
import { posix } from 'node:path';
import { pluralOf, qualifiedGroup } from './names.js';

export interface ResourceNames {
  group: string;
  version: string;
  kind: string;
  plural: string;
  /** True when --plural differs from the generator's default (then a `resource:path` marker is needed). */
  customPlural: boolean;
  qualifiedGroup: string;
  apiVersion: string;
  /** `cronjob` — file names and controller names. */
  fileStem: string;
  lowerKind: string;
  apiDir: string;
  controllerDir: string;
  webhookDir: string;
  /** Per-kind role names and file prefix in config/rbac. */
  roleStem: string;
  roleFileStem: string;
  controllerName: string;
  /** `setupCronJobController`, or with the group in multigroup projects (two groups may share a kind). */
  setupAlias: string;
}

export function pascalCase(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((p) => p[0]!.toUpperCase() + p.slice(1))
    .join('');
}

/**
 * Whether an API PROJECT records lives in the multigroup layout: told by its path (an API made before
 * `kubeforge edit --multigroup` stays in api/<version>, as kubebuilder moves nothing), else the project's setting.
 */
export function inMultigroupLayout(resource: { path?: string; group: string; version: string } | undefined, projectMultigroup: boolean): boolean {
  const path = resource?.path;
  if (path === undefined) return projectMultigroup;
  if (path === `api/${resource!.group}/${resource!.version}` || path.endsWith(`/api/${resource!.group}/${resource!.version}`)) return true;
  if (path === `api/${resource!.version}` || path.endsWith(`/api/${resource!.version}`)) return false;
  return projectMultigroup;
}

export function resourceNames(input: { group: string; version: string; kind: string; plural?: string; domain: string; multigroup: boolean }): ResourceNames {
  const { group, version, kind, multigroup } = input;
  const defaultPlural = pluralOf(kind);
  const plural = input.plural ?? defaultPlural;
  const lowerKind = kind.toLowerCase();
  const qg = qualifiedGroup(group, input.domain);
  return {
    group,
    version,
    kind,
    plural,
    customPlural: plural !== defaultPlural,
    qualifiedGroup: qg,
    apiVersion: `${qg}/${version}`,
    fileStem: lowerKind,
    lowerKind,
    apiDir: multigroup ? `api/${group}/${version}` : `api/${version}`,
    controllerDir: multigroup ? `internal/controller/${group}` : 'internal/controller',
    webhookDir: multigroup ? `internal/webhook/${group}/${version}` : `internal/webhook/${version}`,
    roleStem: multigroup ? `${group}-${lowerKind}` : lowerKind,
    roleFileStem: multigroup ? `${group}_${lowerKind}` : lowerKind,
    controllerName: multigroup ? `${group}-${lowerKind}` : lowerKind,
    setupAlias: multigroup ? `setup${pascalCase(group)}${kind}Controller` : `setup${kind}Controller`,
  };
}

/** A relative ESM import specifier from a file in `fromDir` to `target` (a `.ts` path → `.js`). */
export function importPath(fromDir: string, target: string): string {
  const rel = posix.relative(fromDir, target).replace(/\.ts$/, '.js');
  return rel.startsWith('.') ? rel : `./${rel}`;
}
