/**
 * The known-Kubernetes-types catalogue: the schema controller-gen emits wherever a field uses a Kubernetes
 * type (`meta/v1.Time`, `batch/v1.JobTemplateSpec`, `core/v1.Taint`, ...), keyed `<group>/<version>.<Type>`.
 * Types controller-gen hard-codes (§4.3 of the spec: Time, Quantity, IntOrString, RawExtension, JSON,
 * ObjectMeta, ...) are written here; every other type is rendered on first use from Kubernetes' own 1.32
 * OpenAPI definition of it (from-definitions.ts), the source the local cluster's schemas come from.
 */
import type { Schema } from '../schema.js';
import { definitionsByKey } from './definition-names.js';
import { intOrStringSchema, quantitySchema, renderKubernetesType } from './from-definitions.js';
import { GO_NAMED_MAPS, GO_NAMED_TYPES } from './go-named-types.js';

export { embeddedObjectMetaSchema } from './from-definitions.js';

export interface KnownType {
  /** The type's own doc (used when the referencing field has none); '' when unknown. */
  description: string;
  schema: Schema;
}

/** Types controller-gen hard-codes (known_types.go) rather than reading from Go sources. */
const SPECIAL: Record<string, () => Schema> = {
  'meta/v1.Time': () => ({ type: 'string', format: 'date-time' }),
  'meta/v1.MicroTime': () => ({ type: 'string', format: 'date-time' }),
  'meta/v1.Duration': () => ({ type: 'string' }),
  'meta/v1.Fields': () => ({ type: 'object', additionalProperties: true }),
  'meta/v1.ObjectMeta': () => ({ type: 'object' }),
  'meta/v1.ListMeta': () => ({ type: 'object' }),
  'api/resource.Quantity': quantitySchema,
  'util/intstr.IntOrString': intOrStringSchema,
  'runtime.RawExtension': () => ({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
  'apiextensions/v1.JSON': () => ({ 'x-kubernetes-preserve-unknown-fields': true }),
  'unstructured.Unstructured': () => ({ type: 'object' }),
};

/** How the types nested inside a known type are rendered. */
export interface KnownTypeOptions {
  /** Nested ObjectMeta (a JobTemplateSpec's or PodTemplateSpec's `metadata`) keeps its main fields (§4.3). */
  generateEmbeddedObjectMeta?: boolean;
}

/**
 * The schema of a known type, or undefined when the catalogue lacks it. Each call gets its own top-level
 * node to change; the nested schemas are shared between calls and frozen.
 */
export function knownType(key: string, options: KnownTypeOptions = {}): KnownType | undefined {
  const special = Object.hasOwn(SPECIAL, key) ? SPECIAL[key] : undefined;
  if (special) return { description: '', schema: special() };
  const named = GO_NAMED_TYPES.get(key);
  if (named) return { description: named.doc, schema: named.schema() };
  if (Object.hasOwn(GO_NAMED_MAPS, key)) {
    const [doc, valueKey] = GO_NAMED_MAPS[key]!;
    return { description: doc, schema: { type: 'object', additionalProperties: knownType(valueKey)!.schema } };
  }
  const rendered = renderKubernetesType(key, { generateEmbeddedObjectMeta: options.generateEmbeddedObjectMeta ?? false });
  return rendered && { description: rendered.description, schema: { ...rendered.schema } };
}

/** Every key the catalogue can resolve (for error messages and tests). */
export function knownTypeKeys(): string[] {
  return [...new Set([...Object.keys(SPECIAL), ...GO_NAMED_TYPES.keys(), ...Object.keys(GO_NAMED_MAPS), ...definitionsByKey().keys()])].sort();
}

/** True when `key` is one the catalogue resolves, without rendering it. */
export function isKnownTypeKey(key: string): boolean {
  return Object.hasOwn(SPECIAL, key) || GO_NAMED_TYPES.has(key) || Object.hasOwn(GO_NAMED_MAPS, key) || definitionsByKey().has(key);
}

/** Doc text of the TypeMeta fields every kind inlines (§4.3). */
export const TYPE_META_DESCRIPTIONS = {
  apiVersion:
    'APIVersion defines the versioned schema of this representation of an object.\nServers should convert recognized schemas to the latest internal value, and\nmay reject unrecognized values.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  kind: 'Kind is a string value representing the REST resource this object represents.\nServers may infer this from the endpoint the client submits requests to.\nCannot be updated.\nIn CamelCase.\nMore info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
};

/** Schema of `meta/v1.TypeMeta` when embedded (extends TypeMeta). */
export function typeMetaSchema(): Schema {
  return {
    type: 'object',
    properties: {
      apiVersion: { description: TYPE_META_DESCRIPTIONS.apiVersion, type: 'string' },
      kind: { description: TYPE_META_DESCRIPTIONS.kind, type: 'string' },
    },
  };
}
