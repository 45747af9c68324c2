// `make api-compat` in a made project (issue 17): compares the API types with those of the latest tag (the last
// release) and fails on a breaking change until it is acknowledged in api-compat.yaml.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApi, init, linkDependencies, runInProject, tempProject } from './scaffold-harness.js';

describe('make api-compat', () => {
  const project = tempProject('compat');
  afterAll(() => project.remove());

  it('passes against the last release tag, fails on a removed field until it is acknowledged', async () => {
    const root = project.root;
    expect(init(root).code).toBe(0);
    expect((await createApi(root, { group: 'batch', version: 'v1', kind: 'Widget', resource: true, controller: false })).code).toBe(0);
    linkDependencies(root);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], { cwd: root, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'v0.1.0');
    git('tag', 'v0.1.0');

    const same = await runInProject('make', ['--no-print-directory', 'api-compat'], root);
    expect(same.output).toContain('kubeforge manifests --compat v0.1.0');
    expect(same.output).toContain('0 breaking (0 acknowledged), 0 non-breaking');
    expect(same.code).toBe(0);

    const types = join(root, 'api/v1/widget_types.ts');
    const text = readFileSync(types, 'utf8');
    writeFileSync(types, text.replace(/\n\s*\/\*\* foo is an example field[^\n]*\n[^\n]*MinLength=1\n\s*foo\?: string;\n/, '\n'));
    const removed = await runInProject('make', ['--no-print-directory', 'api-compat'], root);
    expect(removed.code).not.toBe(0);
    const id = 'widgets.batch.example.com/v1/spec.foo:field-removed';
    expect(removed.output).toMatch(/api\/v1\/widget_types\.ts:\d+:\d+: breaking: widgets\.batch\.example\.com v1 spec\.foo: field foo removed/);
    expect(removed.output).toContain(`  id: ${id}`);

    writeFileSync(join(root, 'api-compat.yaml'), `acknowledged:\n  - id: ${id}\n    reason: foo was the scaffold's example field\n`);
    const acknowledged = await runInProject('make', ['--no-print-directory', 'api-compat'], root);
    expect(acknowledged.output).toContain('breaking, acknowledged: widgets.batch.example.com v1 spec.foo');
    expect(acknowledged.code).toBe(0);
  });
});
