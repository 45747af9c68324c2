/**
 * One real fresh `npm install` per jest run for the test files that install a project with the same inputs
 * (a made project in e2e/scaffold/npm-install.test.ts, the first reference example in
 * e2e/examples/run-local.test.ts): the first file to get there installs in its own project for real and keeps
 * its outcome (exit status, output) with a hard-linked copy of the tree, the lock and package.json in the
 * run's folder (KUBEFORGE_TEST_RUN_DIR, made and removed by scripts/jest-run-folder); a file that comes later
 * gets that outcome, a hard-linked copy of the tree (`cp -al`) and the lock npm would write
 * (installed-tree.ts). The key covers everything the install reads: the package.json fields npm installs
 * from, .npmrc, the flags, npm's version and this checkout's package.json and lock. Without the run's folder
 * (jest started with another config), every caller installs for itself.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crossFileResult } from './cross-file-result.js';
import { installInputs, unshareHiddenLock, writeLockAs } from './examples/installed-tree.js';
import { CHECKOUT } from './scaffold/scaffold-harness.js';
import { npmVersion } from './ship/packed-tarball.js';

/** The outcome of the fresh install, for the project it was asked for. */
export interface FreshInstall {
  code: number;
  output: string;
  /** The project that ran `npm install` for real: `root` itself, or the one whose tree `root` got. */
  installedIn: string;
}

/** Runs a command in a folder to its end: its exit status and the last of its output. */
type Run = (command: string, args: string[], cwd: string) => Promise<{ code: number; output: string }>;

const fileOrEmpty = (path: string): string => (existsSync(path) ? readFileSync(path, 'utf8') : '');

/** sha256 of what `npm <args>` in `root` installs from. */
export function freshInstallKey(root: string, args: string[]): string {
  const inputs = {
    manifest: installInputs(root),
    npmrc: fileOrEmpty(join(root, '.npmrc')),
    args,
    npm: npmVersion(),
    checkout: [fileOrEmpty(join(CHECKOUT, 'package.json')), fileOrEmpty(join(CHECKOUT, 'package-lock.json'))],
  };
  return createHash('sha256').update(JSON.stringify(inputs)).digest('hex').slice(0, 24);
}

/**
 * `npm <args>` (an install) in `root`, run by `run`, or, when another test file of this jest run already ran it
 * with the same inputs, that install's outcome and a hard-linked copy of its tree with the lock npm would write.
 */
export async function freshInstall(root: string, args: string[], run: Run): Promise<FreshInstall> {
  const runFolder = process.env.KUBEFORGE_TEST_RUN_DIR;
  if (!runFolder) return { ...(await run('npm', args, root)), installedIn: root };
  const shared = await crossFileResult(join(runFolder, 'fresh-install'), `install-${freshInstallKey(root, args)}`, async (folder): Promise<FreshInstall> => {
    const installed = await run('npm', args, root);
    if (installed.code === 0) {
      const linked = await run('cp', ['-al', join(root, 'node_modules'), join(folder, 'node_modules')], folder);
      if (linked.code !== 0) throw new Error(`keeping ${root}'s installed tree for the other test files failed:\n${linked.output}`);
      unshareHiddenLock(folder);
      copyFileSync(join(root, 'package-lock.json'), join(folder, 'package-lock.json'));
      copyFileSync(join(root, 'package.json'), join(folder, 'package.json'));
    }
    return { ...installed, installedIn: root };
  });
  const outcome = shared.value;
  if (shared.made || outcome.code !== 0) return outcome;
  const linked = await run('cp', ['-al', join(shared.folder, 'node_modules'), join(root, 'node_modules')], root);
  if (linked.code !== 0) return { ...linked, installedIn: outcome.installedIn };
  writeLockAs(shared.folder, root);
  return outcome;
}
