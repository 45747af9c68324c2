import { findMarker, markerCatalogue } from '../markers/catalogue.js';
import { markerCompletions } from './marker-completions.js';

describe('markerCompletions', () => {
  it('offers the names that may stand on the target, replacing what was typed after `+`', () => {
    const typed = 'kubebuilder:validation:';
    const found = markerCompletions(typed, 'field');
    const names = found.entries.map((e) => e.name);
    const expected = new Set(markerCatalogue().definitions.filter((d) => d.target === 'field').map((d) => d.name));
    expect(new Set(names)).toEqual(expected);
    expect(names).toContain('kubebuilder:validation:Minimum');
    expect(names).not.toContain('kubebuilder:object:root');
    expect(found.replaceLength).toBe(typed.length);
    expect(found.entries.find((e) => e.name === 'kubebuilder:validation:Minimum')!.summary).toBe(findMarker('kubebuilder:validation:Minimum', 'field')!.summary);
  });

  it('offers every name once when the target is not known, and marks deprecated ones', () => {
    const names = markerCompletions('', undefined).entries.map((e) => e.name);
    expect(names.length).toBe(new Set(markerCatalogue().definitions.map((d) => d.name)).size);
    expect(names).toEqual(expect.arrayContaining(['groupName', 'kubebuilder:object:root', 'optional']));
    const deprecated = markerCompletions('', 'field').entries.find((e) => e.name === 'kubebuilder:validation:XPreserveUnknownFields');
    expect(deprecated?.deprecated).toBe(true);
  });

  it("offers a marker's arguments not given yet, inserting `name=`", () => {
    const found = markerCompletions('kubebuilder:rbac:groups=apps,resources=deployments,ve', 'package');
    const names = found.entries.map((e) => e.name);
    expect(names).toEqual(expect.arrayContaining(['verbs', 'namespace', 'urls']));
    expect(names).not.toContain('groups');
    expect(names).not.toContain('resources');
    expect(found.replaceLength).toBe(2);
    expect(found.entries.find((e) => e.name === 'verbs')!.insertText).toBe('verbs=');
  });

  it('offers true and false for a boolean value, and nothing for other values', () => {
    const root = markerCompletions('kubebuilder:object:root=t', 'type');
    expect(root.entries.map((e) => e.name)).toEqual(['true', 'false']);
    expect(root.replaceLength).toBe(1);
    expect(markerCompletions('kubebuilder:validation:Minimum=', 'field').entries).toEqual([]);
  });
});
