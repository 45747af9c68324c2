/**
 * Field sets as server-side apply tracks them: the `fieldsV1` trie (`f:` fields, `k:` keyed list
 * items, `v:` set members) built from an object, flattened to comparable paths (atomic maps and
 * structs are one leaf), and read/delete of the value at a path.
 */

import { builtinRootDefinition, listTypeAt, mapTypeAt, schemaAt } from '../schemas/merge-semantics.js';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** How a list at a schema path (plain field names) merges: by keys, as a set, or atomically. */
export type ListSemantics = { keys: string[]; keyDefaults?: Record<string, unknown> } | 'set' | 'atomic';
/** How a map or struct at a schema path is owned: key by key (`granular`, the default) or as a whole (`atomic`). */
export type MapSemantics = 'granular' | 'atomic';
/**
 * The merge semantics of a type's schema: called for the lists at a path; its optional `mapType`
 * answers for maps and structs (`x-kubernetes-map-type` / `+structType`).
 */
export type ListSemanticsResolver = ((schemaPath: string[]) => ListSemantics) & {
  mapType?: (schemaPath: string[]) => MapSemantics;
  /** A more exact resolver for an object of this apiVersion/kind, when there is one. */
  forKind?: (apiVersion: unknown, kind: unknown) => ListSemanticsResolver | undefined;
};

/** Whether the map or struct at `schemaPath` is owned and applied as a whole. */
export const isAtomicMap = (resolve: ListSemanticsResolver, schemaPath: string[]): boolean => resolve.mapType?.(schemaPath) === 'atomic';

/** A path is a list of trie tokens, e.g. ['f:spec', 'f:containers', 'k:{"name":"c"}', 'f:image']. */
export type FieldPath = string[];

/** The served built-in kinds' definitions, in the order a kind-less path is tried against them. */
const builtinRoots = ((): string[] => {
  const kinds = [
    ['v1', 'Pod'], ['apps/v1', 'Deployment'], ['batch/v1', 'Job'], ['batch/v1', 'CronJob'], ['v1', 'Service'], ['v1', 'ConfigMap'], ['v1', 'Secret'],
    ['v1', 'ServiceAccount'], ['v1', 'Namespace'], ['v1', 'Node'], ['rbac.authorization.k8s.io/v1', 'ClusterRole'], ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'],
    ['admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration'], ['apiextensions.k8s.io/v1', 'CustomResourceDefinition'], ['coordination.k8s.io/v1', 'Lease'],
  ];
  return kinds.map(([apiVersion, kind]) => builtinRootDefinition(apiVersion, kind)).filter((n): n is string => n !== undefined);
})();

/** The list and map semantics of one built-in kind's schema (x-kubernetes-list-type/-list-map-keys/-map-type). */
function schemaSemantics(root: string): ListSemanticsResolver {
  // answers per path, remembered: every write asks the same paths again
  const lists = new Map<string, ListSemantics>();
  const maps = new Map<string, MapSemantics>();
  const remember = <T>(cache: Map<string, T>, path: string[], compute: () => T): T => {
    const key = path.join('\u0000');
    let v = cache.get(key);
    if (v === undefined) {
      if (cache.size > 10000) cache.clear();
      cache.set(key, (v = compute()));
    }
    return v;
  };
  return Object.assign(
    (path: string[]): ListSemantics =>
      remember(lists, path, () => {
        const t = listTypeAt(root, path);
        if (t === undefined || t === 'set' || t === 'atomic') return t ?? 'atomic';
        return Object.keys(t.keyDefaults).length ? { keys: t.keys, keyDefaults: t.keyDefaults } : { keys: t.keys };
      }),
    { mapType: (path: string[]): MapSemantics => remember(maps, path, () => mapTypeAt(root, path) ?? 'granular') },
  );
}

const semanticsByRoot = new Map<string, ListSemanticsResolver>();
/** The resolver of the built-in kind `apiVersion`/`kind`, or undefined when it is not one. */
export function builtinListSemanticsFor(apiVersion: unknown, kind: unknown): ListSemanticsResolver | undefined {
  const root = builtinRootDefinition(apiVersion, kind);
  if (!root) return undefined;
  let resolver = semanticsByRoot.get(root);
  if (!resolver) semanticsByRoot.set(root, (resolver = schemaSemantics(root)));
  return resolver;
}

/** The served built-in kinds' definitions, in the order a kind-less path is tried against them. */
export const builtinKindRoots = (): readonly string[] => builtinRoots;

/** The first built-in kind whose schema declares `path` (for callers that do not know the kind). */
const rootDeclaring = (path: string[]): string | undefined => builtinRoots.find((r) => schemaAt(r, path) !== undefined);

/**
 * List semantics of the built-in kinds from their schemas. Given the kind (`forKind`), exact; called
 * without it, a path is read in the first served kind that declares it (metadata is the same in all).
 */
export const builtinListSemantics: ListSemanticsResolver = Object.assign(
  (path: string[]): ListSemantics => {
    const root = rootDeclaring(path);
    return root ? schemaSemantics(root)(path) : 'atomic';
  },
  {
    mapType: (path: string[]): MapSemantics => {
      const root = rootDeclaring(path);
      return root ? (mapTypeAt(root, path) ?? 'granular') : 'granular';
    },
    forKind: builtinListSemanticsFor,
  },
);

/** The value of a keyed list item's key field, or the schema default of that field when it is left out. */
export const keyValue = (item: Obj, sem: { keys: string[]; keyDefaults?: Record<string, unknown> }, k: string): unknown => item[k] ?? sem.keyDefaults?.[k];

function itemToken(item: unknown, sem: ListSemantics): string | undefined {
  if (sem === 'set') return `v:${JSON.stringify(item)}`;
  if (sem === 'atomic' || !isObject(item)) return undefined;
  const key: Obj = {};
  for (const k of sem.keys) {
    const v = keyValue(item, sem, k);
    if (v !== undefined) key[k] = v;
  }
  return `k:${JSON.stringify(key)}`;
}

/** Leaf paths of every field set in `value` (scalars, atomic lists, empty objects, set members, keyed items). */
export function leafPaths(value: unknown, resolve: ListSemanticsResolver, schemaPath: string[] = [], prefix: FieldPath = []): FieldPath[] {
  const out: FieldPath[] = [];
  collectLeafPaths(value, resolve, schemaPath, prefix, out);
  return out;
}

/** leafPaths into one array (in document order), instead of a new array spread into its parent's per level. */
function collectLeafPaths(value: unknown, resolve: ListSemanticsResolver, schemaPath: string[], prefix: FieldPath, out: FieldPath[]): void {
  if (!isObject(value)) return;
  for (const [key, child] of Object.entries(value)) {
    const path = [...prefix, `f:${key}`];
    const sp = [...schemaPath, key];
    if (isObject(child) && Object.keys(child).length > 0 && !isAtomicMap(resolve, sp)) collectLeafPaths(child, resolve, sp, path, out);
    else if (Array.isArray(child)) {
      const sem = resolve(sp);
      const tokens = sem === 'atomic' ? undefined : child.map((i) => itemToken(i, sem));
      if (!tokens || tokens.includes(undefined)) out.push(path);
      else {
        for (let i = 0; i < child.length; i++) {
          const itemPath = [...path, tokens[i]!];
          // an atomic item (struct) is one value; otherwise its presence and its fields
          if (sem !== 'set' && isAtomicMap(resolve, sp)) out.push(itemPath);
          else {
            out.push([...itemPath, '.']);
            if (sem !== 'set') collectLeafPaths(child[i], resolve, sp, itemPath, out);
          }
        }
      }
    } else out.push(path);
  }
}

/** The fieldsV1 trie of a set of paths. */
export function toFieldsV1(paths: FieldPath[]): Obj {
  const root: Obj = {};
  for (const p of paths) {
    let node = root;
    for (const t of p) node = (node[t] ??= {}) as Obj;
  }
  return root;
}

/** Leaf paths of a fieldsV1 trie. */
export function fromFieldsV1(trie: Obj | undefined, prefix: FieldPath = []): FieldPath[] {
  if (!isObject(trie)) return [];
  const out: FieldPath[] = [];
  for (const [t, child] of Object.entries(trie)) {
    const p = [...prefix, t];
    if (t === '.' || !isObject(child) || Object.keys(child).length === 0) out.push(p);
    else {
      out.push(...fromFieldsV1(child, p));
      if ('.' in child) continue;
    }
  }
  return out;
}

export const pathKey = (p: FieldPath): string => p.join('\u0000');

function matchItem(list: unknown[], token: string): number {
  const body = JSON.parse(token.slice(2));
  if (token.startsWith('v:')) return list.findIndex((i) => JSON.stringify(i) === JSON.stringify(body));
  const same = (i: unknown, leftOutMatches: boolean): boolean =>
    isObject(i) && Object.entries(body as Obj).every(([k, v]) => (leftOutMatches && i[k] === undefined) || JSON.stringify(i[k]) === JSON.stringify(v));
  // an item stored without a defaulted key field (a port without protocol) still answers to the key with the default
  const exact = list.findIndex((i) => same(i, false));
  return exact >= 0 ? exact : list.findIndex((i) => same(i, true));
}

/** A copy of `value` whose keyed list items carry the schema defaults of the key fields they leave out. */
export function withKeyDefaults(value: unknown, resolve: ListSemanticsResolver, schemaPath: string[] = []): unknown {
  if (Array.isArray(value)) {
    const sem = resolve(schemaPath);
    return value.map((item) => {
      const copy = withKeyDefaults(item, resolve, schemaPath);
      if (typeof sem === 'object' && sem.keyDefaults && isObject(copy)) {
        for (const [k, d] of Object.entries(sem.keyDefaults)) if (copy[k] === undefined) copy[k] = d;
      }
      return copy;
    });
  }
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withKeyDefaults(v, resolve, [...schemaPath, k])]));
}

/** The value at a path (undefined when absent). */
export function valueAt(object: unknown, path: FieldPath): unknown {
  let node: unknown = object;
  for (const t of path) {
    if (t === '.') return node;
    if (t.startsWith('f:')) node = isObject(node) ? node[t.slice(2)] : undefined;
    else if (Array.isArray(node)) {
      const i = matchItem(node, t);
      node = i >= 0 ? node[i] : undefined;
    } else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}

/** Removes the field or list item a path names. */
export function deleteAt(object: unknown, path: FieldPath): void {
  const tokens = path[path.length - 1] === '.' ? path.slice(0, -1) : path;
  if (tokens.length === 0) return;
  const parent = valueAt(object, tokens.slice(0, -1));
  const last = tokens[tokens.length - 1]!;
  if (last.startsWith('f:') && isObject(parent)) delete parent[last.slice(2)];
  else if (Array.isArray(parent)) {
    const i = matchItem(parent, last);
    if (i >= 0) parent.splice(i, 1);
  }
}
