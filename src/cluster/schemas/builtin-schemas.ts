/**
 * The OpenAPI v3 schemas of the built-in kinds (Kubernetes v1.32, pre-computed by
 * scripts/extract-builtin-schemas.mjs): lookup by definition name or by group/version/kind, reference
 * resolution, and the set of definitions a schema reaches (for the /openapi/v3 documents).
 */
import { BUILTIN_DEFINITION_SOURCES } from './builtin-definitions.generated.js';

/** An OpenAPI v3 schema as kube-apiserver publishes it: the fields read here, and any other keyword or extension. */
export interface Schema {
  type?: string;
  format?: string;
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema;
  allOf?: Schema[];
  $ref?: string;
  required?: string[];
  enum?: unknown[];
  default?: unknown;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  [keyword: string]: unknown;
}

const parsed = new Map<string, Schema>();
const refPrefix = '#/components/schemas/';

export const objectMetaDefinition = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';

/** The definition named `name` (kube-apiserver's name, e.g. `io.k8s.api.core.v1.Container`), if known. */
export function builtinDefinition(name: string): Schema | undefined {
  let schema = parsed.get(name);
  if (schema) return schema;
  const source = BUILTIN_DEFINITION_SOURCES[name];
  if (source === undefined) return undefined;
  schema = JSON.parse(source) as Schema;
  parsed.set(name, schema);
  return schema;
}

/** kube-apiserver's definition name for a built-in kind: io.k8s.api.<group>.<version>.<Kind> and friends. */
export function definitionName(group: string, version: string, kind: string): string {
  if (group === 'apiextensions.k8s.io') return `io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.${version}.${kind}`;
  if (group === 'apiregistration.k8s.io') return `io.k8s.kube-aggregator.pkg.apis.apiregistration.${version}.${kind}`;
  const short = group === '' ? 'core' : group.replace(/\.k8s\.io$/, '').replace(/\.(authorization|apiserver)$/, '');
  return `io.k8s.api.${short}.${version}.${kind}`;
}

/** The definition a property points at (`$ref` or `allOf: [{$ref}]`), or undefined for an inline schema. */
export function referencedName(schema: Schema): string | undefined {
  const ref: unknown = schema.$ref ?? (Array.isArray(schema.allOf) && schema.allOf.length === 1 ? schema.allOf[0]?.$ref : undefined);
  return typeof ref === 'string' && ref.startsWith(refPrefix) ? ref.slice(refPrefix.length) : undefined;
}

/** Every definition name reachable from `schema` (through nested properties, items and references). */
export function reachableDefinitions(schema: Schema, into = new Set<string>()): Set<string> {
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(refPrefix)) {
        const name = value.slice(refPrefix.length);
        if (into.has(name)) continue;
        const target = builtinDefinition(name);
        if (!target) continue;
        into.add(name);
        visit(target);
      } else visit(value);
    }
  };
  visit(schema);
  return into;
}
