// Conformance: the kubebuilder CronJob tutorial's CRD (controller-gen v0.21.0, crd:maxDescLen=0), compared as
// parsed YAML with what kubeforge builds from the TypeScript equivalent of its api/v1 types. What is compared
// with what: everything the tutorial's own types make is compared exactly; the parts that come from Kubernetes
// types (spec.jobTemplate, status.active[], status.conditions[]) are kubeforge's rendering of Kubernetes' own
// 1.32 definitions, compared exactly except for the fields Kubernetes changed after 1.32 (the golden was made
// from a newer k8s.io/api), which are listed below and reported (see conformance-compare.ts). No descriptions
// (maxDescLen=0).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { sharedInputPresent, sharedPath } from '../../../e2e/shared-inputs.js';
import { loadApiProject } from '../../reader/index.js';
import { buildCrds } from './build.js';
import { compareCrd } from './conformance-compare.js';
import { KUBERNETES_CHANGES_AFTER_1_32 } from './conformance-kubernetes-changes.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const golden = sharedPath('conformance/kubebuilder-cronjob-tutorial/batch.tutorial.kubebuilder.io_cronjobs.yaml');
const haveShared = sharedInputPresent(golden, 'tutorial conformance');
const describeShared = haveShared ? describe : describe.skip;

describeShared('kubebuilder CronJob tutorial CRD', () => {
  it('equals controller-gen output for api/v1/cronjob_types (maxDescLen=0): own types exactly, Kubernetes parts from the 1.32 definitions', async () => {
    const { model, diagnostics } = await loadApiProject({ root: path.join(here, 'fixtures/tutorial') });
    expect(diagnostics).toEqual([]);
    const result = buildCrds(model, { maxDescLen: 0 });
    expect(result.diagnostics).toEqual([]);
    expect(result.crds.map((c) => c.fileName)).toEqual(['batch.tutorial.kubebuilder.io_cronjobs.yaml']);
    const report = compareCrd(
      YAML.parse(fs.readFileSync(golden, 'utf8')),
      result.crds[0]!.document,
      ['spec.jobTemplate', 'status.active[]', 'status.conditions[]'],
      KUBERNETES_CHANGES_AFTER_1_32,
    );
    console.log(
      `tutorial conformance: Kubernetes parts rendered from the 1.32 definitions; fields Kubernetes added after 1.32 (in the golden only): ${report.addedAfter132.length}; ` +
        `required fields changed after 1.32: ${report.requiredChangedAfter132.length}`,
    );
    expect(report.differences).toEqual([]);
    expect(report.descriptions.compared).toBe(0);
  });
});
