/**
 * Apply configurations in a made project: `+kubebuilder:ac:generate=true` in groupversion_info.ts, then
 * `make generate` writes api/<version>/zz_generated.applyconfigurations.ts, and the project — with a user
 * file that applies a typed status configuration through the manager's client — type-checks with strict.
 * Dependencies are linked from this checkout (its dist/ must be built).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createApi, init, linkDependencies, runInProject, tempProject } from './scaffold-harness.js';

describe('a made project with apply configurations', () => {
  const project = tempProject('applied');
  let root = '';

  beforeAll(async () => {
    root = project.root;
    expect(init(root, {}).code).toBe(0);
    expect(await createApi(root, { group: 'batch', version: 'v1', kind: 'CronJob' })).toMatchObject({ code: 0, err: '' });
    const info = join(root, 'api/v1/groupversion_info.ts');
    writeFileSync(info, readFileSync(info, 'utf8').replace('// +groupName=', '// +kubebuilder:ac:generate=true\n// +groupName='));
    linkDependencies(root);
  }, 120_000);
  afterAll(() => project.remove());

  it('make generate writes api/v1/zz_generated.applyconfigurations.ts', async () => {
    const make = await runInProject('make', ['generate'], root);
    expect(make.code).toBe(0);
    expect(make.output).toContain('wrote api/v1/zz_generated.applyconfigurations.ts');
    const text = readFileSync(join(root, 'api/v1/zz_generated.applyconfigurations.ts'), 'utf8');
    expect(text).toContain('export function CronJob(name: string, namespace: string): CronJobBuilder {');
    expect(text).toContain('export interface CronJobStatusApplyConfiguration {');
  }, 120_000);

  it('type-checks with strict, with a controller file applying a typed status configuration', async () => {
    writeFileSync(
      join(root, 'internal/controller/status_apply.ts'),
      [
        "import type { Manager } from 'kubeforge/runtime';",
        "import type { CronJob } from '../../api/v1/cronjob_types.js';",
        "import * as ac from '../../api/v1/zz_generated.applyconfigurations.js';",
        '',
        '/** Marks a CronJob ready with server-side apply; answers with the CronJob as stored. */',
        'export async function markReady(mgr: Manager, name: string, namespace: string): Promise<CronJob> {',
        '  const config = ac.CronJob(name, namespace).withStatus(',
        "    ac.CronJobStatus().withConditions({ type: 'Ready', status: 'True', reason: 'Reconciled', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }),",
        '  );',
        "  const applied: CronJob = await mgr.client.status().apply(config, { fieldManager: 'cronjob-controller', force: true });",
        '  // @ts-expect-error foo is a string',
        '  ac.CronJobSpec().withFoo(3);',
        '  return applied;',
        '}',
        '',
      ].join('\n'),
    );
    const tsc = join(root, 'node_modules/typescript/bin/tsc');
    const result = await runInProject(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit'], root);
    expect(result.output).toBe('');
    expect(result.code).toBe(0);
  }, 180_000);
});
