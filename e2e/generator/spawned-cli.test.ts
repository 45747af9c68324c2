// The installed command as a user runs it: `node bin/kubeforge.js` in a fresh process (needs the build in
// dist/, which `npm test` makes first), on a project in a temporary folder.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeProject, removeProjects, repoRoot } from './cli-harness.js';

afterAll(removeProjects);

function kubeforge(args: string[], cwd: string) {
  if (!existsSync(join(repoRoot, 'dist/cli/main.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
  return spawnSync(process.execPath, [join(repoRoot, 'bin/kubeforge.js'), ...args], { cwd, encoding: 'utf8' });
}

describe('bin/kubeforge.js in a fresh process', () => {
  it('lists manifests and generate in its help', () => {
    const help = kubeforge(['--help'], repoRoot);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^\s+manifests \[options\]/m);
    expect(help.stdout).toMatch(/^\s+generate \[options\]/m);
  });

  it('runs manifests then generate in the project folder (default --root .), then manifests --check passes', () => {
    const project = makeProject('good');
    const manifests = kubeforge(['manifests'], project);
    expect(manifests.stderr).toBe('');
    expect(manifests.status).toBe(0);
    expect(manifests.stdout).toContain('wrote config/crd/bases/batch.example.com_cronjobs.yaml');
    const generate = kubeforge(['generate'], project);
    expect(generate.status).toBe(0);
    expect(generate.stdout).toBe('wrote api/v1/zz_generated.deepcopy.ts\n');
    expect(readFileSync(join(project, 'api/v1/zz_generated.deepcopy.ts'), 'utf8')).toContain('export function deepCopyCronJob(');
    expect(kubeforge(['manifests', '--check'], project).status).toBe(0);
  });

  it('exits 1 with file:line:col on bad input', () => {
    const project = makeProject('good', { 'internal/controller/widget_controller.ts': '// +kubebuilder:rbca:verbs=get\nexport {};\n' });
    const result = kubeforge(['manifests'], project);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('internal/controller/widget_controller.ts:1:4: unknown marker "+kubebuilder:rbca" (did you mean "+kubebuilder:rbac"?)');
    expect(existsSync(join(project, 'config'))).toBe(false);
  });
  it('in a project with node_modules, generate reuses what manifests read and never loads the TypeScript compiler', () => {
    const project = makeProject('good');
    mkdirSync(join(project, 'node_modules'));
    // Preloaded into the CLI's process: says at exit whether the compiler was ever required.
    const probe = join(project, 'compiler-probe.cjs');
    writeFileSync(probe, "process.on('exit', () => process.stderr.write('compiler loaded: ' + Object.keys(require.cache).some((f) => f.endsWith('typescript.js')) + '\\n'));\n");
    const withProbe = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
      spawnSync(process.execPath, ['-r', probe, join(repoRoot, 'bin/kubeforge.js'), ...args], { cwd: project, encoding: 'utf8', env });
    const manifests = withProbe(['manifests']);
    expect(manifests.status).toBe(0);
    expect(manifests.stderr).toBe('compiler loaded: true\n');
    const generate = withProbe(['generate']);
    expect(generate.status).toBe(0);
    expect(generate.stderr).toBe('compiler loaded: false\n');
    const fromCache = readFileSync(join(project, 'api/v1/zz_generated.deepcopy.ts'), 'utf8');
    // A changed type is parsed again, and the result is what a run without any cache writes.
    const types = join(project, 'api/v1/widget_types.ts');
    writeFileSync(types, readFileSync(types, 'utf8').replace(/\n}\n/, '\n  /** Added later. */\n  addedLater?: string[];\n}\n'));
    const again = withProbe(['generate', '--check']);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/compiler loaded: true\n$/);
    const noCache = withProbe(['generate'], { ...process.env, KUBEFORGE_NO_MODEL_CACHE: '1' });
    expect(noCache.status).toBe(0);
    const fresh = readFileSync(join(project, 'api/v1/zz_generated.deepcopy.ts'), 'utf8');
    expect(fresh).not.toBe(fromCache);
    expect(withProbe(['generate', '--check']).stderr).toBe('compiler loaded: false\n');
  });
});
