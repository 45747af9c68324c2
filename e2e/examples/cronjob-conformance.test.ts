/**
 * `kubeforge manifests --max-desc-len=0` in examples/cronjob equals the kubebuilder CronJob tutorial's
 * controller-gen output (../shared/conformance/kubebuilder-cronjob-tutorial), compared as parsed YAML:
 * the committed files are checked, and a fresh generation into a temporary copy is checked too. RBAC, webhooks
 * and the sample exactly; the CRD as the conformance tests compare it (src/generate/crd/conformance-compare.ts):
 * the tutorial's own types exactly, the Kubernetes parts (rendered from the 1.32 definitions, the golden from a
 * newer k8s.io/api) exactly but for the listed later Kubernetes changes. (It lived in the
 * example's test/ folder; it needs this checkout's CLI and ../shared, so it is a test of the checkout.)
 *
 * The example also has the multiversion tutorial's v2 (issue 17). The golden is the CronJob tutorial's,
 * v1 only, and the shared conformance data has no multiversion-tutorial golden; so the CRD's v1 entry is
 * compared with the golden as before, and v2 is checked against v1: served, not stored, and the same
 * schema but for `spec.schedule`, the tutorial's CronSchedule (five optional string fields).
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { compareCrd } from '../../src/generate/crd/conformance-compare.js';
import { KUBERNETES_CHANGES_AFTER_1_32 } from '../../src/generate/crd/conformance-kubernetes-changes.js';
import { CHECKOUT } from '../scaffold/scaffold-harness.js';
import { sharedInputPresent, sharedPath } from '../shared-inputs.js';

const exampleRoot = path.join(CHECKOUT, 'examples/cronjob');
const conformance = sharedPath('conformance/kubebuilder-cronjob-tutorial');
const cli = path.join(CHECKOUT, 'bin/kubeforge.js');

const pairs: Array<[string, string]> = [
  ['batch.tutorial.kubebuilder.io_cronjobs.yaml', 'config/crd/bases/batch.tutorial.kubebuilder.io_cronjobs.yaml'],
  ['role.yaml', 'config/rbac/role.yaml'],
  ['webhook-manifests.yaml', 'config/webhook/manifests.yaml'],
  ['batch_v1_cronjob.yaml', 'config/samples/batch_v1_cronjob.yaml'],
];

function documents(file: string): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS())
    .filter((d) => d !== null);
}

interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema: { openAPIV3Schema: { properties: { spec: { properties: Record<string, unknown> } } } };
}
type Crd = { spec: { versions: CrdVersion[] } };

/** The multiversion tutorial's v2 schedule: CronSchedule, every cron field an optional CronField (string). */
const cronScheduleSchema = {
  type: 'object',
  properties: Object.fromEntries(['dayOfMonth', 'dayOfWeek', 'hour', 'minute', 'month'].map((field) => [field, { type: 'string' }])),
};

/**
 * The generated file equals the golden: exactly, or for the CRD, as the conformance comparison says (its v1
 * entry against the tutorial's v1-only golden; v2 as v1 with the CronSchedule schedule).
 */
function expectConforms(golden: string, generated: string): void {
  const [want, got] = [documents(golden), documents(generated)];
  if (!golden.endsWith('_cronjobs.yaml')) return void expect(got).toEqual(want);
  expect(got).toHaveLength(1);
  const crd = got[0] as Crd;
  expect(crd.spec.versions.map((v) => [v.name, v.served, v.storage])).toEqual([
    ['v1', true, true],
    ['v2', true, false],
  ]);
  const [v1, v2] = crd.spec.versions as [CrdVersion, CrdVersion];
  const v1Only = { ...crd, spec: { ...crd.spec, versions: [v1] } };
  const report = compareCrd(want[0] as never, v1Only as never, ['spec.jobTemplate', 'status.active[]', 'status.conditions[]'], KUBERNETES_CHANGES_AFTER_1_32);
  expect(report.differences).toEqual([]);
  const v1Spec = v1.schema.openAPIV3Schema.properties.spec;
  const v2AsTutorial = { ...v1, name: 'v2', storage: false };
  v2AsTutorial.schema = structuredClone(v1.schema);
  v2AsTutorial.schema.openAPIV3Schema.properties.spec.properties = { ...v1Spec.properties, schedule: cronScheduleSchema };
  expect(v2).toEqual(v2AsTutorial);
}

const haveConformance = sharedInputPresent(conformance, 'the CronJob manifests conformance test');
const describeIfShared = haveConformance ? describe : describe.skip;

describeIfShared('CronJob manifests match the kubebuilder tutorial (controller-gen v0.21.0)', () => {
  it.each(pairs)('committed %s', (expected, actual) => {
    expectConforms(path.join(conformance, expected), path.join(exampleRoot, actual));
  });

  const built = existsSync(path.join(CHECKOUT, 'dist/cli/main.js'));
  (built ? it : it.skip)('a fresh `kubeforge manifests --max-desc-len=0` run makes the same files', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'cronjob-manifests-'));
    try {
      for (const part of ['PROJECT', 'api', 'internal']) cpSync(path.join(exampleRoot, part), path.join(tmp, part), { recursive: true });
      await promisify(execFile)(process.execPath, [cli, 'manifests', '--max-desc-len=0', '--root', tmp]);
      for (const [expected, actual] of pairs.slice(0, 3)) expectConforms(path.join(conformance, expected), path.join(tmp, actual));
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 60_000);
});
