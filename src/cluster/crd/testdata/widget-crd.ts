/**
 * The Widget CRD the CRD and CEL tests build their cases on (widgets.example.com, namespaced, one served and
 * stored version v1), and a Widget: one definition instead of a copy per test file.
 */

export type Schema = Record<string, unknown>;

/** The CRD with `openAPIV3Schema` as v1's schema; `extraSpec` adds to (or replaces) the CRD's spec fields. */
export function widgetCrd<S extends Schema>(openAPIV3Schema: S, extraSpec: Record<string, unknown> = {}) {
  return widgetCrdWithVersions([{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema } }], extraSpec);
}

/** The CRD with the given versions. */
export function widgetCrdWithVersions<V>(versions: V[], extraSpec: Record<string, unknown> = {}) {
  return {
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions,
      ...extraSpec,
    },
  };
}

/** The root schema of a kind whose `spec` has the schema `spec`. */
export const withSpec = (spec: Schema) => ({ type: 'object', properties: { spec } });

/** A v1 Widget named `name` with `spec`. */
export const widget = (spec: Record<string, unknown>, name = 'w') => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name }, spec });
