/**
 * The scaffold commands through the real command line parser (`kubeforge init|create api|create webhook`):
 * kubebuilder's flag forms (`--resource=false`, `--version v1`) and the exit status.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { read, runCli, tempProject, treeHash } from './scaffold-harness.js';

describe('kubeforge scaffold commands on the command line', () => {
  const project = tempProject('cliproj');
  afterAll(() => project.remove());

  it('init, then create api with kubebuilder flag forms, then create webhook', async () => {
    const initRun = await runCli(['init', '--domain', 'example.org', '--repo', '@acme/cliproj', '--license', 'none', '--root', project.root]);
    expect(initRun).toMatchObject({ code: 0, err: '' });
    expect(initRun.out).toContain('create PROJECT');

    const apiRun = await runCli(['create', 'api', '--group', 'apps', '--version', 'v1alpha1', '--kind', 'Shelf', '--namespaced=false', '--controller=false', '--make=false', '--root', project.root]);
    expect(apiRun).toMatchObject({ code: 0, err: '' });
    expect(read(project.root, 'api/v1alpha1/shelf_types.ts')).toContain('// +kubebuilder:resource:scope=Cluster');
    expect(existsSync(join(project.root, 'internal/controller/shelf_controller.ts'))).toBe(false);

    const dry = await runCli(['create', 'webhook', '--group', 'apps', '--version', 'v1alpha1', '--kind', 'Shelf', '--programmatic-validation', '--dry-run', '--root', project.root]);
    expect(dry.code).toBe(0);
    expect(dry.out).toContain('create internal/webhook/v1alpha1/shelf_webhook.ts');
    expect(dry.out).toContain('update cmd/main.ts');
  });

  it('a bad flag value exits 1 with the message and writes nothing', async () => {
    const before = treeHash(project.root);
    const run = await runCli(['create', 'api', '--group', 'apps', '--version', 'v1', '--kind', 'Shelf', '--resource=maybe', '--root', project.root]);
    expect(run.code).not.toBe(0);
    expect(run.err).toContain('--resource: expected true or false, got "maybe"');
    const bad = await runCli(['create', 'api', '--group', 'apps', '--version', 'one', '--kind', 'Book', '--root', project.root]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('kubeforge create api: --version "one": must look like v1');
    expect(treeHash(project.root)).toBe(before);
  });
});
