// Conformance with controller-tools v0.21.0 golden CRDs (../shared/conformance/controller-tools), compared as
// parsed YAML, from TypeScript equivalents of the Go test inputs (fixtures/controller-tools/api/*).
//
// Cases that are not equal, and why (the goal is zero):
//   none — every golden below is compared in full and is equal.
// Differences in the inputs (Go-only constructs) are listed at the top of each fixture; the one that changes
// behaviour: controller-tools' cronjob_types.go carries deliberately wrong markers (+kubebuilder:validation:nullable,
// +kubebuilder:validation:optional) that controller-gen ignores; kubeforge reports unknown markers as errors, so
// the fixture leaves them out.
// Normalisations: the enums and oneofs goldens were written by controller-tools' test harness without the
// `controller-gen.kubebuilder.io/version` annotation and with an empty `status`; both are ignored here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { sharedInputPresent, sharedPath } from '../../../e2e/shared-inputs.js';
import { loadApiProject } from '../../reader/index.js';
import { buildCrds, type BuildCrdsResult } from './build.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const goldenDir = sharedPath('conformance/controller-tools');
const haveShared = sharedInputPresent(goldenDir, 'controller-tools conformance');
const describeShared = haveShared ? describe : describe.skip;

/** Golden file → the CRD file name kubeforge writes for it. */
const CASES: [golden: string, fileName: string][] = [
  ['crd__plural__plural.example.com_testquotas.yaml', 'plural.example.com_testquotas.yaml'],
  ['crd__testdata.kubebuilder.io_enums.yaml', 'testdata.kubebuilder.io_enums.yaml'],
  ['crd__testdata.kubebuilder.io_jobs.yaml', 'testdata.kubebuilder.io_jobs.yaml'],
  ['crd__testdata.kubebuilder.io_immutabletypes.yaml', 'testdata.kubebuilder.io_immutabletypes.yaml'],
  ['crd__testdata.kubebuilder.io_oneofs.yaml', 'testdata.kubebuilder.io_oneofs.yaml'],
  ['crd__multiple_versions__testdata.kubebuilder.io_versionedresources.yaml', 'testdata.kubebuilder.io_versionedresources.yaml'],
  ['crd__testdata.kubebuilder.io_cronjobs.yaml', 'testdata.kubebuilder.io_cronjobs.yaml'],
];

/** Reads a golden; some were written before controller-gen dropped the empty `status`, so drop it here too. */
function readGolden(file: string): unknown {
  const doc = YAML.parse(fs.readFileSync(path.join(goldenDir, file), 'utf8')) as Record<string, unknown>;
  delete doc.status;
  return doc;
}

describeShared('controller-tools v0.21.0 golden CRDs', () => {
  let result: BuildCrdsResult;
  let loadDiagnostics: unknown[];
  beforeAll(async () => {
    const loaded = await loadApiProject({ root: path.join(here, 'fixtures/controller-tools') });
    loadDiagnostics = loaded.diagnostics;
    result = buildCrds(loaded.model, { allowDangerousTypes: true, toolVersion: '(devel)' });
  });

  it('reads and builds the fixtures without diagnostics', () => {
    expect(loadDiagnostics).toEqual([]);
    expect(result.diagnostics).toEqual([]);
  });

  it.each(CASES)('%s', (golden, fileName) => {
    const crd = result.crds.find((c) => c.fileName === fileName);
    expect(crd?.fileName).toBe(fileName);
    const expected = readGolden(golden) as { metadata: { annotations?: unknown } };
    const actual = structuredClone(crd!.document) as { metadata: { annotations?: unknown } };
    if (!expected.metadata.annotations) delete actual.metadata.annotations;
    expect(actual).toEqual(expected);
  });
});
