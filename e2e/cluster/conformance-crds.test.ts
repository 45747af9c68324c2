/**
 * Every CRD in ../shared/conformance is accepted by the local cluster (applied server-side, as
 * `make install` does), becomes Established and serves objects; the tutorial's sample CronJob
 * applies. Skips with a message where ../shared is absent (a user's fresh clone).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { sharedInputPresent, sharedPath } from '../shared-inputs.js';
import { useClusterSuite } from './cluster-suite.js';

const conformance = sharedPath('conformance');
const present = sharedInputPresent(conformance, 'conformance CRDs on the local cluster');
const maybe = present ? describe : describe.skip;

const crdFiles = present
  ? ['controller-tools', 'kubebuilder-cronjob-tutorial'].flatMap((d) =>
      readdirSync(join(conformance, d))
        .filter((f) => f.endsWith('.yaml'))
        .map((f) => join(conformance, d, f))
        .filter((f) => parseAllDocuments(readFileSync(f, 'utf8')).some((doc) => (doc.toJS() as { kind?: string } | null)?.kind === 'CustomResourceDefinition')),
    )
  : [];

maybe('conformance CRDs', () => {
  const suite = useClusterSuite();
  const kubectl = suite.kubectl;

  test('there are CRDs to check', () => {
    expect(crdFiles.length).toBeGreaterThanOrEqual(8);
  });

  test.each(crdFiles.map((f) => [f.slice(conformance.length + 1), f]))('%s is accepted, established and serves objects', async (_label, file) => {
    const crd = parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS()).find((d) => d?.kind === 'CustomResourceDefinition');
    const out = await kubectl.run(['apply', '--server-side', '-f', file]);
    expect(out.stderr).toBe('');
    await suite.cluster.settle();
    await kubectl.ok(['wait', '--for=condition=Established', `crd/${crd.metadata.name}`, '--timeout=5s']);
    const served = crd.spec.versions.filter((v: { served: boolean }) => v.served);
    for (const v of served) {
      const list = JSON.parse(await kubectl.ok(['get', `${crd.spec.names.plural}.${v.name}.${crd.spec.group}`, '-A', '-o', 'json']));
      expect(list.items).toEqual([]);
    }
  });

  test('the tutorial sample CronJob applies and reads back with its defaults', async () => {
    const sample = join(conformance, 'kubebuilder-cronjob-tutorial/batch_v1_cronjob.yaml');
    expect(await kubectl.ok(['apply', '-f', sample])).toContain('cronjob.batch.tutorial.kubebuilder.io/cronjob-sample created');
    const got = JSON.parse(await kubectl.ok(['get', 'cronjobs.batch.tutorial.kubebuilder.io', 'cronjob-sample', '-o', 'json']));
    expect(got.spec.schedule).toBe('*/1 * * * *');
    expect(got.spec.concurrencyPolicy).toBe('Allow');
    expect(got.status).toBeUndefined();
  });
});
