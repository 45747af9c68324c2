// Conformance: the kubebuilder CronJob tutorial's CRD (controller-gen v0.21.0, crd:maxDescLen=0) must be
// reproduced exactly, compared as parsed YAML, from the TypeScript equivalent of its api/v1 types.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { sharedInputPresent, sharedPath } from '../../../e2e/shared-inputs.js';
import { loadApiProject } from '../../reader/index.js';
import { buildCrds } from './build.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const golden = sharedPath('conformance/kubebuilder-cronjob-tutorial/batch.tutorial.kubebuilder.io_cronjobs.yaml');
const haveShared = sharedInputPresent(golden, 'tutorial conformance');
const describeShared = haveShared ? describe : describe.skip;

describeShared('kubebuilder CronJob tutorial CRD', () => {
  it('equals controller-gen output for api/v1/cronjob_types (maxDescLen=0)', async () => {
    const { model, diagnostics } = await loadApiProject({ root: path.join(here, 'fixtures/tutorial') });
    expect(diagnostics).toEqual([]);
    const result = buildCrds(model, { maxDescLen: 0 });
    expect(result.diagnostics).toEqual([]);
    expect(result.crds.map((c) => c.fileName)).toEqual(['batch.tutorial.kubebuilder.io_cronjobs.yaml']);
    expect(result.crds[0]!.document).toEqual(YAML.parse(fs.readFileSync(golden, 'utf8')));
  });
});
