/**
 * List semantics of a CRD schema for server-side apply: `x-kubernetes-list-type` map (by
 * `x-kubernetes-list-map-keys`), set, or atomic (the default for CR lists).
 */
import { type ListSemantics, type ListSemanticsResolver, builtinListSemantics } from '../patch/field-sets.js';

export function listSemanticsFromSchema(schema: Record<string, any>): ListSemanticsResolver {
  return (path) => {
    if (path[0] === 'metadata') return builtinListSemantics(path);
    let node: Record<string, any> | undefined = schema;
    for (const key of path) {
      while (node?.type === 'array' || (node?.items && !node.properties)) node = node?.items;
      node = node?.properties?.[key] ?? (typeof node?.additionalProperties === 'object' ? node.additionalProperties : undefined);
      if (!node) return 'atomic';
    }
    const type = node?.['x-kubernetes-list-type'];
    if (type === 'map') return { keys: node!['x-kubernetes-list-map-keys'] ?? [] } as ListSemantics;
    if (type === 'set') return 'set';
    return 'atomic';
  };
}
