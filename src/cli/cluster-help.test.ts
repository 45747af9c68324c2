/**
 * What the local cluster does not do is said in two places that must agree: `kubeforge cluster start
 * --help` (printed from src/cli/cluster.ts) and the README's list under "What it does not do".
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const squash = (text: string): string => text.replace(/`/g, '').replace(/\s+/g, ' ').trim();

/** The `  - …` items after "What the local cluster does not do (yet):", continuation lines joined. */
function helpLimits(): string[] {
  const help = execFileSync(process.execPath, [join(root, 'bin', 'kubeforge.js'), 'cluster', 'start', '--help'], { encoding: 'utf8' });
  const tail = help.slice(help.indexOf('What the local cluster does not do (yet):'));
  return tail.split(/\n {2}- /).slice(1).map(squash);
}

test('cluster start --help lists what the local cluster does not do, and the README lists the same', () => {
  const limits = helpLimits();
  expect(limits.length).toBeGreaterThanOrEqual(10);
  expect(limits[0]).toMatch(/^no container runtime and no pod network/);
  expect(limits.some((l) => l.startsWith('exec, attach and port-forward, and proxy to pods not run with --image'))).toBe(true);
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('What it does not do (the list `kubeforge cluster start --help` prints):'));
  expect(section.length).toBeGreaterThan(0);
  const items = section.split(/\n- /).slice(1, limits.length + 1).map((item) => squash(item.split('\n\n')[0]!));
  expect(items).toEqual(limits);
});
