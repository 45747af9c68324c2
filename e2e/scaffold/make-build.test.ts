/**
 * `make build` (and so `make run-local`) in a made project does only what changed (issue 14: run-local
 * rebuilt everything with tsc each time): with nothing changed it runs neither `kubeforge manifests` nor
 * `generate` nor tsc, and nothing is written; a type error fails the build every time until it is fixed;
 * after an edit under api/ the generators run again and the project is rebuilt; after `make manifests` and
 * `make generate` (what `make test` runs first) a build does not run them again. The run-local start itself (with a cluster) is measured by bench/dev-loop.mjs.
 */
import { execFile } from 'node:child_process';
import { readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApi, init, linkDependencies, tempProject } from './scaffold-harness.js';

function make(target: string, cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('make', ['--no-print-directory', target], { cwd, timeout: 180_000, env: { ...process.env, HOME: join(cwd, '..', 'home'), NODE_OPTIONS: '', MAKEFLAGS: '' } }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

describe('make build in a made project', () => {
  const project = tempProject('widgets');

  beforeAll(async () => {
    expect(init(project.root).code).toBe(0);
    expect((await createApi(project.root, { group: 'batch', version: 'v1', kind: 'Widget', resource: true, controller: true })).code).toBe(0);
    linkDependencies(project.root);
  }, 60_000);
  afterAll(() => project.remove());

  it('the first build generates and compiles; a second with nothing changed runs nothing and writes nothing', async () => {
    const first = await make('build', project.root);
    expect({ code: first.code, output: first.code === 0 ? '' : first.output }).toEqual({ code: 0, output: '' });
    expect(first.output).toContain('kubeforge manifests');
    expect(first.output).toContain('kubeforge generate');
    const built = join(project.root, 'dist/cmd/main.js');
    const before = statSync(built).mtimeMs;

    const second = await make('build', project.root);
    expect({ code: second.code, output: second.output }).toEqual({ code: 0, output: "make: Nothing to be done for 'build'.\n" });
    expect(statSync(built).mtimeMs).toBe(before);
  }, 240_000);

  it('a type error fails make build, again on the next make, until it is fixed', async () => {
    const controller = join(project.root, 'internal/controller/widget_controller.ts');
    const good = readFileSync(controller, 'utf8');
    writeFileSync(controller, `${good}\nexport const wrong: number = 'one';\n`);
    for (let i = 0; i < 2; i++) {
      const failed = await make('build', project.root);
      expect(failed.code).not.toBe(0);
      expect(failed.output).toContain("internal/controller/widget_controller.ts(");
      expect(failed.output).toContain("error TS2322: Type 'string' is not assignable to type 'number'.");
    }
    writeFileSync(controller, good);
    const fixed = await make('build', project.root);
    expect({ code: fixed.code, output: fixed.code === 0 ? '' : fixed.output }).toEqual({ code: 0, output: '' });
  }, 240_000);

  it('after an edit under api/ the generators run again and the new field reaches the CRD', async () => {
    const types = join(project.root, 'api/v1/widget_types.ts');
    writeFileSync(types, readFileSync(types, 'utf8').replace(/^ {2}foo\?: string;$/m, '  foo?: string;\n\n  /** bar is a second field. */\n  bar?: string;'));
    const again = await make('build', project.root);
    expect({ code: again.code, output: again.code === 0 ? '' : again.output }).toEqual({ code: 0, output: '' });
    expect(again.output).toContain('kubeforge manifests');
    expect(again.output).toContain('tsc -b tsconfig.build.json');
    expect(readFileSync(join(project.root, 'config/crd/bases/batch.example.com_widgets.yaml'), 'utf8')).toContain('description: bar is a second field.');
  }, 240_000);

  it('make manifests and make generate (as make test runs them) leave a following make build nothing to generate', async () => {
    // the types newer than every earlier run, as after an edit; then the two generators on their own
    const types = join(project.root, 'api/v1/widget_types.ts');
    const now = new Date();
    utimesSync(types, now, now);
    for (const target of ['manifests', 'generate']) {
      const generated = await make(target, project.root);
      expect({ target, code: generated.code, output: generated.code === 0 ? '' : generated.output }).toEqual({ target, code: 0, output: '' });
      expect(generated.output).toContain(`kubeforge ${target}`);
    }
    const built = await make('build', project.root);
    expect({ code: built.code, output: built.code === 0 ? '' : built.output }).toEqual({ code: 0, output: '' });
    expect(built.output).toContain('tsc -b tsconfig.build.json');
    expect(built.output).not.toContain('kubeforge manifests');
    expect(built.output).not.toContain('kubeforge generate');
  }, 240_000);
});
