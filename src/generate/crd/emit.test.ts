// emitCrdYaml: the CRD file text is `---\n` + controller-gen's yaml.v2 layout; checked byte for byte against the
// kubebuilder tutorial and controller-tools goldens (skipped without ../shared). The layout is what is tested
// here: the parts that come from Kubernetes types (rendered from the 1.32 definitions, while the goldens were
// made from a newer k8s.io/api; compared in the conformance tests) are taken from the golden before emitting.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedInputPresent, sharedPath } from '../../../e2e/shared-inputs.js';
import { loadApiProject } from '../../reader/index.js';
import { buildCrds } from './build.js';
import { emitCrdYaml } from './emit.js';
import YAML from 'yaml';

type Node = Record<string, any>;  

/**
 * `document` with the schema at each path (`status.active[]`: array items) replaced by the golden's, in every
 * version that has it; returns the document and how many subtrees were replaced.
 */
function withGoldenKubernetesParts(document: object, goldenText: string, paths: string[]): [object, number] {
  const ours = structuredClone(document) as Node;
  const golden = YAML.parse(goldenText) as Node;
  let replaced = 0;
  ours.spec.versions.forEach((version: Node, i: number) => {
    for (const dotted of paths) {
      let a: Node | undefined = version.schema.openAPIV3Schema;
      let g: Node | undefined = golden.spec.versions[i].schema.openAPIV3Schema;
      const parts = dotted.split('.');
      const lastPart = parts.pop()!;
      for (const part of parts) {
        const name = part.replace(/\[\]$/, '');
        a = a?.properties?.[name];
        g = g?.properties?.[name];
        if (part.endsWith('[]')) [a, g] = [a?.items, g?.items];
      }
      const name = lastPart.replace(/\[\]$/, '');
      if (!a?.properties?.[name] || !g?.properties?.[name]) continue;
      if (lastPart.endsWith('[]')) a.properties[name].items = g.properties[name].items;
      else a.properties[name] = g.properties[name];
      replaced++;
    }
  });
  return [ours, replaced];
}

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
    const [document, replaced] = withGoldenKubernetesParts(crd!.document, golden, ['spec.jobTemplate', 'status.active[]', 'status.conditions[]']);
    expect(replaced).toBe(3);
    expect(emitCrdYaml(document as never)).toBe(golden);
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
      const text = fs.readFileSync(path.join(shared, 'controller-tools', golden), 'utf8');
      const kubernetesParts = fileName === 'testdata.kubebuilder.io_cronjobs.yaml' ? ['spec.jobTemplate', 'status.active[]'] : [];
      const [document, replaced] = withGoldenKubernetesParts(crd!.document, text, kubernetesParts);
      if (kubernetesParts.length > 0) expect(replaced).toBeGreaterThanOrEqual(kubernetesParts.length);
      expect(emitCrdYaml(document as never)).toBe(text);
    }
  });
});
