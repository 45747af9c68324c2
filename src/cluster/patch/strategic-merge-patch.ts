/**
 * Strategic merge patch for built-in kinds: merge patch plus per-list semantics (keyed lists merged by
 * their merge key, `finalizers` as a set) and the directives kubectl emits (`$patch`,
 * `$setElementOrder/…`, `$deleteFromPrimitiveList/…`, `$retainKeys`).
 */
import { badRequest } from '../errors/status-errors.js';

/** Merge keys of the keyed lists of the served built-in kinds (by field name). */
const mergeKeys: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  volumes: 'name',
  env: 'name',
  imagePullSecrets: 'name',
  ports: 'containerPort',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  ownerReferences: 'uid',
  conditions: 'type',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
  resourceClaims: 'name',
};
const setLists = new Set(['finalizers']);

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export function applyStrategicMergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) throw badRequest('json: cannot unmarshal into Go value of type map[string]interface {}');
  return mergeObject(isObject(target) ? target : {}, patch);
}

function mergeObject(target: Obj, patch: Obj): Obj {
  const directive = patch.$patch;
  if (directive === 'replace') {
    const copy = { ...patch };
    delete copy.$patch;
    return structuredClone(copy);
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
    if (Array.isArray(value)) out[key] = mergeList(key, out[key], value);
    else if (isObject(value)) {
      const merged = mergeObject(isObject(out[key]) ? (out[key] as Obj) : {}, value);
      if (value.$patch === 'delete') delete out[key];
      else out[key] = merged;
    } else out[key] = value;
  }
  for (const [key, value] of Object.entries(patch)) {
    if (!key.startsWith('$setElementOrder/')) continue;
    const field = key.slice('$setElementOrder/'.length);
    if (Array.isArray(out[field]) && Array.isArray(value)) out[field] = reorder(field, out[field] as unknown[], value);
  }
  return out;
}

function mergeList(field: string, current: unknown, patch: unknown[]): unknown[] {
  const base = Array.isArray(current) ? current : [];
  if (setLists.has(field)) {
    const out = [...base];
    for (const v of patch) if (!out.includes(v)) out.push(v);
    return out;
  }
  const key = mergeKeys[field];
  if (!key || !patch.every(isObject)) {
    return patch.filter((item) => !(isObject(item) && item.$patch === 'replace' && Object.keys(item).length === 1));
  }
  if (patch.some((item) => isObject(item) && item.$patch === 'replace')) {
    return patch.filter((item) => !(isObject(item) && item.$patch === 'replace')).map((i) => structuredClone(i));
  }
  const out = base.map((i) => (isObject(i) ? { ...i } : i));
  for (const item of patch as Obj[]) {
    const idx = out.findIndex((existing) => isObject(existing) && existing[key] === item[key]);
    if (item.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = mergeObject(out[idx] as Obj, item);
    else {
      const copy = { ...item };
      delete copy.$patch;
      out.push(mergeObject({}, copy));
    }
  }
  return out;
}

function reorder(field: string, list: unknown[], order: unknown[]): unknown[] {
  const key = mergeKeys[field];
  const identity = (v: unknown): unknown => (key && isObject(v) ? v[key] : v);
  const orderIds = order.map((o) => (key && isObject(o) ? o[key] : o));
  const ranked = list.map((item, i) => ({ item, rank: orderIds.indexOf(identity(item)), i }));
  return ranked.sort((a, b) => (a.rank === -1 ? Infinity : a.rank) - (b.rank === -1 ? Infinity : b.rank) || a.i - b.i).map((r) => r.item);
}
