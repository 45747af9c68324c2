import { findMarker } from '../markers/catalogue.js';
import { markerHover } from './marker-hover.js';

describe('markerHover', () => {
  it("gives a value marker's syntax and catalogue help, spanning its name", () => {
    const help = markerHover('+kubebuilder:validation:MinLength=1')!;
    expect(help.syntax).toBe('+kubebuilder:validation:MinLength=<int>');
    expect(help.nameLength).toBe('+kubebuilder:validation:MinLength'.length);
    expect(help.documentation.toLowerCase()).toContain(findMarker('kubebuilder:validation:MinLength')!.summary.toLowerCase());
    expect(help.documentation).toContain('Stands on: field, type');
  });

  it('finds a marker with named arguments by its name without the first argument, and lists the arguments', () => {
    const help = markerHover('+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get')!;
    expect(help.nameLength).toBe('+kubebuilder:rbac'.length);
    expect(help.documentation).toContain('- `verbs=<[]string>` (required)');
    expect(help.documentation).toContain('- `namespace=<string>` (optional)');
  });

  it('knows nothing of names outside the catalogue', () => {
    expect(markerHover('+kubebuilder:validation:Minimun=0')).toBeUndefined();
    expect(markerHover('+genclient')).toBeUndefined();
  });
});
