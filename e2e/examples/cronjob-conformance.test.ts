/**
 * `kubeforge manifests --max-desc-len=0` in examples/cronjob equals the kubebuilder CronJob tutorial's
 * controller-gen output (../shared/conformance/kubebuilder-cronjob-tutorial), compared as parsed YAML:
 * the committed files are checked, and a fresh generation into a temporary copy is checked too. (It lived in the
 * example's test/ folder; it needs this checkout's CLI and ../shared, so it is a test of the checkout.)
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';
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

const haveConformance = sharedInputPresent(conformance, 'the CronJob manifests conformance test');
const describeIfShared = haveConformance ? describe : describe.skip;

describeIfShared('CronJob manifests match the kubebuilder tutorial (controller-gen v0.21.0)', () => {
  it.each(pairs)('committed %s', (expected, actual) => {
    expect(documents(path.join(exampleRoot, actual))).toEqual(documents(path.join(conformance, expected)));
  });

  const built = existsSync(path.join(CHECKOUT, 'dist/cli/main.js'));
  (built ? it : it.skip)('a fresh `kubeforge manifests --max-desc-len=0` run makes the same files', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'cronjob-manifests-'));
    try {
      for (const part of ['PROJECT', 'api', 'internal']) cpSync(path.join(exampleRoot, part), path.join(tmp, part), { recursive: true });
      await promisify(execFile)(process.execPath, [cli, 'manifests', '--max-desc-len=0', '--root', tmp]);
      for (const [expected, actual] of pairs.slice(0, 3)) expect(documents(path.join(tmp, actual))).toEqual(documents(path.join(conformance, expected)));
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 60_000);
});
