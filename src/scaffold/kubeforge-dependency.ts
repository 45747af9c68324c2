/**
 * How a made project depends on kubeforge and its tools: `file:<this checkout>` when the CLI runs from a
 * git checkout (nothing on the registry to install), else the registry version; the versions of
 * typescript, jest, swc and the types packages are the ones this package itself is built and tested with.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/**
 * The dependency spec for kubeforge. `KUBEFORGE_DEPENDENCY` overrides it (e.g. a tarball path for a
 * release test); a checkout (a `.git` folder next to package.json) gives `file:<path of the checkout>` —
 * relative when the project lies inside the checkout (the reference operators in examples/, which must
 * install on any clone), absolute otherwise.
 */
export function kubeforgeDependency(projectRoot?: string): string {
  const override = process.env.KUBEFORGE_DEPENDENCY;
  if (override) return override;
  if (existsSync(`${KUBEFORGE_ROOT}/.git`)) {
    const fromCheckout = projectRoot === undefined ? undefined : relative(KUBEFORGE_ROOT, projectRoot);
    const insideCheckout = fromCheckout !== undefined && !fromCheckout.startsWith('..') && !isAbsolute(fromCheckout);
    if (insideCheckout) return `file:${relative(projectRoot!, KUBEFORGE_ROOT) || '.'}`;
    return `file:${KUBEFORGE_ROOT}`;
  }
  return `^${ownPackageJson().version}`;
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
