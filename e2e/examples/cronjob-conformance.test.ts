/**
 * `kubeforge manifests --max-desc-len=0` in examples/cronjob equals the kubebuilder CronJob tutorial's
 * controller-gen output (../shared/conformance/kubebuilder-cronjob-tutorial), compared as parsed YAML:
 * the committed files are checked, and a fresh generation into a temporary copy is checked too. RBAC, webhooks
 * and the sample exactly; the CRD as the conformance tests compare it (src/generate/crd/conformance-compare.ts):
 * the tutorial's own types exactly, the Kubernetes parts (rendered from the 1.32 definitions, the golden from a
 * newer k8s.io/api) exactly but for the listed later Kubernetes changes. (It lived in the
 * example's test/ folder; it needs this checkout's CLI and ../shared, so it is a test of the checkout.)
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

/** The generated file equals the golden: exactly, or for the CRD, as the conformance comparison says. */
function expectConforms(golden: string, generated: string): void {
  const [want, got] = [documents(golden), documents(generated)];
  if (!golden.endsWith('_cronjobs.yaml')) return void expect(got).toEqual(want);
  expect(got).toHaveLength(1);
  const report = compareCrd(want[0] as never, got[0] as never, ['spec.jobTemplate', 'status.active[]', 'status.conditions[]'], KUBERNETES_CHANGES_AFTER_1_32);
  expect(report.differences).toEqual([]);
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
