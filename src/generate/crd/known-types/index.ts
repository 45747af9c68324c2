/**
 * The known-Kubernetes-types catalogue: the schema controller-gen emits wherever a field uses a Kubernetes
 * type (`meta/v1.Time`, `batch/v1.JobTemplateSpec`, ...). Special-cased types (§4.3 of the spec: Time,
 * Quantity, IntOrString, RawExtension, JSON, ObjectMeta, ...) are written here; the big generated ones come
 * from catalogue.generated.ts (see scripts/extract-known-types.mjs).
 */
import { freezeDeep, type Schema } from '../schema.js';
import { KNOWN_TYPE_SOURCES } from './catalogue.generated.js';

export interface KnownType {
  /** The type's own doc (used when the referencing field has none); '' when unknown. */
  description: string;
  schema: Schema;
}

const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

const INT_OR_STRING: Schema = { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };

/** Types controller-gen hard-codes (known_types.go) rather than reading from Go sources. */
const SPECIAL: Record<string, () => Schema> = {
  'meta/v1.Time': () => ({ type: 'string', format: 'date-time' }),
  'meta/v1.MicroTime': () => ({ type: 'string', format: 'date-time' }),
  'meta/v1.Duration': () => ({ type: 'string' }),
  'meta/v1.Fields': () => ({ type: 'object', additionalProperties: true }),
  'meta/v1.ObjectMeta': () => ({ type: 'object' }),
  'meta/v1.ListMeta': () => ({ type: 'object' }),
  'api/resource.Quantity': () => ({ ...structuredClone(INT_OR_STRING), pattern: QUANTITY_PATTERN }),
  'util/intstr.IntOrString': () => structuredClone(INT_OR_STRING),
  'runtime.RawExtension': () => ({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
  'apiextensions/v1.JSON': () => ({ 'x-kubernetes-preserve-unknown-fields': true }),
  'unstructured.Unstructured': () => ({ type: 'object' }),
};

/** ObjectMeta below the root with `generateEmbeddedObjectMeta` (§4.3). */
export function embeddedObjectMetaSchema(): Schema {
  const stringMap = (): Schema => ({ type: 'object', additionalProperties: { type: 'string' } });
  return {
    type: 'object',
    properties: {
      annotations: stringMap(),
      finalizers: { type: 'array', items: { type: 'string' } },
      labels: stringMap(),
      name: { type: 'string' },
      namespace: { type: 'string' },
    },
  };
}

const parsed = new Map<string, { description?: string; schema: Schema }>();

function parsedEntry(key: string): { description?: string; schema: Schema } | undefined {
  let entry = parsed.get(key);
  if (!entry) {
    const source = KNOWN_TYPE_SOURCES[key];
    if (source === undefined) return undefined;
    entry = JSON.parse(source) as { description?: string; schema: Schema };
    parsed.set(key, entry);
  }
  return entry;
}

/** How references inside catalogue schemas are expanded. */
export interface KnownTypeOptions {
  /** Nested ObjectMeta (a JobTemplateSpec's or PodTemplateSpec's `metadata`) keeps its main fields (§4.3). */
  generateEmbeddedObjectMeta?: boolean;
}

/**
 * Expanded schemas by key and options: built once, frozen, and shared by every use (a PodTemplateSpec is
 * big). Two variants at most: with and without embedded ObjectMeta fields.
 */
const expanded = new Map<string, Schema>();

function expandedSchema(key: string, options: KnownTypeOptions): Schema | undefined {
  const embedded = options.generateEmbeddedObjectMeta ?? false;
  const cacheKey = `${embedded ? 'embedded' : 'plain'}:${key}`;
  let schema = expanded.get(cacheKey);
  if (!schema) {
    if (key === 'meta/v1.ObjectMeta') schema = freezeDeep(embedded ? embeddedObjectMetaSchema() : SPECIAL[key]!());
    else {
      const entry = parsedEntry(key);
      if (!entry) return undefined;
      schema = freezeDeep(expand(entry.schema, options) as Schema);
    }
    expanded.set(cacheKey, schema);
  }
  return schema;
}

/** Replaces `{ $known: key, description? }` nodes by the referenced schema (description of the use site kept). */
function expand(node: unknown, options: KnownTypeOptions): unknown {
  if (Array.isArray(node)) return node.map((item) => expand(item, options));
  if (node === null || typeof node !== 'object') return node;
  const record = node as Record<string, unknown>;
  if (typeof record.$known === 'string') {
    const schema = expandedSchema(record.$known, options);
    if (!schema) throw new Error(`known-types catalogue: dangling reference ${record.$known}`);
    return record.description ? { description: record.description, ...schema } : schema;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) out[k] = expand(v, options);
  return out;
}

/**
 * The schema of a known type, or undefined when the catalogue lacks it. Each call gets its own top-level
 * node to change; the nested schemas are shared between calls and frozen.
 */
export function knownType(key: string, options: KnownTypeOptions = {}): KnownType | undefined {
  const special = SPECIAL[key];
  if (special) return { description: '', schema: special() };
  const entry = parsedEntry(key);
  if (!entry) return undefined;
  return { description: entry.description ?? '', schema: { ...expandedSchema(key, options)! } };
}

/** Every key the catalogue can resolve (for error messages). */
export function knownTypeKeys(): string[] {
  return [...Object.keys(SPECIAL), ...Object.keys(KNOWN_TYPE_SOURCES)].sort();
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
