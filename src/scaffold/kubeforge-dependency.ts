/**
 * How a made project depends on kubeforge and its tools: `^<version>` (what a registry install gives) by
 * default; `--kubeforge-dependency <spec>` or `KUBEFORGE_DEPENDENCY` for a file:/tarball spelling during
 * development; `file:<relative path>` for a project inside a kubeforge checkout (the reference operators in
 * examples/). The versions of typescript, jest, swc and the types packages are the ones this package itself
 * is built and tested with.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ScaffoldInputError } from './names.js';

/** This package's root folder (the folder with its package.json). */
export const KUBEFORGE_ROOT = fileURLToPath(new URL('../../', import.meta.url)).replace(/\/$/, '');

interface PackageJson {
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function ownPackageJson(): PackageJson {
  return JSON.parse(readFileSync(`${KUBEFORGE_ROOT}/package.json`, 'utf8')) as PackageJson;
}

/** A dependency spec npm can read: one word, no spaces or quotes (`^1.2.3`, `file:../kubeforge-1.2.3.tgz`). */
function checkSpec(source: string, spec: string): string {
  if (!/^[^\s"'\\]+$/.test(spec)) throw new ScaffoldInputError(source, spec, 'must be an npm dependency spec such as ^0.1.0, file:<folder> or file:<tarball>.tgz (no spaces or quotes)');
  return spec;
}

/**
 * The dependency spec for kubeforge, first of: the `--kubeforge-dependency` flag (`flag`); the
 * `KUBEFORGE_DEPENDENCY` variable; when this kubeforge runs from a git checkout (not from an installed
 * package), `file:` that checkout — relative for a project inside it (the reference operators in examples/,
 * which must install on any clone), absolute otherwise (a newcomer's `npm install -g .` from a clone: `^<version>`
 * would ask the registry for a version it may not have); `^<this version>` for an installed kubeforge, what a
 * registry install gives. `root` is kubeforge's own folder (for tests).
 */
export function kubeforgeDependency(projectRoot?: string, flag?: string, root: string = KUBEFORGE_ROOT): string {
  if (flag !== undefined) return checkSpec('--kubeforge-dependency', flag);
  const override = process.env.KUBEFORGE_DEPENDENCY;
  if (override) return checkSpec('KUBEFORGE_DEPENDENCY', override);
  if (existsSync(`${root}/.git`)) {
    const fromCheckout = projectRoot === undefined ? '..' : relative(root, projectRoot);
    const insideCheckout = fromCheckout !== '' && !fromCheckout.startsWith('..') && !isAbsolute(fromCheckout);
    return insideCheckout ? `file:${relative(projectRoot!, root)}` : `file:${root}`;
  }
  return `^${(JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as PackageJson).version}`;
}

export interface ToolVersions {
  kubernetesTypes: string;
  pino: string;
  yaml: string;
  typescript: string;
  jest: string;
  swcCore: string;
  swcJest: string;
  typesJest: string;
  typesNode: string;
  /** The made project's lint and format tools (make lint, lint-fix, fmt). */
  eslint: string;
  eslintJs: string;
  typescriptEslint: string;
  prettier: string;
  kubeforgeVersion: string;
}

export function toolVersions(): ToolVersions {
  const pkg = ownPackageJson();
  const all = { ...pkg.dependencies, ...pkg.devDependencies };
  const pick = (name: string): string => {
    const v = all[name];
    if (!v) throw new Error(`kubeforge's package.json has no ${name} to pin made projects to`);
    return v;
  };
  return {
    kubernetesTypes: pick('kubernetes-types'),
    pino: pick('pino'),
    yaml: pick('yaml'),
    typescript: pick('typescript'),
    jest: pick('jest'),
    swcCore: pick('@swc/core'),
    swcJest: pick('@swc/jest'),
    typesJest: pick('@types/jest'),
    typesNode: pick('@types/node'),
    eslint: pick('eslint'),
    eslintJs: pick('@eslint/js'),
    typescriptEslint: pick('typescript-eslint'),
    prettier: pick('prettier'),
    kubeforgeVersion: pkg.version,
  };
}
