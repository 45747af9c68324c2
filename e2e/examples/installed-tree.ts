/**
 * Reusing an example's installed dependency tree for another example with the same install inputs: npm
 * install on a hard-linked copy of the tree and lock of such an example only rewrites the lock's root name
 * and version (npm 11, checked by hand: 1 s of CPU per example), so the copy gets that lock written here.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The package.json fields npm's tree and the lock's root entry come from (besides name and version). */
const INSTALL_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies', 'bundledDependencies', 'overrides', 'workspaces', 'engines', 'bin', 'license', 'os', 'cpu'] as const;

interface Manifest {
  name?: string;
  version?: string;
  [field: string]: unknown;
}

interface PackageLock {
  name?: string;
  version?: string;
  packages: Record<string, Manifest>;
}

function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** The install inputs of the project at `root`: its package.json without name, version and what npm does not install from. */
export function installInputs(root: string): Record<string, unknown> {
  const manifest = readJson<Manifest>(join(root, 'package.json'));
  return Object.fromEntries(INSTALL_FIELDS.filter((field) => manifest[field] !== undefined).map((field) => [field, manifest[field]]));
}

/**
 * Writes `<to>/package-lock.json`: the lock of `from` (installed) with `to`'s name and version, what npm
 * install writes there. Throws, writing nothing, when the two projects' install inputs differ.
 */
export function writeLockAs(from: string, to: string): void {
  const ours = installInputs(to);
  if (JSON.stringify(ours) !== JSON.stringify(installInputs(from))) throw new Error(`${to}/package.json: its install inputs differ from ${from}'s; run npm install there instead`);
  const manifest = readJson<Manifest>(join(to, 'package.json'));
  const lock = readJson<PackageLock>(join(from, 'package-lock.json'));
  const root = lock.packages[''];
  if (!root) throw new Error(`${from}/package-lock.json: no root entry ("packages"[""])`);
  const identity = { name: manifest.name, version: manifest.version };
  const written: PackageLock = { ...lock, ...identity, packages: { ...lock.packages, '': { ...root, ...identity } } };
  writeFileSync(join(to, 'package-lock.json'), `${JSON.stringify(written, null, 2)}\n`);
}
