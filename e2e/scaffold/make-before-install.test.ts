/**
 * `make` in a made project before `npm install` (issue 14's newcomer): every target that runs a tool from
 * node_modules/.bin stops before running anything, with one line naming the missing tool and what to run, and
 * leaves the project as it was. (Before, make ran the missing path and the shell said "No such file or
 * directory", exit 127, naming neither npm install nor the cause.) The same targets once installed are proven by
 * the made-project, make-build, kubebuilder-parity and tutorial-types tests.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { runInProject, init, tempProject, treeHash } from './scaffold-harness.js';

describe('make before npm install', () => {
  const project = tempProject('fresh-operator');
  let before: string;
  beforeAll(() => {
    expect(init(project.root, { domain: 'example.com', repo: 'fresh-operator' })).toMatchObject({ code: 0, err: '' });
    before = treeHash(project.root);
  });
  afterAll(() => project.remove());

  // the target, and the tool its first recipe needs
  const targets: Array<[string, string]> = [
    ['manifests', 'node_modules/.bin/kubeforge'],
    ['generate', 'node_modules/.bin/kubeforge'],
    ['build', 'node_modules/.bin/kubeforge'],
    ['run-local', 'node_modules/.bin/kubeforge'],
    ['test', 'node_modules/.bin/kubeforge'],
    ['dev', 'node_modules/.bin/kubeforge'],
    ['vet', 'node_modules/.bin/tsc'],
    ['lint', 'node_modules/.bin/eslint'],
    ['lint-fix', 'node_modules/.bin/eslint'],
    ['fmt', 'node_modules/.bin/prettier'],
    ['setup-test-e2e', 'node_modules/.bin/kubeforge'],
  ];

  it.each(targets)('make %s says that %s is missing and to run npm install, and changes nothing', async (target, tool) => {
    const result = await runInProject('make', ['--no-print-directory', target], project.root);
    expect({ code: result.code, lines: result.output.trim().split('\n') }).toEqual({
      code: 2,
      lines: [expect.stringMatching(new RegExp(`^Makefile:\\d+: \\*\\*\\* ${tool.replace(/[.]/g, '\\.')} not found: run npm install in this folder first \\(npm ci in CI\\)\\.  Stop\\.$`))],
    });
    expect(treeHash(project.root)).toBe(before);
  });

  it('a KUBEFORGE of the user’s choice is looked up on the PATH, not in node_modules', async () => {
    // `true` is a command on the PATH: the check passes and make runs it (manifests then does nothing).
    const chosen = await runInProject('make', ['--no-print-directory', 'manifests', 'KUBEFORGE=true'], project.root);
    expect(chosen).toEqual({ code: 0, output: 'true manifests --strict-markers\n' });
    // A run that succeeded notes itself in .kubeforge/ (so a build after it does not run the generator again),
    // and changed nothing else.
    const stamp = join(project.root, '.kubeforge/manifests.stamp');
    expect(existsSync(stamp)).toBe(true);
    rmSync(stamp);
    expect(treeHash(project.root)).toBe(before);
    const missing = await runInProject('make', ['--no-print-directory', 'manifests', 'KUBEFORGE=no-such-kubeforge --flag'], project.root);
    expect({ code: missing.code, output: missing.output.trim() }).toEqual({ code: 2, output: expect.stringMatching(/^Makefile:\d+: \*\*\* no-such-kubeforge not found: run npm install in this folder first \(npm ci in CI\)\.  Stop\.$/) });
    expect(treeHash(project.root)).toBe(before);
  });
});
