/**
 * Strategic merge patch for built-in kinds: merge patch plus the patch strategies of the kind's v1.32
 * schema (`x-kubernetes-patch-strategy`/`-patch-merge-key`: keyed lists merged by their merge key, lists
 * of scalars with `merge` as sets, `retainKeys`, `replace`) and the directives kubectl emits (`$patch`,
 * `$setElementOrder/…`, `$deleteFromPrimitiveList/…`, `$retainKeys`). Lists without a strategy are replaced.
 */
import { badRequest } from '../errors/status-errors.js';
import { type PatchStrategy, builtinRootDefinition, patchStrategyAt, schemaAt } from '../schemas/merge-semantics.js';
import { builtinKindRoots } from './field-sets.js';
import { copyObject } from '../store/copy-object.js';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The patch strategy of the field at a path (plain field names, list items looked through). */
type StrategyAt = (path: string[]) => PatchStrategy;

/**
 * Applies `patch` to `target`, an object of a built-in kind: the kind's schema is found from the target's
 * apiVersion/kind (or the patch's); without either, each path is read in the first served kind declaring it.
 */
export function applyStrategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) throw badRequest('json: cannot unmarshal into Go value of type map[string]interface {}');
  const base = isObject(target) ? target : {};
  const root = builtinRootDefinition(base.apiVersion, base.kind) ?? builtinRootDefinition(patch.apiVersion, patch.kind);
  const strategyAt: StrategyAt = root
    ? (path) => patchStrategyAt(root, path)
    : (path) => {
        const declaring = builtinKindRoots().find((r) => schemaAt(r, path) !== undefined);
        return declaring ? patchStrategyAt(declaring, path) : { strategies: [] };
      };
  return mergeObject(base, patch, [], strategyAt);
}

function mergeObject(target: Obj, patch: Obj, path: string[], strategyAt: StrategyAt): Obj {
  const directive = patch.$patch;
  if (directive === 'replace') {
    const copy = { ...patch };
    delete copy.$patch;
    return copyObject(copy);
  }
  if (directive === 'delete') return {};
  if (directive !== undefined && directive !== 'merge') throw badRequest(`Unrecognized patch directive: ${String(directive)}`);
  let out: Obj = { ...target };
  const retainKeys = patch.$retainKeys;
  if (Array.isArray(retainKeys)) {
    out = Object.fromEntries(Object.entries(out).filter(([k]) => retainKeys.includes(k)));
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch' || key === '$retainKeys') continue;
    if (key.startsWith('$setElementOrder/')) continue;
    if (key.startsWith('$deleteFromPrimitiveList/')) {
      const field = key.slice('$deleteFromPrimitiveList/'.length);
      const drop = Array.isArray(value) ? value : [];
      if (Array.isArray(out[field])) out[field] = (out[field] as unknown[]).filter((v) => !drop.includes(v));
      continue;
    }
    if (key.startsWith('$')) throw badRequest(`Unrecognized patch directive: ${key}`);
    if (value === null) {
      delete out[key];
      continue;
    }
    const fieldPath = [...path, key];
    if (Array.isArray(value)) out[key] = mergeList(strategyAt(fieldPath), out[key], value, fieldPath, strategyAt);
    else if (isObject(value)) {
      if (strategyAt(fieldPath).strategies.includes('replace')) {
        out[key] = withoutDirectives(value);
        continue;
      }
      const merged = mergeObject(isObject(out[key]) ? (out[key] as Obj) : {}, value, fieldPath, strategyAt);
      if (value.$patch === 'delete') delete out[key];
      else out[key] = merged;
    } else out[key] = value;
  }
  for (const [key, value] of Object.entries(patch)) {
    if (!key.startsWith('$setElementOrder/')) continue;
    const field = key.slice('$setElementOrder/'.length);
    if (Array.isArray(out[field]) && Array.isArray(value)) out[field] = reorder(strategyAt([...path, field]).mergeKey, out[field] as unknown[], value);
  }
  return out;
}

function mergeList(strategy: PatchStrategy, current: unknown, patch: unknown[], path: string[], strategyAt: StrategyAt): unknown[] {
  const base = Array.isArray(current) ? current : [];
  const key = strategy.mergeKey;
  if (!strategy.strategies.includes('merge') || patch.some((item) => isObject(item) && item.$patch === 'replace')) {
    return patch.filter((item) => !(isObject(item) && item.$patch === 'replace')).map((i) => copyObject(i));
  }
  if (!key || !patch.every(isObject)) {
    // a list of scalars with the merge strategy is a set (finalizers, podCIDRs)
    const out = [...base];
    for (const v of patch) if (!out.some((o) => JSON.stringify(o) === JSON.stringify(v))) out.push(v);
    return out;
  }
  const out = base.map((i) => (isObject(i) ? { ...i } : i));
  for (const item of patch as Obj[]) {
    const idx = out.findIndex((existing) => isObject(existing) && existing[key] === item[key]);
    if (item.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = mergeObject(out[idx] as Obj, item, path, strategyAt);
    else {
      const copy = { ...item };
      delete copy.$patch;
      out.push(mergeObject({}, copy, path, strategyAt));
    }
  }
  return out;
}

/** A patch value taken whole (`replace` strategy): its directives dropped. */
function withoutDirectives(value: Obj): Obj {
  return Object.fromEntries(Object.entries(copyObject(value)).filter(([k]) => !k.startsWith('$')));
}

function reorder(key: string | undefined, list: unknown[], order: unknown[]): unknown[] {
  const identity = (v: unknown): unknown => (key && isObject(v) ? v[key] : v);
  const orderIds = order.map((o) => (key && isObject(o) ? o[key] : o));
  const ranked = list.map((item, i) => ({ item, rank: orderIds.indexOf(identity(item)), i }));
  return ranked.sort((a, b) => (a.rank === -1 ? Infinity : a.rank) - (b.rank === -1 ? Infinity : b.rank) || a.i - b.i).map((r) => r.item);
}
