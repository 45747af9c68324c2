/**
 * Reusing an example's installed dependency tree for another example with the same install inputs: npm
 * install on a hard-linked copy of the tree and lock of such an example only rewrites the root name and
 * version of the lock and of node_modules/.package-lock.json (npm 11, checked by hand: 1 s of CPU per
 * example), so the copy gets those files written here — the hidden one as a file of its own, as npm writes
 * it in place and would otherwise rewrite every copy's through the shared link.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** Gives `<root>/node_modules/.package-lock.json`, a hard link into another tree, a file of its own (npm rewrites it in place). */
export function unshareHiddenLock(root: string): void {
  const hidden = join(root, 'node_modules/.package-lock.json');
  if (!existsSync(hidden)) return;
  const text = readFileSync(hidden);
  rmSync(hidden);
  writeFileSync(hidden, text);
}

/**
 * Writes `<to>/package-lock.json` and `<to>/node_modules/.package-lock.json`: those of `from` (installed) with
 * `to`'s name and version, what npm install writes there. Throws, writing nothing, when the two projects'
 * install inputs differ.
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
  const hidden = join(to, 'node_modules/.package-lock.json');
  if (existsSync(hidden)) {
    const text = `${JSON.stringify({ ...readJson<PackageLock>(join(from, 'node_modules/.package-lock.json')), ...identity }, null, 2)}\n`;
    rmSync(hidden);
    writeFileSync(hidden, text);
  }
}
