/**
 * `kubeforge manifests --max-desc-len=0` in this example equals the kubebuilder CronJob tutorial's
 * controller-gen output (../shared/conformance/kubebuilder-cronjob-tutorial), compared as parsed YAML:
 * the committed files are checked, and a fresh generation into a temporary copy is checked too.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';

const exampleRoot = fileURLToPath(new URL('..', import.meta.url));
const repoRoot = path.resolve(exampleRoot, '../..');
const conformance = path.resolve(repoRoot, '../shared/conformance/kubebuilder-cronjob-tutorial');
const cli = path.join(repoRoot, 'bin/kubeforge.js');

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

const haveConformance = existsSync(conformance);
if (!haveConformance) console.warn(`skipping the CronJob manifests conformance test: ${conformance} is absent`);
const describeIfShared = haveConformance ? describe : describe.skip;

describeIfShared('CronJob manifests match the kubebuilder tutorial (controller-gen v0.21.0)', () => {
  it.each(pairs)('committed %s', (expected, actual) => {
    expect(documents(path.join(exampleRoot, actual))).toEqual(documents(path.join(conformance, expected)));
  });

  const built = existsSync(path.join(repoRoot, 'dist/cli/main.js'));
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
