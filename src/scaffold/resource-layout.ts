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
