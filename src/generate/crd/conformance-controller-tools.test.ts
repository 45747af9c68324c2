// Conformance with controller-tools v0.21.0 golden CRDs (../shared/conformance/controller-tools), compared as
// parsed YAML, from TypeScript equivalents of the Go test inputs (fixtures/controller-tools/api/*).
//
// What is compared with what: everything the fixtures' own types make is compared exactly, descriptions
// included. The parts that come from Kubernetes types (the cronjobs case's spec.jobTemplate and
// status.active[]) are kubeforge's rendering of Kubernetes' own 1.32 definitions, not copies of the golden; the
// golden was made from a newer k8s.io/api, so there every keyword but `description` is compared exactly except
// the fields Kubernetes changed after 1.32 (listed in conformance-kubernetes-changes.ts, reported), and each
// description must be present on both sides and is compared word for word after folding white space; the
// texts Kubernetes rewrote after 1.32 are counted and printed, not failed (see conformance-compare.ts).
// Differences in the inputs (Go-only constructs) are listed at the top of each fixture; the one that changes
// behaviour: controller-tools' cronjob_types.go carries deliberately wrong markers (+kubebuilder:validation:nullable,
// +kubebuilder:validation:optional) that controller-gen ignores; kubeforge warns about the first and refuses the
// second (a letter-case typo of +kubebuilder:validation:Optional), so the fixture leaves them out.
// Normalisations: the enums and oneofs goldens were written by controller-tools' test harness without the
// `controller-gen.kubebuilder.io/version` annotation and with an empty `status`; both are ignored here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { sharedInputPresent, sharedPath } from '../../../e2e/shared-inputs.js';
import { loadApiProject } from '../../reader/index.js';
import { buildCrds, type BuildCrdsResult } from './build.js';
import { compareCrd } from './conformance-compare.js';
import { KUBERNETES_CHANGES_AFTER_1_32 } from './conformance-kubernetes-changes.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const goldenDir = sharedPath('conformance/controller-tools');
const haveShared = sharedInputPresent(goldenDir, 'controller-tools conformance');
const describeShared = haveShared ? describe : describe.skip;

/** Golden file → the CRD file name kubeforge writes for it, and the schema paths typed by Kubernetes types. */
const CASES: [golden: string, fileName: string, kubernetesParts: string[]][] = [
  ['crd__plural__plural.example.com_testquotas.yaml', 'plural.example.com_testquotas.yaml', []],
  ['crd__testdata.kubebuilder.io_enums.yaml', 'testdata.kubebuilder.io_enums.yaml', []],
  ['crd__testdata.kubebuilder.io_jobs.yaml', 'testdata.kubebuilder.io_jobs.yaml', []],
  ['crd__testdata.kubebuilder.io_immutabletypes.yaml', 'testdata.kubebuilder.io_immutabletypes.yaml', []],
  ['crd__testdata.kubebuilder.io_oneofs.yaml', 'testdata.kubebuilder.io_oneofs.yaml', []],
  ['crd__multiple_versions__testdata.kubebuilder.io_versionedresources.yaml', 'testdata.kubebuilder.io_versionedresources.yaml', []],
  ['crd__testdata.kubebuilder.io_cronjobs.yaml', 'testdata.kubebuilder.io_cronjobs.yaml', ['spec.jobTemplate', 'status.active[]']],
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

  it.each(CASES)('%s: own types exactly; Kubernetes parts %j from the 1.32 definitions, descriptions word for word', (golden, fileName, kubernetesParts) => {
    const crd = result.crds.find((c) => c.fileName === fileName);
    expect(crd?.fileName).toBe(fileName);
    const expected = readGolden(golden) as { metadata: { annotations?: unknown } };
    const actual = structuredClone(crd!.document) as { metadata: { annotations?: unknown } };
    if (!expected.metadata.annotations) delete actual.metadata.annotations;
    if (kubernetesParts.length === 0) {
      expect(actual).toEqual(expected);
      return;
    }
    const report = compareCrd(expected, actual, kubernetesParts, KUBERNETES_CHANGES_AFTER_1_32);
    const { compared, identical, sameWords, differentWords } = report.descriptions;
    console.log(
      `${golden}: Kubernetes parts ${kubernetesParts.join(', ')} rendered from the 1.32 definitions. ` +
        `Descriptions compared: ${compared} (identical ${identical}, same words with other line breaks ${sameWords}, ` +
        `reworded by Kubernetes after 1.32 ${differentWords.length}); fields Kubernetes added after 1.32 (golden only): ` +
        `${report.addedAfter132.length}; required fields changed after 1.32: ${report.requiredChangedAfter132.length}`,
    );
    expect(report.differences).toEqual([]);
    expect(compared).toBeGreaterThan(0);
    expect(identical + sameWords).toBeGreaterThan(differentWords.length);
  });
});
