// Issue 16: kubeforge's marker catalogue (markers/*.json) against controller-tools' marker registry, as read
// from its Go sources into fixtures/controller-tools-registry.json. Every registry marker, on every target it is
// registered for, is in the catalogue — or in fixtures/left-out-markers.json with the reason it is left out.
// And every schema marker of the catalogue has an effect on the output (a handler in the CRD generator).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findMarker, markerCatalogue } from './catalogue.js';
import type { MarkerTarget } from './types.js';
import { isSchemaMarker } from '../generate/crd/schema-markers.js';

const here = dirname(fileURLToPath(import.meta.url));
const readJson = <T>(file: string): T => JSON.parse(readFileSync(join(here, file), 'utf8')) as T;

interface Registry {
  groups: Array<{ source: string; markers: Array<{ name: string; targets: MarkerTarget[] }> }>;
}
interface LeftOut {
  markers: Array<{ name: string; reason: string }>;
}

const registry = readJson<Registry>('fixtures/controller-tools-registry.json');
const leftOut = readJson<LeftOut>('fixtures/left-out-markers.json');
const leftOutNames = new Map(leftOut.markers.map((m) => [m.name, m.reason]));
const registered = registry.groups.flatMap((g) => g.markers.flatMap((m) => m.targets.map((target) => ({ name: m.name, target, source: g.source }))));

describe("the catalogue against controller-tools' registry", () => {
  it('reads a registry of the expected size (every group has markers)', () => {
    expect(registry.groups.every((g) => g.markers.length > 0)).toBe(true);
    expect(registered.length).toBeGreaterThan(100);
  });

  it('has every registry marker on every target, or lists it as left out with a reason', () => {
    const missing = registered
      .filter(({ name, target }) => findMarker(name, target) === undefined && !leftOutNames.has(name))
      .map(({ name, target, source }) => `+${name} (${target}; ${source})`);
    expect(missing).toEqual([]);
  });

  it('keeps the left-out list honest: each is in the registry, not in the catalogue, and has a reason', () => {
    const registryNames = new Set(registered.map((r) => r.name));
    expect(leftOut.markers.length).toBeGreaterThan(0);
    for (const { name, reason } of leftOut.markers) {
      expect([name, registryNames.has(name)]).toEqual([name, true]);
      expect([name, markerCatalogue().definitions.some((d) => d.name === name)]).toEqual([name, false]);
      expect(reason.length).toBeGreaterThan(20);
    }
  });
});

// Markers the struct builder or the CRD assembly apply (not a per-node schema handler): required/optional, OneOf,
// k8s:enum, k8s:immutable, Schemaless, and the CRD-level markers. Each name must appear in the code that applies it.
const APPLIED_ELSEWHERE: Record<string, string> = {
  'kubebuilder:validation:Required': 'type-schemas.ts',
  'kubebuilder:validation:Optional': 'type-schemas.ts',
  required: 'type-schemas.ts',
  optional: 'type-schemas.ts',
  'k8s:required': 'type-schemas.ts',
  'k8s:optional': 'type-schemas.ts',
  'kubebuilder:validation:Schemaless': 'type-schemas.ts',
  'k8s:immutable': 'type-schemas.ts',
  'k8s:enum': 'type-schemas.ts',
  'kubebuilder:validation:AtMostOneOf': 'type-schemas.ts',
  'kubebuilder:validation:ExactlyOneOf': 'type-schemas.ts',
  'kubebuilder:validation:AtLeastOneOf': 'type-schemas.ts',
  'kubebuilder:subresource:status': 'build.ts',
  'kubebuilder:subresource:scale': 'build.ts',
  'kubebuilder:printcolumn': 'build.ts',
  'kubebuilder:resource': 'build.ts',
  'kubebuilder:storageversion': 'build.ts',
  'kubebuilder:skipversion': 'build.ts',
  'kubebuilder:unservedversion': 'build.ts',
  'kubebuilder:deprecatedversion': 'build.ts',
  'kubebuilder:metadata': 'build.ts',
  'kubebuilder:selectablefield': 'build.ts',
};

describe('every CRD marker of the catalogue has an effect on the output', () => {
  const crdMarkers = markerCatalogue().definitions.filter((d) => d.category.startsWith('CRD') && d.target !== 'package');
  it.each([...new Set(crdMarkers.map((d) => d.name))])('+%s', (name) => {
    if (isSchemaMarker(name)) return;
    const file = APPLIED_ELSEWHERE[name];
    expect([name, file]).toEqual([name, expect.any(String)]);
    expect(readFileSync(join(here, '../generate/crd', file!), 'utf8')).toContain(`'${name}'`);
  });
});
