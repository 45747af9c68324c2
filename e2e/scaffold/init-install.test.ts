/**
 * `kubeforge init --install` through the real command line parser: the flag is parsed, the npm install
 * step is announced, npm's output is shown as it comes, and a failed install says what to do. npm itself
 * is a stand-in script first on PATH here (it records its arguments and folder); the real install of a
 * made project is e2e/scaffold/npm-install.test.ts's business.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempProject } from './scaffold-harness.js';

describe('kubeforge init --install', () => {
  const fakes = tempProject('bin');
  const path = process.env.PATH;
  let record = '';

  beforeAll(() => {
    record = join(fakes.root, 'npm-calls');
    // A stand-in npm: records its folder and arguments, prints like npm, exits with $FAKE_NPM_STATUS.
    writeFileSync(join(fakes.root, 'npm'), `#!/bin/sh\necho "$PWD $*" >> ${record}\necho "added 321 packages in 4s"\necho "npm warn deprecated something" >&2\nexit \${FAKE_NPM_STATUS:-0}\n`);
    chmodSync(join(fakes.root, 'npm'), 0o755);
    process.env.PATH = `${fakes.root}:${path}`;
  });
  afterAll(() => {
    process.env.PATH = path;
    delete process.env.FAKE_NPM_STATUS;
    fakes.remove();
  });

  it('is listed in init --help', async () => {
    const help = await runCli(['init', '--help']);
    expect(help.out).toMatch(/--install\s+run npm install in the new project afterwards,\s+showing\s+npm's progress/);
  });

  it('announces the step, runs npm install in the new project and shows its output', async () => {
    const project = tempProject('installed');
    try {
      const run = await runCli(['init', '--domain', 'example.com', '--repo', 'installed', '--install', '--root', project.root]);
      expect(run.code).toBe(0);
      expect(existsSync(join(project.root, 'PROJECT'))).toBe(true);
      expect(run.out).toContain(`Installing dependencies: npm install --foreground-scripts (in ${project.root}); npm's progress follows\nadded 321 packages in 4s\n`);
      expect(run.err).toContain('npm warn deprecated something');
      expect(run.out).toMatch(/Installed dependencies in \d+\.\d s\nNext: `npx kubeforge create api/);
      expect(run.out).not.toContain('Next: npm install');
      expect(readFileSync(record, 'utf8')).toBe(`${project.root} install --foreground-scripts\n`);
    } finally {
      project.remove();
    }
  });

  it('a failed install exits 1 and says the project is made and what to run', async () => {
    const project = tempProject('failed');
    process.env.FAKE_NPM_STATUS = '7';
    try {
      const run = await runCli(['init', '--domain', 'example.com', '--repo', 'failed', '--install', '--root', project.root]);
      expect(run.code).toBe(1);
      expect(run.err).toContain(`kubeforge init: npm install failed (exit status 7); the project is made — fix the cause above and run \`npm install\` in ${project.root}`);
      expect(existsSync(join(project.root, 'PROJECT'))).toBe(true);
    } finally {
      delete process.env.FAKE_NPM_STATUS;
      project.remove();
    }
  });

  it('--dry-run --install writes nothing and installs nothing', async () => {
    const project = tempProject('dry');
    mkdirSync(project.root, { recursive: true });
    const before = existsSync(record) ? readFileSync(record, 'utf8') : '';
    try {
      const run = await runCli(['init', '--domain', 'example.com', '--repo', 'dry', '--install', '--dry-run', '--root', project.root]);
      expect(run.code).toBe(0);
      expect(run.out).not.toContain('Installing dependencies');
      expect(existsSync(join(project.root, 'PROJECT'))).toBe(false);
      expect(existsSync(record) ? readFileSync(record, 'utf8') : '').toBe(before);
    } finally {
      project.remove();
    }
  });
});
