import { suggestedFix } from './marker-fixes.js';

describe('suggestedFix', () => {
  it('replaces a misspelled marker name by the suggested one', () => {
    const text = 'interface S {\n  // +kubebuilder:validation:Minimun=0\n  a?: int32;\n}\n';
    const start = text.indexOf('+');
    const fix = suggestedFix(text, start, 'unknown marker "+kubebuilder:validation:Minimun" (did you mean "+kubebuilder:validation:Minimum"?)');
    expect(fix).toEqual({ start, length: '+kubebuilder:validation:Minimun'.length, newText: '+kubebuilder:validation:Minimum', description: 'Change to "+kubebuilder:validation:Minimum"' });
  });

  it('replaces a misspelled prefix (the typo before the last segment)', () => {
    const text = '// +kubebuilder:rbca:groups=apps,resources=pods,verbs=get\n';
    const fix = suggestedFix(text, 3, 'unknown marker "+kubebuilder:rbca" (did you mean "+kubebuilder:rbac"?)')!;
    expect(text.slice(0, fix.start) + fix.newText + text.slice(fix.start + fix.length)).toBe('// +kubebuilder:rbac:groups=apps,resources=pods,verbs=get\n');
  });

  it('replaces a misspelled argument name on the marker line', () => {
    const text = '// +kubebuilder:rbac:groups=apps,resources=pods,verbs=get,namspace=default\nconst namspace = 1;\n';
    const message = 'marker "+kubebuilder:rbac:groups=apps,resources=pods,verbs=get,namspace=default": unknown argument "namspace" (did you mean "namespace"?)';
    const fix = suggestedFix(text, 3, message)!;
    expect(text.slice(0, fix.start) + fix.newText + text.slice(fix.start + fix.length)).toBe(text.replace(',namspace=', ',namespace='));
    expect(fix.description).toBe('Change argument "namspace" to "namespace"');
  });

  it('suggests nothing for other diagnostics', () => {
    expect(suggestedFix('// +kubebuilder:validation:MaxLength=ten', 3, 'marker "+kubebuilder:validation:MaxLength=ten": expected integer, got "ten"')).toBeUndefined();
    expect(suggestedFix('// +other', 3, 'unknown marker "+kubebuilder:foo" (did you mean "+kubebuilder:skip"?)')).toBeUndefined();
  });
  it('fixes a marker controller-gen ignores the way its warning suggests (+optional. → +optional)', () => {
    const text = '  // +optional.\n  tags?: string[];';
    const fix = suggestedFix(text, 5, 'unknown marker "+optional." (did you mean "+optional"?); controller-gen ignores it');
    expect(fix).toEqual({ start: 5, length: 10, newText: '+optional', description: 'Change to "+optional"' });
  });
});
