/**
 * Field sets as server-side apply tracks them: the `fieldsV1` trie (`f:` fields, `k:` keyed list
 * items, `v:` set members) built from an object, flattened to comparable paths, and read/delete of
 * the value at a path.
 */

type Obj = Record<string, any>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** How a list at a schema path (plain field names) merges: by keys, as a set, or atomically. */
export type ListSemantics = { keys: string[] } | 'set' | 'atomic';
export type ListSemanticsResolver = (schemaPath: string[]) => ListSemantics;

/** A path is a list of trie tokens, e.g. ['f:spec', 'f:containers', 'k:{"name":"c"}', 'f:image']. */
export type FieldPath = string[];

const builtinListKeys: Record<string, string[]> = {
  containers: ['name'], initContainers: ['name'], ephemeralContainers: ['name'], volumes: ['name'], env: ['name'], imagePullSecrets: ['name'],
  ports: ['containerPort', 'protocol'], volumeMounts: ['mountPath'], ownerReferences: ['uid'], conditions: ['type'],
};

/** List semantics of the built-in kinds (their patch merge keys; finalizers is a set). */
export const builtinListSemantics: ListSemanticsResolver = (path) => {
  const field = path[path.length - 1] ?? '';
  if (field === 'finalizers') return 'set';
  const keys = builtinListKeys[field];
  return keys ? { keys } : 'atomic';
};

function itemToken(item: unknown, sem: ListSemantics): string | undefined {
  if (sem === 'set') return `v:${JSON.stringify(item)}`;
  if (sem === 'atomic' || !isObject(item)) return undefined;
  const key: Obj = {};
  for (const k of sem.keys) if (item[k] !== undefined) key[k] = item[k];
  return `k:${JSON.stringify(key)}`;
}

/** Leaf paths of every field set in `value` (scalars, atomic lists, empty objects, set members, keyed items). */
export function leafPaths(value: unknown, resolve: ListSemanticsResolver, schemaPath: string[] = [], prefix: FieldPath = []): FieldPath[] {
  const out: FieldPath[] = [];
  if (!isObject(value)) return out;
  for (const [key, child] of Object.entries(value)) {
    const path = [...prefix, `f:${key}`];
    const sp = [...schemaPath, key];
    if (isObject(child) && Object.keys(child).length > 0) out.push(...leafPaths(child, resolve, sp, path));
    else if (Array.isArray(child)) {
      const sem = resolve(sp);
      if (sem === 'atomic' || child.some((i) => itemToken(i, sem) === undefined)) out.push(path);
      else {
        for (const item of child) {
          const itemPath = [...path, itemToken(item, sem)!];
          out.push([...itemPath, '.']);
          if (sem !== 'set') out.push(...leafPaths(item, resolve, sp, itemPath));
        }
      }
    } else out.push(path);
  }
  return out;
}

/** The fieldsV1 trie of a set of paths. */
export function toFieldsV1(paths: FieldPath[]): Obj {
  const root: Obj = {};
  for (const p of paths) {
    let node = root;
    for (const t of p) node = node[t] ??= {};
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
  return list.findIndex((i) => isObject(i) && Object.entries(body as Obj).every(([k, v]) => JSON.stringify(i[k]) === JSON.stringify(v)));
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
