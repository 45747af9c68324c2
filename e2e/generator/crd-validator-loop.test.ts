// The loop the README shows: markers with CEL rules → `kubeforge manifests` → crdValidator on the generated CRD
// file → unit tests of the rules and schema constraints, without a server. The README's example test, verbatim.
import { join } from 'node:path';
import { crdValidator } from '../../src/testing/index.js';
import { makeProject, removeProjects, runCli } from './cli-harness.js';

afterAll(removeProjects);

/** The README's API (api/v1/widget_types.ts). */
const widgetTypes = `import type { int32, ObjectMeta, ListMeta } from 'kubeforge/api';

/** WidgetSpec defines the desired state of Widget. */
// +kubebuilder:validation:XValidation:rule="self.replicas <= 5 || self.image.startsWith('big/')",messageExpression="'only big/ images may run ' + string(self.replicas) + ' replicas'"
export interface WidgetSpec {
  /** Image to run. */
  // +kubebuilder:validation:MaxLength=63
  // +kubebuilder:validation:XValidation:rule="self == oldSelf",message="image is immutable"
  image: string;

  /** Number of replicas. */
  // +kubebuilder:validation:Maximum=10
  // +kubebuilder:default=1
  replicas?: int32;
}

/** Widget is the Schema for the widgets API. */
// +kubebuilder:object:root=true
export interface Widget {
  apiVersion: 'batch.example.com/v1';
  kind: 'Widget';
  metadata?: ObjectMeta;
  spec?: WidgetSpec;
}

/** WidgetList contains a list of Widget. */
// +kubebuilder:object:root=true
export interface WidgetList {
  apiVersion: 'batch.example.com/v1';
  kind: 'WidgetList';
  metadata?: ListMeta;
  items: Widget[];
}
`;

let crdPath = '';

beforeAll(async () => {
  const project = makeProject('good', { 'api/v1/widget_types.ts': widgetTypes });
  const result = await runCli(['manifests', '--root', project]);
  expect(result.stderr).toBe('');
  crdPath = join(project, 'config/crd/bases/batch.example.com_widgets.yaml');
});

// --- the README's test, with the path of the made project ---
const widget = (spec: object) => ({ apiVersion: 'batch.example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec });

test('more than five replicas need a big/ image', () => {
  const widgets = crdValidator(crdPath);
  expect(widgets.validate(widget({ image: 'big/app', replicas: 8 })).allowed).toBe(true);
  expect(widgets.validate(widget({ image: 'app', replicas: 8 })).errors.map((e) => e.text)).toEqual([
    'spec: Invalid value: "object": only big/ images may run 8 replicas',
  ]);
  // replicas defaults to 1 before the rule runs
  expect(widgets.validate(widget({ image: 'app' })).object?.spec).toEqual({ image: 'app', replicas: 1 });
});

test('the image cannot change, and replicas stay at most 10', () => {
  const widgets = crdValidator(crdPath);
  const old = widget({ image: 'big/app' });
  expect(widgets.validateUpdate(widget({ image: 'big/app2', replicas: 11 }), old).errors.map((e) => e.text)).toEqual([
    'spec.replicas: Invalid value: 11: spec.replicas in body should be less than or equal to 10',
    'spec.image: Invalid value: "string": image is immutable',
  ]);
});
