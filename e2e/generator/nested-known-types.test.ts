// Kubernetes types nested inside the big ones (PodAffinityTerm, VolumeProjection, LifecycleHandler, ...) can be
// imported from kubernetes-types by name: `kubeforge manifests` gives each the schema controller-gen gives — the
// subtree of the controller-tools golden where that type is used, compared as the conformance tests compare
// Kubernetes parts (kubeforge renders Kubernetes' 1.32 definitions, the golden a newer k8s.io/api: exact but
// for the listed later Kubernetes changes, descriptions word for word after folding white space).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { compareCrd } from '../../src/generate/crd/conformance-compare.js';
import { KUBERNETES_CHANGES_AFTER_1_32 } from '../../src/generate/crd/conformance-kubernetes-changes.js';
import { sharedInputPresent, sharedPath } from '../shared-inputs.js';
import { makeProject, removeProjects, runCli } from './cli-harness.js';

afterAll(removeProjects);

type Schema = Record<string, any>;  

const goldenFile = sharedPath('conformance/controller-tools/crd__testdata.kubebuilder.io_cronjobs.yaml');
const haveGolden = sharedInputPresent(goldenFile, 'nested known-type tests');

const POD = 'spec.jobTemplate.spec.template.spec';
const CONTAINER = `${POD}.containers[]`;

/** Field of the test kind → [imported type, whether the field is a list of it, place of the type in the golden]. */
const FIELDS: Record<string, [string, boolean, string]> = {
  terms: ['PodAffinityTerm', true, `${POD}.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[]`],
  weightedTerms: ['WeightedPodAffinityTerm', true, `${POD}.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[]`],
  nodeTerms: ['NodeSelectorTerm', true, `${POD}.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[]`],
  sources: ['VolumeProjection', true, `${POD}.volumes[].projected.sources[]`],
  resizePolicy: ['ContainerResizePolicy', true, `${CONTAINER}.resizePolicy[]`],
  onStart: ['LifecycleHandler', false, `${CONTAINER}.lifecycle.postStart`],
  exec: ['ExecAction', false, `${CONTAINER}.livenessProbe.exec`],
  httpGet: ['HTTPGetAction', false, `${CONTAINER}.livenessProbe.httpGet`],
  tcpSocket: ['TCPSocketAction', false, `${CONTAINER}.livenessProbe.tcpSocket`],
  seccomp: ['SeccompProfile', false, `${POD}.securityContext.seccompProfile`],
};

function typesFile(): string {
  const imported = [...new Set(Object.values(FIELDS).map(([type]) => type))].sort();
  const fields = Object.entries(FIELDS).map(([name, [type, list]]) => `  /** The ${name}. */\n  ${name}?: ${type}${list ? '[]' : ''};`);
  return `import type { ObjectMeta } from 'kubeforge/api';
import type { ${imported.join(', ')} } from 'kubernetes-types/core/v1.js';

/** PlacementSpec uses Kubernetes types that live inside PodSpec. */
export interface PlacementSpec {
${fields.join('\n')}
}

// +kubebuilder:object:root=true
/** Placement is a test kind. */
export interface Placement {
  apiVersion: 'batch.example.com/v1';
  kind: 'Placement';
  metadata?: ObjectMeta;
  spec?: PlacementSpec;
}
`;
}

/** Walks `a.b[].c` from a schema node. */
function at(node: Schema, dotted: string): Schema {
  for (const part of dotted.split('.')) {
    node = node.properties?.[part.replace(/\[\]$/, '')];
    if (!node) throw new Error(`golden has no ${dotted}`);
    if (part.endsWith('[]')) node = node.items;
  }
  return node;
}

(haveGolden ? describe : describe.skip)('nested Kubernetes types by name', () => {
  let spec: Schema;
  let golden: Schema;
  beforeAll(async () => {
    const project = makeProject('good', { 'api/v1/placement_types.ts': typesFile() });
    const result = await runCli(['manifests', '--root', project]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const [crd] = parseAllDocuments(readFileSync(join(project, 'config/crd/bases/batch.example.com_placements.yaml'), 'utf8')).map((d) => d.toJS());
    spec = crd.spec.versions[0].schema.openAPIV3Schema.properties.spec;
    const goldenCrd = parse(readFileSync(goldenFile, 'utf8'));
    golden = goldenCrd.spec.versions.find((v: Schema) => v.name === 'v1').schema.openAPIV3Schema;
  });

  /** A CRD-shaped wrapper, so compareCrd sees the subtree as the Kubernetes part `value`. */
  const asCrd = (value: Schema): Schema => ({ spec: { versions: [{ schema: { openAPIV3Schema: { type: 'object', properties: { value } } } }] } });

  const cases = Object.entries(FIELDS).map(([name, [type, list, place]]) => [name, type, list, place] as const);
  it.each(cases)('%s (%s) has the schema of the golden at its place there (Kubernetes-part comparison)', (name, _type, list, place) => {
    const field = spec.properties[name];
    const expected = at(golden, place);
    let ours: Schema;
    if (list) {
      expect(field).toMatchObject({ description: `The ${name}.`, type: 'array' });
      ours = field.items; // items keep the type's own doc, as in controller-gen
    } else {
      const { description, ...schema } = field;
      expect(description).toBe(`The ${name}.`);
      ours = { ...schema, ...(expected.description ? { description: expected.description } : {}) };
    }
    const report = compareCrd(asCrd(expected), asCrd(ours), ['value'], KUBERNETES_CHANGES_AFTER_1_32);
    expect(report.differences).toEqual([]);
    expect(report.descriptions.compared).toBeGreaterThan(0);
  });
});
