/**
 * `metadata.managedFields` bookkeeping and server-side apply: Update entries for ordinary writes,
 * Apply entries with merge, removal of fields a manager stopped applying, and conflicts with the
 * real 409 message (embedded-apiserver.md §3.4.4).
 */
import { ApiError } from '../errors/status-errors.js';
import type { KubeObject, StoredObjectMeta } from '../store/object-store.js';
import { deepEqual, rfc3339 } from '../registry/system-metadata.js';
import { type FieldPath, type ListSemanticsResolver, deleteAt, fromFieldsV1, isAtomicMap, keyValue, leafPaths, pathKey, toFieldsV1, valueAt, withKeyDefaults } from './field-sets.js';
import { copyObject } from '../store/copy-object.js';

export interface ManagedFieldsEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The part of an object field ownership covers: no identity metadata, and status or not by subresource. */
function ownedView(object: KubeObject, subresource: string | undefined, statusSubresource: boolean): Obj {
  const view: Obj = {};
  for (const [k, v] of Object.entries(object)) {
    if (k === 'apiVersion' || k === 'kind') continue;
    if (k === 'metadata') {
      const meta: Obj = {};
      const objectMeta = v as Record<string, unknown> | undefined;
      for (const m of ['labels', 'annotations', 'finalizers', 'ownerReferences']) if (objectMeta?.[m] !== undefined) meta[m] = objectMeta[m];
      if (Object.keys(meta).length) view.metadata = meta;
      continue;
    }
    if (subresource === 'status' ? k !== 'status' : k === 'status' && statusSubresource) continue;
    view[k] = v;
  }
  return view;
}

export interface OwnershipContext {
  manager: string;
  apiVersion: string;
  now: number;
  subresource?: string;
  statusSubresource: boolean;
  lists: ListSemanticsResolver;
}

/** The context with the list semantics of the object's own kind, when the resolver knows a more exact one. */
function forObject(ctx: OwnershipContext, object: KubeObject): OwnershipContext {
  const exact = ctx.lists.forKind?.(object.apiVersion, object.kind);
  return exact ? { ...ctx, lists: exact } : ctx;
}

function entries(object: KubeObject): ManagedFieldsEntry[] {
  return Array.isArray(object.metadata.managedFields) ? (copyObject(object.metadata.managedFields) as ManagedFieldsEntry[]) : [];
}

function setEntry(list: ManagedFieldsEntry[], ctx: OwnershipContext, operation: 'Apply' | 'Update', paths: FieldPath[]): ManagedFieldsEntry[] {
  const sameEntry = (e: ManagedFieldsEntry): boolean => e.manager === ctx.manager && e.operation === operation && (e.subresource ?? '') === (ctx.subresource ?? '');
  const rest = list.filter((e) => !sameEntry(e));
  if (paths.length === 0) return rest;
  const entry: ManagedFieldsEntry = { manager: ctx.manager, operation, apiVersion: ctx.apiVersion, time: rfc3339(ctx.now), fieldsType: 'FieldsV1', fieldsV1: toFieldsV1(paths) };
  if (ctx.subresource) entry.subresource = ctx.subresource;
  const at = list.findIndex(sameEntry);
  if (at >= 0 && at <= rest.length) rest.splice(at, 0, entry);
  else rest.push(entry);
  return rest;
}

function withoutPaths(list: ManagedFieldsEntry[], drop: Set<string>, except: (e: ManagedFieldsEntry) => boolean): ManagedFieldsEntry[] {
  return list
    .map((e) => {
      if (except(e)) return e;
      const kept = fromFieldsV1(e.fieldsV1).filter((p) => !drop.has(pathKey(p)));
      return { ...e, fieldsV1: toFieldsV1(kept) };
    })
    .filter((e) => Object.keys(e.fieldsV1).length > 0);
}

/** Records an ordinary (non-apply) write: the manager takes the fields it set or changed. */
export function recordUpdate(next: KubeObject, old: KubeObject | undefined, given: OwnershipContext): void {
  const ctx = forObject(given, next);
  const nextView = ownedView(next, ctx.subresource, ctx.statusSubresource);
  const oldView = old ? ownedView(old, ctx.subresource, ctx.statusSubresource) : {};
  const nextPaths = leafPaths(nextView, ctx.lists);
  const changed = nextPaths.filter((p) => !deepEqual(valueAt(nextView, p), valueAt(oldView, p)));
  let list = entries(old ?? next);
  if (changed.length === 0) {
    next.metadata.managedFields = list.length ? list : undefined;
    if (!list.length) delete next.metadata.managedFields;
    return;
  }
  const changedKeys = new Set(changed.map(pathKey));
  const mine = (e: ManagedFieldsEntry): boolean => e.manager === ctx.manager && e.operation === 'Update' && (e.subresource ?? '') === (ctx.subresource ?? '');
  const previous = list.find(mine);
  let keep: FieldPath[] = [];
  if (previous) {
    const stillSet = new Set(nextPaths.map(pathKey));
    keep = fromFieldsV1(previous.fieldsV1).filter((p) => stillSet.has(pathKey(p)) && !changedKeys.has(pathKey(p)));
  }
  list = withoutPaths(list, changedKeys, mine);
  list = setEntry(list, ctx, 'Update', [...keep, ...changed]);
  next.metadata.managedFields = list;
}

/** Merges an applied configuration into the live object (lists by their semantics, granular maps recursively, atomic maps replaced). */
function mergeApplied(live: unknown, config: unknown, lists: ListSemanticsResolver, schemaPath: string[]): unknown {
  if (Array.isArray(config)) {
    const sem = lists(schemaPath);
    if (sem === 'atomic' || !Array.isArray(live)) return copyObject(config);
    if (sem === 'set') return [...live, ...config.filter((c) => !live.some((l) => deepEqual(l, c)))];
    const out = [...live];
    for (const item of config) {
      const i = out.findIndex((l) => isObject(l) && isObject(item) && sem.keys.every((k) => deepEqual(keyValue(l, sem, k), keyValue(item, sem, k))));
      if (i >= 0) out[i] = mergeApplied(out[i], item, lists, schemaPath);
      else out.push(copyObject(item));
    }
    return out;
  }
  if (!isObject(config) || isAtomicMap(lists, schemaPath)) return copyObject(config);
  const out: Obj = isObject(live) ? { ...live } : {};
  for (const [k, v] of Object.entries(config)) out[k] = mergeApplied(out[k], v, lists, [...schemaPath, k]);
  return out;
}

function describeManager(e: ManagedFieldsEntry): string {
  const sub = e.subresource ? ` with subresource "${e.subresource}"` : '';
  return e.operation === 'Apply' ? `"${e.manager}"${sub}` : `"${e.manager}"${sub} using ${e.apiVersion} at ${e.time}`;
}

function renderPath(p: FieldPath): string {
  return p
    .filter((t) => t !== '.')
    .map((t) => (t.startsWith('f:') ? `.${t.slice(2)}` : t.startsWith('k:') ? `[${Object.entries(JSON.parse(t.slice(2)) as Obj).map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(',')}]` : `[=${t.slice(2)}]`))
    .join('');
}

/** 409 Conflict for server-side apply, with one cause per conflicting field. */
function applyConflict(conflicts: Array<{ entry: ManagedFieldsEntry; path: FieldPath }>): ApiError {
  const byManager = new Map<string, FieldPath[]>();
  for (const c of conflicts) {
    const m = describeManager(c.entry);
    byManager.set(m, [...(byManager.get(m) ?? []), c.path]);
  }
  const managers = [...byManager.keys()].sort();
  let message: string;
  if (conflicts.length === 1) message = `Apply failed with 1 conflict: conflict with ${managers[0]}: ${renderPath(conflicts[0]!.path)}`;
  else {
    const parts = managers.map((m) => `conflicts with ${m}:\n${byManager.get(m)!.map((p) => `- ${renderPath(p)}`).join('\n')}`);
    message = `Apply failed with ${conflicts.length} conflicts: ${parts.join('\n')}`;
  }
  const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${describeManager(c.entry)}`, field: renderPath(c.path) }));
  return new ApiError(409, 'Conflict', message, { causes });
}

/**
 * Server-side apply of `config` onto `live` (undefined = create). Returns the merged object with
 * managedFields updated; throws 409 on conflicts unless `force`.
 */
export function serverSideApply(live: KubeObject | undefined, given: KubeObject, givenCtx: OwnershipContext, force: boolean): KubeObject {
  const ctx = forObject(givenCtx, given);
  const config = given;
  const configView = ownedView(config, ctx.subresource, ctx.statusSubresource);
  const applied = leafPaths(configView, ctx.lists);
  let list = live ? entries(live) : [];
  const mine = (e: ManagedFieldsEntry): boolean => e.manager === ctx.manager && e.operation === 'Apply' && (e.subresource ?? '') === (ctx.subresource ?? '');
  const taken = new Set<string>();
  if (live) {
    const liveView = ownedView(live, ctx.subresource, ctx.statusSubresource);
    const conflicts: Array<{ entry: ManagedFieldsEntry; path: FieldPath }> = [];
    for (const entry of list) {
      if (mine(entry) || (entry.manager === ctx.manager && (entry.subresource ?? '') === (ctx.subresource ?? ''))) continue;
      const owned = new Set(fromFieldsV1(entry.fieldsV1).map(pathKey));
      for (const p of applied) {
        // an item's presence (`.`) is shared, never a conflict: only the values of its fields can differ
        if (p[p.length - 1] === '.') continue;
        if (owned.has(pathKey(p)) && !deepEqual(valueAt(configView, p), valueAt(liveView, p))) conflicts.push({ entry, path: p });
      }
    }
    if (conflicts.length && !force) throw applyConflict(conflicts);
    for (const c of conflicts) taken.add(pathKey(c.path));
  }
  const base: KubeObject = live ? copyObject(live) : { apiVersion: config.apiVersion, kind: config.kind, metadata: {} as StoredObjectMeta };
  // keyed list items that leave out a key field with a schema default (a port's protocol) get the default,
  // as defaulting gives it before a real server merges; the applier does not own the defaulted field
  const defaulted = withKeyDefaults({ ...config, metadata: { ...(config.metadata ?? {}) } }, ctx.lists);
  const merged = mergeApplied(base, defaulted, ctx.lists, []) as KubeObject;
  merged.metadata.managedFields = undefined;
  delete merged.metadata.managedFields;
  const appliedKeys = new Set(applied.map(pathKey));
  const previous = list.find(mine);
  if (previous) {
    const others = new Set(list.filter((e) => !mine(e)).flatMap((e) => fromFieldsV1(e.fieldsV1).map(pathKey)));
    const removed = fromFieldsV1(previous.fieldsV1).filter((p) => !appliedKeys.has(pathKey(p)) && !others.has(pathKey(p)));
    for (const p of removed.sort((a, b) => b.length - a.length)) deleteAt(merged, p);
  }
  list = withoutPaths(list, taken, mine);
  list = setEntry(list, ctx, 'Apply', applied);
  merged.metadata.managedFields = list;
  return merged;
}

/**
 * The entries of managers that wrote in another version than a write's (structured-merge-diff compares
 * in each manager's version): `oldObject` and `newObject` are the object before and after the write,
 * converted to that version. Fields the write set or changed are taken from them — for an apply without
 * force that is a 409 conflict — and fields it removed leave their sets. Returns each entry as it is now,
 * undefined for one left with no field.
 */
export function reconcileOtherVersionEntries(
  list: ManagedFieldsEntry[],
  oldObject: KubeObject,
  newObject: KubeObject,
  ctx: Pick<OwnershipContext, 'subresource' | 'statusSubresource' | 'lists'>,
  apply: { force: boolean } | undefined,
): Array<ManagedFieldsEntry | undefined> {
  const oldView = ownedView(oldObject, ctx.subresource, ctx.statusSubresource);
  const newView = ownedView(newObject, ctx.subresource, ctx.statusSubresource);
  const newPaths = leafPaths(newView, ctx.lists);
  const newKeys = new Set(newPaths.map(pathKey));
  const changed = new Set(newPaths.filter((p) => !deepEqual(valueAt(newView, p), valueAt(oldView, p))).map(pathKey));
  const removed = new Set(leafPaths(oldView, ctx.lists).filter((p) => !newKeys.has(pathKey(p))).map(pathKey));
  const conflicts = list.flatMap((entry) => fromFieldsV1(entry.fieldsV1).filter((p) => p[p.length - 1] !== '.' && changed.has(pathKey(p))).map((path) => ({ entry, path })));
  if (apply && !apply.force && conflicts.length) throw applyConflict(conflicts);
  return list.map((e) => {
    const fieldsV1 = toFieldsV1(fromFieldsV1(e.fieldsV1).filter((p) => !changed.has(pathKey(p)) && !removed.has(pathKey(p))));
    return Object.keys(fieldsV1).length > 0 ? { ...e, fieldsV1 } : undefined;
  });
}
