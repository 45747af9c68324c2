// emitCrdYaml: the CRD file text is `---\n` + controller-gen's yaml.v2 layout; checked byte for byte against the
// kubebuilder tutorial golden (skipped without ../shared).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedInputPresent, sharedPath } from '../../../e2e/shared-inputs.js';
import { loadApiProject } from '../../reader/index.js';
import { buildCrds } from './build.js';
import { emitCrdYaml } from './emit.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const shared = sharedPath('conformance');
const haveShared = sharedInputPresent(shared, 'the byte comparisons of emitCrdYaml with the controller-gen goldens');

describe('emitCrdYaml', () => {
  it('starts with the document marker and ends with one newline', async () => {
    const { model } = await loadApiProject({ root: path.join(here, 'fixtures/controller-tools'), apiPaths: ['api/plural'] });
    const text = emitCrdYaml(buildCrds(model).crds[0]!);
    expect(text.startsWith('---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\n')).toBe(true);
    expect(text.endsWith('type: object\n    served: true\n    storage: true\n')).toBe(true);
    expect(emitCrdYaml(buildCrds(model).crds[0]!, '# header\n')).toBe(`# header\n${text}`);
  });

  (haveShared ? it : it.skip)('writes the tutorial CRD byte for byte as controller-gen does', async () => {
    const { model } = await loadApiProject({ root: path.join(here, 'fixtures/tutorial') });
    const [crd] = buildCrds(model, { maxDescLen: 0 }).crds;
    const golden = fs.readFileSync(path.join(shared, 'kubebuilder-cronjob-tutorial/batch.tutorial.kubebuilder.io_cronjobs.yaml'), 'utf8');
    expect(emitCrdYaml(crd!)).toBe(golden);
  });

  // enums and oneofs are left out: those goldens lack the version annotation and carry an empty status.
  const byteCases: [string, string][] = [
    ['crd__testdata.kubebuilder.io_cronjobs.yaml', 'testdata.kubebuilder.io_cronjobs.yaml'],
    ['crd__testdata.kubebuilder.io_jobs.yaml', 'testdata.kubebuilder.io_jobs.yaml'],
    ['crd__testdata.kubebuilder.io_immutabletypes.yaml', 'testdata.kubebuilder.io_immutabletypes.yaml'],
    ['crd__plural__plural.example.com_testquotas.yaml', 'plural.example.com_testquotas.yaml'],
    ['crd__multiple_versions__testdata.kubebuilder.io_versionedresources.yaml', 'testdata.kubebuilder.io_versionedresources.yaml'],
  ];
  (haveShared ? it : it.skip)('writes the controller-tools CRDs byte for byte (descriptions, folding, quoting)', async () => {
    const { model } = await loadApiProject({ root: path.join(here, 'fixtures/controller-tools') });
    const { crds } = buildCrds(model, { allowDangerousTypes: true, toolVersion: '(devel)' });
    for (const [golden, fileName] of byteCases) {
      const crd = crds.find((c) => c.fileName === fileName);
      expect(emitCrdYaml(crd!)).toBe(fs.readFileSync(path.join(shared, 'controller-tools', golden), 'utf8'));
    }
  });
});
