// `generate` loads only the reader and the deep-copy generator; `manifests` loads every part. Started together
// with nothing loaded yet (this file's own module registry), generate first, both must get their parts and the
// same plans as one after the other (lazy imports go one at a time, src/reader/import-in-turn.ts).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { planGenerate } from './generate.js';
import { loadDeepCopyModules, loadGeneratorModules } from './generator-run.js';
import { planManifests } from './manifests.js';

const project = join(dirname(fileURLToPath(import.meta.url)), '../../e2e/generator/fixtures/good');

describe('loadDeepCopyModules', () => {
  it('plans deep copies and manifests started at once, generate first, as one after the other', async () => {
    const [generate, manifests] = await Promise.all([planGenerate({ root: project }), planManifests({ root: project })]);
    expect(generate.diagnostics).toEqual([]);
    expect(manifests.diagnostics).toEqual([]);
    expect(generate.files.map((f) => f.path)).toEqual(['api/v1/zz_generated.deepcopy.ts']);
    expect(await planGenerate({ root: project })).toEqual(generate);
    expect(await planManifests({ root: project })).toEqual(manifests);
  });

  it('hands out the full set of parts once they are loaded', async () => {
    const all = await loadGeneratorModules();
    expect(await loadDeepCopyModules()).toBe(all);
  });
});
