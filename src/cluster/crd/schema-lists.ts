/**
 * List and map semantics of a CRD schema for server-side apply: `x-kubernetes-list-type` map (by
 * `x-kubernetes-list-map-keys`, a key left out of an item standing for its schema `default`), set, or
 * atomic (the default for CR lists); `x-kubernetes-map-type` atomic maps and structs (granular by default).
 */
import { type ListSemantics, type ListSemanticsResolver, type MapSemantics, builtinListSemantics } from '../patch/field-sets.js';
import type { CrdSchema as Schema } from './crd-schema.js';

/** The schema node at a path of field names (through list items and additionalProperties). */
function schemaAt(schema: Schema, path: string[]): Schema | undefined {
  let node: Schema | undefined = schema;
  for (const key of path) {
    while (node?.type === 'array' || (node?.items && !node.properties)) node = node?.items;
    node = node?.properties?.[key] ?? (typeof node?.additionalProperties === 'object' ? node.additionalProperties : undefined);
    if (!node) return undefined;
  }
  return node;
}

/** A keyed list's keys, and the schema defaults of those that have one (structured-merge-diff keys an item by them). */
function keyedList(node: Schema): ListSemantics {
  const keys: string[] = node['x-kubernetes-list-map-keys'] ?? [];
  const itemProperties: Record<string, Schema> = node.items?.properties ?? {};
  const keyDefaults: Record<string, unknown> = {};
  for (const key of keys) if (itemProperties[key]?.default !== undefined) keyDefaults[key] = itemProperties[key].default;
  return Object.keys(keyDefaults).length ? { keys, keyDefaults } : { keys };
}

export function listSemanticsFromSchema(schema: Schema): ListSemanticsResolver {
  const mapType = (path: string[]): MapSemantics => {
    if (path[0] === 'metadata') return 'granular';
    let node = schemaAt(schema, path);
    // for a list, the map type of its items (a keyed list of atomic structs)
    while (node?.type === 'array') node = node.items;
    return node?.['x-kubernetes-map-type'] === 'atomic' ? 'atomic' : 'granular';
  };
  const lists = (path: string[]): ListSemantics => {
    if (path[0] === 'metadata') return builtinListSemantics(path);
    const node = schemaAt(schema, path);
    if (!node) return 'atomic';
    const type = node?.['x-kubernetes-list-type'];
    if (type === 'map') return keyedList(node);
    if (type === 'set') return 'set';
    return 'atomic';
  };
  return Object.assign(lists, { mapType });
}
