/**
 * How the built-in kinds' fields merge, read from their v1.32 schemas: list types and map keys (with the
 * keys' defaults) and map/struct atomicity for server-side apply, patch strategies and merge keys for
 * strategic merge patch, and the check that every applied field is declared.
 */
import { type Schema, builtinDefinition, definitionName, referencedName } from './builtin-schemas.js';

/** A schema with its reference followed: the referenced definition's keys, overridden by the node's own. */
function resolved(node: Schema | undefined): Schema | undefined {
  if (!node) return undefined;
  const name = referencedName(node);
  const target = name ? builtinDefinition(name) : undefined;
  return target ? { ...target, ...node } : node;
}

/** The field `key` of an object schema (list items are looked through; map values are one field per key). */
function child(node: Schema | undefined, key: string): Schema | undefined {
  let n = resolved(node);
  while (n?.type === 'array') n = resolved(n.items);
  if (!n) return undefined;
  if (n.properties && Object.hasOwn(n.properties, key)) return resolved(n.properties[key]);
  if (n.additionalProperties && typeof n.additionalProperties === 'object') return resolved(n.additionalProperties);
  return undefined;
}

/** Walked paths (`root` + path), as every write walks the same few hundred; cleared when it grows large. */
const walked = new Map<string, Schema | undefined>();

/** The schema at `path` (plain field names) under the definition `root`, or undefined when not declared. */
export function schemaAt(root: string, path: string[]): Schema | undefined {
  const key = `${root}\u0000${path.join('\u0000')}`;
  if (walked.has(key)) return walked.get(key);
  let node = path.length ? schemaAt(root, path.slice(0, -1)) : resolved(builtinDefinition(root));
  if (path.length && node) node = child(node, path[path.length - 1]!);
  if (walked.size > 20000) walked.clear();
  walked.set(key, node);
  return node;
}

/** Answers of builtinRootDefinition by apiVersion and kind (every write asks for its kind's; null: not one of ours). */
const rootByKind = new Map<string, string | null>();

/** The definition name of a built-in kind from an object's apiVersion and kind, when it is one of ours. */
export function builtinRootDefinition(apiVersion: unknown, kind: unknown): string | undefined {
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  const key = `${apiVersion}\u0000${kind}`;
  let root = rootByKind.get(key);
  if (root === undefined) {
    if (rootByKind.size > 1000) rootByKind.clear();
    rootByKind.set(key, (root = lookUpRootDefinition(apiVersion, kind) ?? null));
  }
  return root ?? undefined;
}

function lookUpRootDefinition(apiVersion: string, kind: string): string | undefined {
  const slash = apiVersion.indexOf('/');
  const [group, version] = slash < 0 ? ['', apiVersion] : [apiVersion.slice(0, slash), apiVersion.slice(slash + 1)];
  const name = definitionName(group, version, kind);
  const gvks = builtinDefinition(name)?.['x-kubernetes-group-version-kind'];
  return Array.isArray(gvks) && gvks.some((g) => g.group === group && g.version === version && g.kind === kind) ? name : undefined;
}

export type ListMergeType = { keys: string[]; keyDefaults: Record<string, unknown> } | 'set' | 'atomic';

/** The server-side apply type of the list at `path`: keyed (`map`), `set`, or atomic (the built-in default). */
export function listTypeAt(root: string, path: string[]): ListMergeType | undefined {
  const node = schemaAt(root, path);
  if (!node || node.type !== 'array') return undefined;
  const listType = node['x-kubernetes-list-type'];
  if (listType === 'set') return 'set';
  if (listType !== 'map') return 'atomic';
  const keys: string[] = node['x-kubernetes-list-map-keys'] ?? [];
  const item = resolved(node.items);
  const keyDefaults: Record<string, unknown> = {};
  for (const k of keys) {
    const d = resolved(item?.properties?.[k])?.default;
    if (d !== undefined) keyDefaults[k] = d;
  }
  return { keys, keyDefaults };
}

/** Whether the map or struct at `path` is owned as a whole (`x-kubernetes-map-type: atomic`, on the field or its type). */
export function mapTypeAt(root: string, path: string[]): 'atomic' | 'granular' | undefined {
  let node = schemaAt(root, path);
  if (!node) return undefined;
  while (node?.type === 'array') node = resolved(node.items);
  return node?.['x-kubernetes-map-type'] === 'atomic' ? 'atomic' : 'granular';
}

export interface PatchStrategy {
  strategies: string[];
  mergeKey?: string;
}

/** The strategic-merge-patch strategy of the field at `path` (`merge`, `retainKeys`, `replace`) and its merge key. */
export function patchStrategyAt(root: string, path: string[]): PatchStrategy {
  const node = schemaAt(root, path);
  const strategy: unknown = node?.['x-kubernetes-patch-strategy'];
  const mergeKey: unknown = node?.['x-kubernetes-patch-merge-key'];
  return {
    strategies: typeof strategy === 'string' ? strategy.split(',') : [],
    ...(typeof mergeKey === 'string' ? { mergeKey } : {}),
  };
}

/** What an embedded resource (`x-kubernetes-embedded-resource`) declares without listing it. */
const embeddedFields: Record<string, Schema> = {
  apiVersion: { type: 'string' },
  kind: { type: 'string' },
  metadata: { $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' },
};

/**
 * The first field of `value` its schema does not declare, as the path a real server names it by
 * (`.spec.foo`, `.spec.containers[name="c"].bar`), or undefined. `root` is a built-in definition's name
 * or a schema (a custom resource's, references to built-in definitions allowed). Fields under
 * `x-kubernetes-preserve-unknown-fields`, in maps, and in objects that list no properties are free.
 */
export function firstUndeclaredField(root: string | Schema, value: unknown): string | undefined {
  const walk = (node: Schema | undefined, v: unknown, at: string): string | undefined => {
    const n = resolved(node);
    if (!n || n['x-kubernetes-preserve-unknown-fields'] || v === null || typeof v !== 'object') return undefined;
    if (Array.isArray(v)) {
      if (n.type !== 'array') return undefined;
      const keys: string[] = n['x-kubernetes-list-type'] === 'map' ? n['x-kubernetes-list-map-keys'] ?? [] : [];
      for (const [i, item] of v.entries()) {
        const named = keys.length && item && typeof item === 'object'
          ? `[${keys.filter((k) => (item as Schema)[k] !== undefined).map((k) => `${k}=${JSON.stringify((item as Schema)[k])}`).join(',')}]`
          : `[${i}]`;
        const found = walk(n.items, item, `${at}${named}`);
        if (found) return found;
      }
      return undefined;
    }
    for (const [key, fieldValue] of Object.entries(v)) {
      let fieldSchema: Schema | undefined;
      if (n.properties && Object.hasOwn(n.properties, key)) fieldSchema = n.properties[key];
      else if (n['x-kubernetes-embedded-resource'] && Object.hasOwn(embeddedFields, key)) fieldSchema = embeddedFields[key];
      else if (n.additionalProperties && typeof n.additionalProperties === 'object') fieldSchema = n.additionalProperties;
      else if (n.properties) return `${at}.${key}`;
      const found = walk(fieldSchema, fieldValue, `${at}.${key}`);
      if (found) return found;
    }
    return undefined;
  };
  return walk(typeof root === 'string' ? builtinDefinition(root) : root, value, '');
}
