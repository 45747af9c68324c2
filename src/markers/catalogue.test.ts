import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findMarker, findMarkerDefinitions, isIgnoredMarkerName, loadCatalogue, markerCatalogue } from './catalogue.js';

/** Every marker controller-gen v0.21.0 registers for crd/rbac/webhook/object, with its targets. */
const EXPECTED: Record<string, string[]> = {
  groupName: ['package'],
  versionName: ['package'],
  'kubebuilder:skip': ['package'],
  'kubebuilder:subresource:status': ['type'],
  'kubebuilder:subresource:scale': ['type'],
  'kubebuilder:printcolumn': ['type'],
  'kubebuilder:resource': ['type'],
  'kubebuilder:storageversion': ['type'],
  'kubebuilder:skipversion': ['type'],
  'kubebuilder:unservedversion': ['type'],
  'kubebuilder:deprecatedversion': ['type'],
  'kubebuilder:metadata': ['type'],
  'kubebuilder:selectablefield': ['type'],
  'kubebuilder:externalDocs': ['field', 'type'],
  'k8s:enum': ['type', 'field'],
  'kubebuilder:validation:Optional': ['package', 'field'],
  'kubebuilder:validation:Required': ['package', 'field'],
  optional: ['field'],
  required: ['field'],
  'k8s:optional': ['field'],
  'k8s:required': ['field'],
  nullable: ['field'],
  'kubebuilder:default': ['field'],
  default: ['field'],
  'kubebuilder:example': ['field'],
  'kubebuilder:title': ['field', 'type'],
  'kubebuilder:validation:EmbeddedResource': ['field'],
  'kubebuilder:validation:Schemaless': ['field'],
  'k8s:immutable': ['field'],
  'kubebuilder:validation:AtMostOneOf': ['type'],
  'kubebuilder:validation:ExactlyOneOf': ['type'],
  'kubebuilder:validation:AtLeastOneOf': ['type'],
  listType: ['field', 'type'],
  listMapKey: ['field', 'type'],
  mapType: ['field', 'type'],
  structType: ['field', 'type'],
  'kubebuilder:pruning:PreserveUnknownFields': ['field', 'type'],
  'kubebuilder:rbac': ['package'],
  'kubebuilder:webhook': ['package'],
  'kubebuilder:webhookconfiguration': ['package'],
  'kubebuilder:object:generate': ['package', 'type'],
  'kubebuilder:object:root': ['type'],
  'k8s:deepcopy-gen': ['package', 'type'],
  'k8s:deepcopy-gen:interfaces': ['type'],
};
const VALIDATION = ['Maximum', 'Minimum', 'ExclusiveMaximum', 'ExclusiveMinimum', 'MultipleOf', 'MaxLength', 'MinLength', 'Pattern', 'MaxItems', 'MinItems', 'UniqueItems', 'MaxProperties', 'MinProperties', 'Enum', 'Format', 'Type', 'XPreserveUnknownFields', 'XEmbeddedResource', 'XIntOrString', 'XValidation'];
for (const name of VALIDATION) {
  EXPECTED[`kubebuilder:validation:${name}`] = ['field', 'type'];
  EXPECTED[`kubebuilder:validation:items:${name}`] = ['field', 'type'];
}

describe('marker catalogue', () => {
  it.each(Object.entries(EXPECTED))('defines %s for %j', (name, targets) => {
    expect(findMarkerDefinitions(name).map((d) => d.target).sort()).toEqual([...targets].sort());
  });

  it('gives every definition a category and summary, and every argument a type', () => {
    for (const d of markerCatalogue().definitions) {
      expect(d.category).not.toBe('');
      expect(d.summary).not.toBe('');
      for (const a of d.args) expect(a.type).toMatch(/^(string|int|number|bool|any|json|raw|\[\](string|int|any))$/);
    }
  });

  it('records argument types, required-ness and defaults', () => {
    const webhook = findMarker('kubebuilder:webhook', 'package')!;
    const arg = (n: string) => webhook.args.find((a) => a.name === n);
    expect(arg('mutating')).toMatchObject({ type: 'bool', optional: false });
    expect(arg('timeoutSeconds')).toMatchObject({ type: 'int', optional: true });
    expect(arg('serviceName')).toMatchObject({ optional: true, default: 'webhook-service' });
    expect(findMarker('groupName', 'package')!.args[0]).toMatchObject({ name: '', type: 'string', optional: true });
    expect(findMarker('kubebuilder:validation:items:Maximum', 'field')!.summary).toMatch(/^for array items /);
  });

  it("knows other tools' markers", () => {
    expect(isIgnoredMarkerName('genclient')).toBe(true);
    expect(isIgnoredMarkerName('kubebuilder:scaffold:imports')).toBe(true);
    expect(isIgnoredMarkerName('kubebuilder:validation:Minimum')).toBe(false);
  });

  it('rejects bad catalogue data naming the file and entry', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalogue-'));
    const write = (markers: unknown[]) => writeFileSync(join(dir, 'bad.json'), JSON.stringify({ category: 'X', markers }));
    write([{ name: 'foo', targets: ['field'], summary: 's', value: { type: 'float' } }]);
    expect(() => loadCatalogue(dir)).toThrow(/bad\.json: markers\[0\] \(foo\)\.value: unknown argument type "float"/);
    write([{ name: 'foo', targets: ['struct'], summary: 's' }]);
    expect(() => loadCatalogue(dir)).toThrow(/targets must be a non-empty list/);
    writeFileSync(join(dir, 'bad.json'), '{ "category": ');
    expect(() => loadCatalogue(dir)).toThrow(/bad\.json: /);
  });
});
