// The generator commands load their parts through one shared lazy import: plans started at the same time (as
// in-process callers such as the demo or tests may do) must all get the parts, and the same result as one at a time.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planGenerate } from './generate.js';
import { loadGeneratorModules } from './generator-run.js';
import { planManifests } from './manifests.js';

const project = join(dirname(fileURLToPath(import.meta.url)), '../../e2e/generator/fixtures/good');

describe('loadGeneratorModules', () => {
  it('hands every caller the same modules, however many ask at once', async () => {
    const loaded = await Promise.all([loadGeneratorModules(), loadGeneratorModules(), loadGeneratorModules()]);
    expect(loaded[1]).toBe(loaded[0]);
    expect(loaded[2]).toBe(loaded[0]);
    expect(typeof loaded[0].loadApiProject).toBe('function');
  });

  it('plans manifests and deep copies concurrently with the same result as one after the other', async () => {
    const [manifests, generate] = await Promise.all([planManifests({ root: project }), planGenerate({ root: project })]);
    expect(manifests.diagnostics).toEqual([]);
    expect(generate.diagnostics).toEqual([]);
    expect(manifests.files.map((f) => f.path)).toContain('config/rbac/role.yaml');
    expect(generate.files.map((f) => f.path)).toEqual(['api/v1/zz_generated.deepcopy.ts']);
    expect(await planManifests({ root: project })).toEqual(manifests);
    expect(await planGenerate({ root: project })).toEqual(generate);
  });
});
