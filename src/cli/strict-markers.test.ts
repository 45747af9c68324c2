// Issue 16: a marker controller-gen ignores is a warning that does not stop `manifests` (or `generate`);
// `--strict-markers` (on in the scaffolded Makefile) makes it an error; a typo of a known marker is an error either way.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { finishGeneratorRun, type RunOutput } from './generator-run.js';
import { planGenerate } from './generate.js';
import { planManifests } from './manifests.js';
import { writeProject } from '../generate/crd/fixtures/temp-project.js';

const TYPES = (fieldMarker: string): string => `import type { ObjectMeta } from 'kubeforge/api';

export interface WidgetSpec {
  // +kubebuilder:validation:MinItems=1
  ${fieldMarker}
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

function capture(): RunOutput & { errLines: string[]; outLines: string[] } {
  const errLines: string[] = [];
  const outLines: string[] = [];
  return { errLines, outLines, err: (l) => errLines.push(l), out: (l) => outLines.push(l) };
}

describe('markers controller-gen ignores', () => {
  let root: string | undefined;
  afterEach(() => {
    if (root) rmSync(root, { recursive: true, force: true });
    root = undefined;
  });

  it('are warnings with file:line:col and did-you-mean; manifests and generate still write', async () => {
    root = writeProject({ 'api/v1/widget_types.ts': TYPES('// +kubebuilder:validation:UniqueItems:true')});
    const output = capture();
    expect(await finishGeneratorRun(await planManifests({ root }), output)).toBe(0);
    expect(output.errLines).toEqual([
      'api/v1/widget_types.ts:5:6: warning: unknown marker "+kubebuilder:validation:UniqueItems:true" (did you mean "+kubebuilder:validation:UniqueItems=true"?); controller-gen ignores it',
    ]);
    expect(existsSync(join(root, 'config/crd/bases/toys.example.com_widgets.yaml'))).toBe(true);
    const generated = capture();
    expect(await finishGeneratorRun(await planGenerate({ root }), generated)).toBe(0);
    expect(generated.errLines).toHaveLength(1);
    expect(existsSync(join(root, 'api/v1/zz_generated.deepcopy.ts'))).toBe(true);
  });

  it('are errors with --strict-markers, and nothing is written', async () => {
    root = writeProject({ 'api/v1/widget_types.ts': TYPES('// +optional.') });
    const output = capture();
    expect(await finishGeneratorRun(await planManifests({ root, strictMarkers: true }), output)).toBe(1);
    expect(output.errLines).toEqual([
      'api/v1/widget_types.ts:5:6: unknown marker "+optional." (did you mean "+optional"?); controller-gen ignores it (an error with --strict-markers)',
      'kubeforge manifests: 1 error; no file was written',
    ]);
    expect(existsSync(join(root, 'config'))).toBe(false);
    expect(await finishGeneratorRun(await planGenerate({ root, strictMarkers: true }), capture())).toBe(1);
  });

  it('a typo of a known marker is an error without --strict-markers', async () => {
    root = writeProject({ 'api/v1/widget_types.ts': TYPES('// +kubebuilder:validation:MaxItmes=3') });
    const output = capture();
    expect(await finishGeneratorRun(await planManifests({ root }), output)).toBe(1);
    expect(output.errLines[0]).toBe(
      'api/v1/widget_types.ts:5:6: unknown marker "+kubebuilder:validation:MaxItmes" (did you mean "+kubebuilder:validation:MaxItems"?)',
    );
  });
});
