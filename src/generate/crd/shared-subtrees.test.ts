// The CRD builder shares one frozen copy of each type's schema between all its uses (a PodTemplateSpec used
// by many kinds is built and checked once) instead of copying it: results must equal what independent copies
// give, maxDescLen must apply to shared parts without changing them for other runs, and nothing shared may change.
import * as fs from 'node:fs';
import { loadApiProject } from '../../reader/index.js';
import { toYaml } from '../yaml/index.js';
import { buildCrds, type GeneratedCrd } from './build.js';
import { limitDescriptions } from './descriptions.js';
import { writeProject } from './fixtures/temp-project.js';
import type { Schema } from './schema.js';

function kindTypes(kind: string): string {
  return `import type { ObjectMeta } from 'kubeforge/api';
import type { PodTemplateSpec } from 'kubernetes-types/core/v1.js';
import type { Settings } from './settings.js';

/** ${kind}Spec is what a ${kind} wants. */
export interface ${kind}Spec {
  /** The pods a ${kind} runs. Long enough text to be shortened by a small maxDescLen. */
  template: PodTemplateSpec;
  /** Shared settings. */
  settings?: Settings;
}

// +kubebuilder:object:root=true
export interface ${kind} {
  apiVersion: 'toys.example.com/v1';
  kind: '${kind}';
  metadata?: ObjectMeta;
  spec?: ${kind}Spec;
}
`;
}

const SETTINGS = `import type { int32 } from 'kubeforge/api';

/** Settings shared by every kind. */
export interface Settings {
  /** Level of detail. */
  // +kubebuilder:validation:Maximum=5
  level?: int32;
}
`;

async function loadTwoKinds() {
  const root = writeProject({ 'api/v1/alpha_types.ts': kindTypes('Alpha'), 'api/v1/beta_types.ts': kindTypes('Beta'), 'api/v1/settings.ts': SETTINGS });
  try {
    const { model, diagnostics } = await loadApiProject({ root });
    expect(diagnostics).toEqual([]);
    return model;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const spec = (crd: GeneratedCrd): Schema => crd.document.spec.versions[0]!.schema.openAPIV3Schema.properties!.spec!;

describe('shared schema subtrees', () => {
  it('uses one frozen PodTemplateSpec schema for every kind, with each use site keeping its own description', async () => {
    const model = await loadTwoKinds();
    const { crds, diagnostics } = buildCrds(model);
    expect(diagnostics).toEqual([]);
    const [alpha, beta] = crds.map(spec);
    const a = alpha!.properties!.template!;
    const b = beta!.properties!.template!;
    expect(a.description).toMatch(/^The pods a Alpha runs/);
    expect(b.description).toMatch(/^The pods a Beta runs/);
    expect(a.properties).toBe(b.properties);
    expect(Object.isFrozen(a.properties)).toBe(true);
    expect(alpha!.properties!.settings!.properties).toBe(beta!.properties!.settings!.properties);
    expect(() => {
      (a.properties!.spec as Schema).type = 'string';
    }).toThrow(TypeError);
  });

  it('gives the same documents and YAML as unshared copies, with and without maxDescLen, run after run', async () => {
    const model = await loadTwoKinds();
    // A JSON round trip, not structuredClone: structuredClone keeps a subtree shared within one document (a
    // LabelSelector used at several places) shared, and limitDescriptions would then shorten it twice.
    const unshared = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
    const full = buildCrds(model).crds.map((c) => unshared(c.document));
    for (const maxDescLen of [undefined, 0, 12]) {
      const { crds } = buildCrds(model, { maxDescLen });
      const expected = full.map((document) => {
        const copy = unshared(document);
        for (const version of copy.spec.versions) limitDescriptions(version.schema.openAPIV3Schema, maxDescLen);
        return copy;
      });
      expect(crds.map((c) => c.document)).toEqual(expected);
      expect(crds.map((c) => toYaml(c.document))).toEqual(expected.map((document) => toYaml(document)));
    }
    expect(buildCrds(model).crds.map((c) => c.document)).toEqual(full);
  });
});
