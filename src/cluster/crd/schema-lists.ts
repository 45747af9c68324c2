/**
 * List and map semantics of a CRD schema for server-side apply: `x-kubernetes-list-type` map (by
 * `x-kubernetes-list-map-keys`), set, or atomic (the default for CR lists); `x-kubernetes-map-type`
 * atomic maps and structs (granular by default).
 */
import { type ListSemantics, type ListSemanticsResolver, type MapSemantics, builtinListSemantics } from '../patch/field-sets.js';

/** The schema node at a path of field names (through list items and additionalProperties). */
function schemaAt(schema: Record<string, any>, path: string[]): Record<string, any> | undefined {
  let node: Record<string, any> | undefined = schema;
  for (const key of path) {
    while (node?.type === 'array' || (node?.items && !node.properties)) node = node?.items;
    node = node?.properties?.[key] ?? (typeof node?.additionalProperties === 'object' ? node.additionalProperties : undefined);
    if (!node) return undefined;
  }
  return node;
}

export function listSemanticsFromSchema(schema: Record<string, any>): ListSemanticsResolver {
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
    if (type === 'map') return { keys: node!['x-kubernetes-list-map-keys'] ?? [] } as ListSemantics;
    if (type === 'set') return 'set';
    return 'atomic';
  };
  return Object.assign(lists, { mapType });
}
