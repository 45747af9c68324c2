#!/usr/bin/env node
// Adds to package-lock.json the other platforms' optional native packages (@swc/core-darwin-arm64,
// @unrs/resolver-binding-win32-x64-msvc, ...) that this workplace's npm registry does not serve, so
// `npm install` here leaves them out of the lock and `npm ci` then refuses the lock as out of sync.
// The added entries carry only version, os, cpu and libc: npm skips them on every other platform and
// fetches them by name on theirs. Run after any `npm install`: `node scripts/complete-lockfile.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

/** os / cpu / libc from a platform package's name suffix, e.g. `linux-arm64-musl`, `win32-ia32-msvc`. */
function platformOf(name) {
  const m = /-(darwin|linux|win32|freebsd|android|openharmony|sunos|aix)-([a-z0-9]+)(?:-(gnu|musl|gnueabihf|musleabihf|eabi|msvc))?$/.exec(name);
  if (!m) return undefined;
  const [, os, cpu, abi] = m;
  const entry = { os: [os], cpu: [cpu] };
  if (os === 'linux' && abi) entry.libc = [abi.startsWith('musl') ? 'musl' : 'glibc'];
  return entry;
}

let added = 0;
for (const [path, pkg] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const depPath = `${path ? `${path}/` : ''}node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (packages[depPath] || packages[hoisted]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    packages[hoisted] = { version, ...platform, ...(pkg.dev ? { dev: true } : {}), optional: true };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform package entr${added === 1 ? 'y' : 'ies'}`);
