/**
 * emitProject (the deploy proofs' dist/ without a type-check) writes what `tsc -p tsconfig.build.json` writes:
 * the same .js and .js.map files, byte for byte, for the tutorial CronJob example (two versions, webhooks,
 * conversion: the most varied TypeScript of the examples); and refuses a project that is not an ES module.
 * The comparison with tsc runs where tsc builds examples/cronjob anyway: e2e/examples/run-local.test.ts, on
 * the dist/ its `make run-local` built (one tsc of the example fewer, ~2.5 CPU-s). Only when that file is
 * skipped (KUBEFORGE_SKIP_NPM_INSTALL=1) does this one compile the example with tsc and compare here.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECKOUT, linkDependencies } from '../scaffold/scaffold-harness.js';
import { emitProject, expectEmitEqualsTsc } from './project-emit.js';

/** run-local.test.ts compares emitProject with make run-local's tsc build of examples/cronjob unless it is skipped. */
const comparedByRunLocal = process.env.KUBEFORGE_SKIP_NPM_INSTALL !== '1';

describe('emitProject', () => {
  let temp = '';
  beforeAll(() => {
    temp = mkdtempSync(join(tmpdir(), 'kubeforge-project-emit-'));
  });
  afterAll(() => rmSync(temp, { recursive: true, force: true }));

  (comparedByRunLocal ? it.skip : it)("writes tsc's own .js and .js.map files for examples/cronjob", () => {
    const root = join(temp, 'cronjob');
    cpSync(join(CHECKOUT, 'examples/cronjob'), root, { recursive: true, filter: (src) => !/\/(node_modules|dist|\.kubeforge)$/.test(src) });
    linkDependencies(root);
    execFileSync(process.execPath, [join(CHECKOUT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'pipe' });
    expectEmitEqualsTsc(root);
  }, 120_000);

  it('refuses a project whose package.json is not "type": "module", naming the file, and writes nothing', () => {
    const root = join(temp, 'commonjs');
    cpSync(join(CHECKOUT, 'examples/at'), root, { recursive: true, filter: (src) => !/\/(node_modules|dist|\.kubeforge)$/.test(src) });
    const packageJson = join(root, 'package.json');
    const manifest = JSON.parse(readFileSync(packageJson, 'utf8')) as Record<string, unknown>;
    delete manifest.type;
    writeFileSync(packageJson, JSON.stringify(manifest));
    expect(() => emitProject(root)).toThrow(`${packageJson}: "type" is undefined, not "module": emitProject writes ES modules only`);
    expect(readdirSync(root)).not.toContain('dist');
  });
});
