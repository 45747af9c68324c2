/**
 * The schema controller-gen emits for a Kubernetes type, derived at run time from Kubernetes' own 1.32 OpenAPI
 * definition of it (the definitions the local cluster serves, and the meta/v1 ones they do not reach), one type
 * at a time, on first use, cached.
 *
 * controller-gen renders a k8s.io/api Go type from its Go source; kube-openapi rendered the same source into
 * the OpenAPI definition, so the two agree on names, types, int32/int64/byte/date-time formats, `required`,
 * `+default` values, `+listType`/`+listMapKey`/`+mapType`/`+structType` and the doc text. This module undoes
 * what kube-openapi adds and controller-gen does not emit:
 *   - references (`$ref`, `allOf: [{$ref}]`) are inlined: the field's doc wins, else the referenced type's
 *     doc (so array items and map values of a struct type carry the type's doc, as controller-gen's do);
 *   - patch strategy and merge key, group-version-kind, `enum` (controller-gen ignores `+enum`), the
 *     "Possible enum values" paragraph kube-openapi appends to descriptions, and `format: double`
 *     (controller-gen gives float64 no format) are dropped;
 *   - Quantity and IntOrString take controller-gen's hard-coded forms (anyOf integer/string,
 *     x-kubernetes-int-or-string, Quantity's pattern), ObjectMeta below the root is `type: object` (or the
 *     five fields of `generateEmbeddedObjectMeta`), a Protocol-typed field defaults to TCP
 *     (controller-gen's known-type override for corev1.Protocol), runtime.RawExtension is an object that
 *     keeps unknown fields.
 * Fields the definitions carry without their own doc get it from missing-field-docs.generated.ts (kubernetes-types'
 * text of the same field), and markers the definitions lack from go-markers.ts.
 * What cannot be recovered: Go's line breaks inside a paragraph (OpenAPI joins a paragraph's lines with
 * spaces, controller-gen keeps them), and the doc of a named string type used as an array item (the
 * definitions do not name the Go type of a string; the few that carry a doc are listed in ITEM_TYPE_DOCS).
 */
import { byteCompare, freezeDeep, type Schema } from '../schema.js';
import { definitionsByKey, definitionSource } from './definition-names.js';
import { GO_MARKERS } from './go-markers.js';
import { MISSING_FIELD_DOCS } from './missing-field-docs.generated.js';

/** A definition as kube-openapi wrote it (JSON). */
type OpenApiNode = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';
const OBJECT_META = 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const INT_OR_STRING = 'io.k8s.apimachinery.pkg.util.intstr.IntOrString';

const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

/** controller-gen's schema of intstr.IntOrString. */
export function intOrStringSchema(): Schema {
  return { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };
}

/** controller-gen's schema of resource.Quantity. */
export function quantitySchema(): Schema {
  return { ...intOrStringSchema(), pattern: QUANTITY_PATTERN };
}

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

/** Fields typed `corev1.Protocol` (controller-gen's known_types.go gives that type `default: TCP`). */
const PROTOCOL_FIELDS = new Set([
  'io.k8s.api.core.v1.ContainerPort.protocol',
  'io.k8s.api.core.v1.ServicePort.protocol',
  'io.k8s.api.core.v1.EndpointPort.protocol',
  'io.k8s.api.core.v1.PortStatus.protocol',
  'io.k8s.api.discovery.v1.EndpointPort.protocol',
  'io.k8s.api.networking.v1.NetworkPolicyPort.protocol',
]);

/**
 * Fields whose Go type the definition hides behind `x-kubernetes-preserve-unknown-fields` and that
 * controller-gen renders from the Go type instead: runtime.RawExtension (`type: object` plus unknown
 * fields kept), and structs whose fields are all `json:"-"` (metav1.FieldsV1, an empty status struct).
 */
const GO_TYPED_FIELDS: Record<string, () => Schema> = {
  'io.k8s.api.apps.v1.ControllerRevision.data': () => ({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }),
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry.fieldsV1': () => ({ type: 'object' }),
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceSubresources.status': () => ({ type: 'object' }),
};

/**
 * Docs of named Go string types used as array items (`[]Capability`): controller-gen gives the items the
 * type's doc; the definitions do not say an item is a named type. From the k8s.io/api v0.32 sources.
 */
const ITEM_TYPE_DOCS: Record<string, string> = {
  'io.k8s.api.core.v1.Capabilities.add': 'Capability represent POSIX capabilities type',
  'io.k8s.api.core.v1.Capabilities.drop': 'Capability represent POSIX capabilities type',
};

/** Keywords of a definition node controller-gen has no counterpart for. */
const DROPPED = new Set([
  'x-kubernetes-patch-strategy',
  'x-kubernetes-patch-merge-key',
  'x-kubernetes-group-version-kind',
  'enum',
  '$ref',
  'allOf',
  'oneOf',
]);

/** The description without the "Possible enum values" list kube-openapi appends for `+enum` types. */
export function withoutEnumValues(description: string): string {
  const at = description.indexOf('Possible enum values:');
  if (at < 0) return description;
  return description.slice(0, at).replace(/\s+$/, '');
}

export interface RenderOptions {
  /** Nested ObjectMeta keeps its main fields (crd:generateEmbeddedObjectMeta). */
  generateEmbeddedObjectMeta: boolean;
}

export interface RenderedType {
  /** The type's own doc; '' when none. */
  description: string;
  /** The type's schema, without its description; frozen and shared. */
  schema: Schema;
}

const rendered = new Map<string, RenderedType>();
const parsedDefinitions = new Map<string, OpenApiNode>();

function definition(name: string): OpenApiNode | undefined {
  let node = parsedDefinitions.get(name);
  if (!node) {
    const source = definitionSource(name);
    if (source === undefined) return undefined;
    node = JSON.parse(source) as OpenApiNode;
    parsedDefinitions.set(name, node);
  }
  return node;
}

/** The type of catalogue key `key` (`core/v1.Taint`), rendered as controller-gen would; undefined when unknown. */
export function renderKubernetesType(key: string, options: RenderOptions): RenderedType | undefined {
  const name = definitionsByKey().get(key);
  return name === undefined ? undefined : renderDefinition(name, options, []);
}

function renderDefinition(name: string, options: RenderOptions, stack: string[]): RenderedType {
  if (name === QUANTITY) return { description: '', schema: freezeDeep(quantitySchema()) };
  if (name === INT_OR_STRING) return { description: '', schema: freezeDeep(intOrStringSchema()) };
  if (name === OBJECT_META && stack.length > 0)
    return { description: '', schema: freezeDeep(options.generateEmbeddedObjectMeta ? embeddedObjectMetaSchema() : { type: 'object' }) };
  const cacheKey = `${options.generateEmbeddedObjectMeta ? 'embedded' : 'plain'}:${name}`;
  const cached = rendered.get(cacheKey);
  if (cached) return cached;
  const node = definition(name);
  if (!node) throw new Error(`Kubernetes definition ${name} is unknown`);
  const { description, ...schema } = renderNode(node, name, options, [...stack, name]);
  const result = { description: description ?? '', schema: freezeDeep(schema) };
  rendered.set(cacheKey, result);
  return result;
}

/** The definition a node points at (`$ref` or `allOf: [{$ref}]`). */
function referenceOf(node: OpenApiNode): string | undefined {
  const direct = node.$ref;
  const viaAllOf = Array.isArray(node.allOf) && node.allOf.length === 1 ? (node.allOf[0] as OpenApiNode).$ref : undefined;
  const ref = typeof direct === 'string' ? direct : viaAllOf;
  return typeof ref === 'string' && ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : undefined;
}

/** `where` is `<definition>` or `<definition>.<field>` (for the override tables). */
function renderNode(node: OpenApiNode, where: string, options: RenderOptions, stack: string[]): Schema {
  const goTyped = Object.hasOwn(GO_TYPED_FIELDS, where) ? GO_TYPED_FIELDS[where] : undefined;
  const own: Schema = goTyped ? goTyped() : {};
  for (const [keyword, value] of Object.entries(node)) {
    if (DROPPED.has(keyword) || (goTyped && keyword !== 'description')) continue;
    if (keyword === 'description') {
      const text = withoutEnumValues(value as string);
      if (text) own.description = text;
    } else if (keyword === 'format') {
      if (value !== 'double') own.format = value as string;
    } else if (keyword === 'properties') {
      const properties: Record<string, Schema> = {};
      for (const [field, child] of Object.entries(value as Record<string, OpenApiNode>))
        properties[field] = renderNode(child, `${where}.${field}`, options, stack);
      own.properties = properties;
    } else if (keyword === 'items') {
      own.items = renderNode(value as OpenApiNode, `${where}[]`, options, stack);
      const itemDoc = Object.hasOwn(ITEM_TYPE_DOCS, where) ? ITEM_TYPE_DOCS[where] : undefined;
      if (itemDoc && !own.items.description) own.items = { description: itemDoc, ...own.items };
    } else if (keyword === 'additionalProperties') {
      own.additionalProperties = typeof value === 'boolean' ? value : renderNode(value as OpenApiNode, `${where}{}`, options, stack);
    } else if (keyword === 'default') {
      // kube-openapi's zero-value defaults of non-pointer struct fields are not in the definitions; what is
      // left is a `+default` marker value, which controller-gen carries too.
      own.default = structuredClone(value);
    } else if (keyword === 'required') {
      own.required = [...(value as string[])].sort(byteCompare);
    } else own[keyword] = structuredClone(value);
  }
  const markers = Object.hasOwn(GO_MARKERS, where) ? GO_MARKERS[where] : undefined;
  if (markers) Object.assign(own, structuredClone(markers));
  if (Object.hasOwn(MISSING_FIELD_DOCS, where)) own.description = MISSING_FIELD_DOCS[where];
  if (PROTOCOL_FIELDS.has(where) && own.default === undefined) own.default = 'TCP';
  const reference = goTyped ? undefined : referenceOf(node);
  if (!reference) return own;
  if (stack.includes(reference)) {
    // JSONSchemaProps refers to itself; a CRD schema cannot recurse, so the inner occurrence keeps anything.
    return { ...(own.description ? { description: own.description } : {}), type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  }
  const target = renderDefinition(reference, options, stack);
  const description = own.description ?? (target.description !== '' ? target.description : undefined);
  const { description: _ignored, ...fieldKeywords } = own;
  return { ...(description ? { description } : {}), ...target.schema, ...fieldKeywords };
}

