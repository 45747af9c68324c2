// In the editor, a marker controller-gen ignores is a TypeScript warning, and an error when the project's
// Makefile runs `kubeforge manifests --strict-markers` (as the scaffold does) — what `make manifests` would do.
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';
import { writeProject } from '../generate/crd/fixtures/temp-project.js';
import { apiDiagnostics, projectApiFiles } from './marker-diagnostics.js';
import { toTsDiagnostic } from './ts-diagnostic.js';

const TYPES = `import type { ObjectMeta } from 'kubeforge/api';

export interface WidgetSpec {
  // +optional.
  tags?: string[];
}

// +kubebuilder:object:root=true
export interface Widget {
  apiVersion: 'toys.example.com/v1';
  kind: 'Widget';
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}
`;

function categories(root: string): Array<[string, ts.DiagnosticCategory]> {
  const read = (abs: string): string => fs.readFileSync(abs, 'utf8');
  return apiDiagnostics(root, projectApiFiles(root), read).map((d) => {
    const text = read(path.join(root, d.position.file));
    return [d.message, toTsDiagnostic(ts, text, d, undefined).category];
  });
}

describe('markers controller-gen ignores, in the editor', () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));

  it('are warnings', () => {
    const root = writeProject({ 'api/v1/widget_types.ts': TYPES, Makefile: 'manifests:\n\t$(KUBEFORGE) manifests\n' });
    roots.push(root);
    expect(categories(root)).toEqual([
      ['unknown marker "+optional." (did you mean "+optional"?); controller-gen ignores it', ts.DiagnosticCategory.Warning],
    ]);
  });

  it('are errors when the Makefile runs manifests --strict-markers', () => {
    const root = writeProject({ 'api/v1/widget_types.ts': TYPES, Makefile: 'manifests:\n\t$(KUBEFORGE) manifests --strict-markers\n' });
    roots.push(root);
    expect(categories(root)).toEqual([
      ['unknown marker "+optional." (did you mean "+optional"?); controller-gen ignores it (an error with --strict-markers)', ts.DiagnosticCategory.Error],
    ]);
  });
});
