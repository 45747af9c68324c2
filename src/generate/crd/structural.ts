/**
 * The structural-schema check every generated CRD passes before it is returned (rules of the API server's
 * CRD validation, embedded-apiserver.md §5.1): allowed types, forbidden keywords, a type on every property
 * and item, only value validations inside allOf/anyOf/oneOf/not, list/map-type rules, root rules, and the
 * CRD-level rules (names, exactly one storage version, printer columns, scale paths).
 * Returns problems as `path: message`, so the caller can name kind, version and schema path.
 */
import type { CustomResourceDefinition } from './build.js';
import type { Schema } from './schema.js';

export interface StructuralProblem {
  /** `spec.versions[v1].schema.openAPIV3Schema.properties.spec...` style path. */
  path: string;
  message: string;
}

const TYPES = ['array', 'boolean', 'integer', 'number', 'object', 'string'];
const FORBIDDEN = ['$ref', 'definitions', 'dependencies', 'patternProperties', 'additionalItems', 'id'];
/** Keywords not allowed inside allOf/anyOf/oneOf/not (only value validations are). */
const NOT_IN_JUNCTORS = ['type', 'default', 'description', 'title', 'nullable', 'additionalProperties'];
const DNS1035 = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

function isIntOrStringAnyOf(node: Schema): boolean {
  const anyOf = node.anyOf;
  return (
    node['x-kubernetes-int-or-string'] === true &&
    Array.isArray(anyOf) &&
    anyOf.length === 2 &&
    anyOf[0]?.type === 'integer' &&
    anyOf[1]?.type === 'string' &&
    Object.keys(anyOf[0]!).length === 1 &&
    Object.keys(anyOf[1]!).length === 1
  );
}

function checkJunctorBranch(branch: Schema, path: string, out: StructuralProblem[]): void {
  for (const key of Object.keys(branch)) {
    if (NOT_IN_JUNCTORS.includes(key) || key.startsWith('x-kubernetes-'))
      out.push({ path: `${path}.${key}`, message: 'must be empty to be structural (only value validations are allowed inside allOf/anyOf/oneOf/not)' });
  }
  for (const [name, child] of Object.entries(branch.properties ?? {})) checkJunctorBranch(child, `${path}.properties.${name}`, out);
  if (branch.items) checkJunctorBranch(branch.items, `${path}.items`, out);
}

/**
 * Frozen (shared, immutable) subtrees found without problems below the root: a type used by many kinds
 * is checked once. Only the clean ones are kept, so problems are always reported with their full path.
 */
const structuralFrozen = new WeakSet<Schema>();

/** checkNode below the root, skipping a frozen subtree already found structural. */
function checkChild(node: Schema, path: string, out: StructuralProblem[]): void {
  if (structuralFrozen.has(node)) return;
  const before = out.length;
  checkNode(node, path, out, false);
  if (out.length === before && Object.isFrozen(node)) structuralFrozen.add(node);
}

function checkNode(node: Schema, path: string, out: StructuralProblem[], isRoot: boolean): void {
  for (const key of FORBIDDEN) if (key in node) out.push({ path: `${path}.${key}`, message: `${key} is not supported` });
  const type = node.type;
  if (type !== undefined && !TYPES.includes(type))
    out.push({ path: `${path}.type`, message: `Unsupported value: "${type}": supported values: "${TYPES.join('", "')}"` });
  if (node.uniqueItems === true)
    out.push({ path: `${path}.uniqueItems`, message: 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic' });
  if (node.properties && node.additionalProperties !== undefined && node.additionalProperties !== false)
    out.push({ path: `${path}.additionalProperties`, message: 'additionalProperties and properties are mutual exclusive' });
  if (node.additionalProperties === false) out.push({ path: `${path}.additionalProperties`, message: 'must not be false to be structural' });
  if (type === 'array' && !node.items) out.push({ path: `${path}.items`, message: 'Required value: must be specified' });
  if (node['x-kubernetes-preserve-unknown-fields'] === false)
    out.push({ path: `${path}.x-kubernetes-preserve-unknown-fields`, message: 'must be true or undefined' });
  if (node['x-kubernetes-int-or-string'] === true && (node['x-kubernetes-preserve-unknown-fields'] || node['x-kubernetes-embedded-resource']))
    out.push({ path: `${path}.x-kubernetes-int-or-string`, message: 'must be false if x-kubernetes-preserve-unknown-fields or x-kubernetes-embedded-resource is true' });
  if (node['x-kubernetes-embedded-resource'] === true) {
    if (type !== 'object') out.push({ path: `${path}.type`, message: 'must be object if x-kubernetes-embedded-resource is true' });
    if (!node.properties && node['x-kubernetes-preserve-unknown-fields'] !== true)
      out.push({ path: `${path}.properties`, message: 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields' });
  }
  const listType = node['x-kubernetes-list-type'];
  if (listType !== undefined) {
    if (!['atomic', 'set', 'map'].includes(String(listType)))
      out.push({ path: `${path}.x-kubernetes-list-type`, message: `Unsupported value: "${String(listType)}"` });
    if (type !== 'array') out.push({ path: `${path}.x-kubernetes-list-type`, message: 'must only be used on type array' });
    if (listType === 'map') {
      const keys = node['x-kubernetes-list-map-keys'];
      const items = node.items;
      if (!Array.isArray(keys) || keys.length === 0)
        out.push({ path: `${path}.x-kubernetes-list-map-keys`, message: 'must not be empty if x-kubernetes-list-type is map' });
      else if (items?.type !== 'object') out.push({ path: `${path}.items.type`, message: 'must be object if x-kubernetes-list-type is map' });
      else
        for (const key of keys as string[]) {
          const prop = items.properties?.[key];
          if (!prop) out.push({ path: `${path}.items.properties`, message: `must have "${key}" property (x-kubernetes-list-map-keys)` });
          else if (!(items.required ?? []).includes(key) && prop.default === undefined)
            out.push({ path: `${path}.items.properties.${key}`, message: 'must be required or have a default (x-kubernetes-list-map-keys)' });
        }
    }
  }
  const mapType = node['x-kubernetes-map-type'];
  if (mapType !== undefined && (type !== 'object' || !['atomic', 'granular'].includes(String(mapType))))
    out.push({ path: `${path}.x-kubernetes-map-type`, message: 'must be "atomic" or "granular" on type object' });
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = node[junctor] as Schema[] | undefined;
    if (!list) continue;
    if (junctor === 'anyOf' && isIntOrStringAnyOf(node)) continue;
    list.forEach((branch, i) => checkJunctorBranch(branch, `${path}.${junctor}[${i}]`, out));
  }
  if (node.not) checkJunctorBranch(node.not as Schema, `${path}.not`, out);
  const unconstrained = node['x-kubernetes-int-or-string'] === true || node['x-kubernetes-preserve-unknown-fields'] === true;
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    if (child.type === undefined && child['x-kubernetes-int-or-string'] !== true && child['x-kubernetes-preserve-unknown-fields'] !== true)
      out.push({ path: `${path}.properties.${name}.type`, message: 'Required value: must not be empty for specified object fields' });
    if (isRoot && name === 'metadata') {
      const extra = Object.keys(child.properties ?? {}).filter((k) => k !== 'name' && k !== 'generateName');
      if (extra.length > 0 || child.default !== undefined)
        out.push({ path: `${path}.properties.metadata`, message: 'must not specify anything other than name and generateName, but metadata is implicitly specified' });
    }
    if (isRoot && (name === 'kind' || name === 'apiVersion') && child.type !== 'string')
      out.push({ path: `${path}.properties.${name}.type`, message: 'must be string' });
    checkChild(child, `${path}.properties.${name}`, out);
  }
  if (node.items) {
    if (node.items.type === undefined && !unconstrained && node.items['x-kubernetes-int-or-string'] !== true && node.items['x-kubernetes-preserve-unknown-fields'] !== true)
      out.push({ path: `${path}.items.type`, message: 'Required value: must not be empty for specified array items' });
    checkChild(node.items, `${path}.items`, out);
  }
  if (node.additionalProperties && typeof node.additionalProperties === 'object')
    checkChild(node.additionalProperties, `${path}.additionalProperties`, out);
}

/** Checks one version's openAPIV3Schema. */
export function checkStructuralSchema(schema: Schema, path = 'openAPIV3Schema'): StructuralProblem[] {
  const out: StructuralProblem[] = [];
  if (schema.type !== 'object') out.push({ path: `${path}.type`, message: schema.type === undefined ? 'must not be empty at the root' : 'must be object at the root' });
  if (schema.additionalProperties !== undefined) out.push({ path: `${path}.additionalProperties`, message: 'must not be used at the root' });
  if (schema.nullable === true) out.push({ path: `${path}.nullable`, message: 'must be false at the root' });
  checkNode(schema, path, out, true);
  return out;
}

/** Checks a whole CRD document (names, versions, columns, scale, and every version's schema). */
export function checkCrd(crd: CustomResourceDefinition): StructuralProblem[] {
  const out: StructuralProblem[] = [];
  const { names, group, versions } = crd.spec;
  if (crd.metadata.name !== `${names.plural}.${group}`)
    out.push({ path: 'metadata.name', message: 'must be spec.names.plural+"."+spec.group' });
  if (!group.includes('.')) out.push({ path: 'spec.group', message: 'should be a domain with at least one dot' });
  for (const key of ['plural', 'singular'] as const)
    if (!DNS1035.test(names[key])) out.push({ path: `spec.names.${key}`, message: `"${names[key]}" must be a DNS-1035 label` });
  for (const key of ['shortNames', 'categories'] as const)
    (names[key] ?? []).forEach((v, i) => {
      if (!DNS1035.test(v)) out.push({ path: `spec.names.${key}[${i}]`, message: `"${v}" must be a DNS-1035 label` });
    });
  if (names.kind === names.listKind) out.push({ path: 'spec.names.listKind', message: 'kind and listKind must be different' });
  if (versions.length === 0) out.push({ path: 'spec.versions', message: 'must have exactly one version marked as storage version' });
  else if (versions.filter((v) => v.storage).length !== 1)
    out.push({ path: 'spec.versions', message: 'must have exactly one version marked as storage version' });
  for (const v of versions) {
    const base = `spec.versions[${v.name}]`;
    (v.additionalPrinterColumns ?? []).forEach((column, i) => {
      const c = column as { type: string; format?: string; jsonPath: string };
      if (!['integer', 'number', 'string', 'boolean', 'date'].includes(c.type))
        out.push({ path: `${base}.additionalPrinterColumns[${i}].type`, message: `Unsupported value: "${c.type}"` });
      if (c.format && !['int32', 'int64', 'float', 'double', 'byte', 'date', 'date-time', 'password'].includes(c.format))
        out.push({ path: `${base}.additionalPrinterColumns[${i}].format`, message: `Unsupported value: "${c.format}"` });
      if (!c.jsonPath.startsWith('.'))
        out.push({ path: `${base}.additionalPrinterColumns[${i}].jsonPath`, message: 'must be a simple json path starting with .' });
    });
    const scale = v.subresources?.scale;
    if (scale) {
      if (!scale.specReplicasPath.startsWith('.spec.'))
        out.push({ path: `${base}.subresources.scale.specReplicasPath`, message: 'should be a json path under .spec' });
      if (!scale.statusReplicasPath.startsWith('.status.'))
        out.push({ path: `${base}.subresources.scale.statusReplicasPath`, message: 'should be a json path under .status' });
      if (scale.labelSelectorPath && !/^\.(spec|status)\./.test(scale.labelSelectorPath))
        out.push({ path: `${base}.subresources.scale.labelSelectorPath`, message: 'should be a json path under either .spec or .status' });
    }
    out.push(...checkStructuralSchema(v.schema.openAPIV3Schema, `${base}.schema.openAPIV3Schema`));
  }
  return out;
}
