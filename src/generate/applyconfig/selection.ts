/**
 * Decides which api folders and which of their types get apply configurations, following controller-gen's
 * applyconfiguration generator: it is opt-in per folder with `+kubebuilder:ac:generate=true` in
 * groupversion_info.ts; a type marker `+kubebuilder:ac:generate=<bool>` adds or removes one type; the kinds
 * (not their lists) are chosen by default, and every struct a chosen type reaches through its fields gets a
 * configuration too, even one marked `=false` (a field needs a type), declared in the folder or not. Aliases get none:
 * a field of an alias type is written with what the alias stands for.
 */
import type { ApiModel, ApiVersion, Marker, NamedType, TypeId, TypeRef } from '../../model/index.js';

export const AC_GENERATE_MARKER = 'kubebuilder:ac:generate';

/** The generation plan for one api folder. */
export interface ApplyConfigSelection {
  /** Structs declared in the folder, sorted by name. */
  local: NamedType[];
  /** Structs declared elsewhere that the folder's configurations reach, sorted by name. */
  external: NamedType[];
  /** The kinds among `local`: they get apiVersion/kind, the metadata builders and a `(name, namespace)` constructor. */
  roots: NamedType[];
}

function markerFlag(markers: readonly Marker[]): boolean | undefined {
  let result: boolean | undefined;
  for (const marker of markers) {
    if (marker.name !== AC_GENERATE_MARKER) continue;
    const value = marker.args[''];
    result = value === true || value === 'true' || value === undefined;
  }
  return result;
}

/** True when the folder asks for apply configurations (`+kubebuilder:ac:generate=true` on the package). */
export function applyConfigEnabled(version: ApiVersion): boolean {
  return markerFlag(version.markers) === true;
}

/** The struct a reference ends at through aliases, if any. */
export function structOf(model: ApiModel, ref: TypeRef, seen: Set<TypeId> = new Set()): NamedType | undefined {
  if (ref.kind !== 'named' || seen.has(ref.id)) return undefined;
  seen.add(ref.id);
  const type = model.types[ref.id];
  if (!type) return undefined;
  return type.definition.kind === 'struct' ? type : structOf(model, type.definition.target, seen);
}

/** The structs a reference names, looking through arrays, maps and aliases. */
function reachedStructs(model: ApiModel, ref: TypeRef, into: NamedType[], seen: Set<TypeId> = new Set()): void {
  if (ref.kind === 'array') return reachedStructs(model, ref.items, into, seen);
  if (ref.kind === 'map') return reachedStructs(model, ref.values, into, seen);
  if (ref.kind !== 'named' || seen.has(ref.id)) return;
  seen.add(ref.id);
  const type = model.types[ref.id];
  if (!type) return;
  if (type.definition.kind === 'struct') into.push(type);
  else reachedStructs(model, type.definition.target, into, seen);
}

/** A list type: `items` and ListMeta metadata (controller-gen makes no configuration for lists). */
function isList(type: NamedType): boolean {
  if (type.definition.kind !== 'struct') return false;
  const fields = type.definition.fields;
  return fields.some((f) => f.name === 'items') && fields.some((f) => f.name === 'metadata' && f.type.kind === 'known' && f.type.key === 'meta/v1.ListMeta');
}

/** Works out the structs of `version` (and those they reach) that get configurations; empty when the folder does not ask. */
export function selectApplyConfigTypes(model: ApiModel, version: ApiVersion): ApplyConfigSelection {
  if (!applyConfigEnabled(version)) return { local: [], external: [], roots: [] };
  const kindIds = new Set(version.kinds.map((k) => k.typeId));
  const localTypes = version.typeIds.map((id) => model.types[id]).filter((t): t is NamedType => t !== undefined);
  const chosen = new Set<TypeId>();
  const queue: NamedType[] = [];
  const choose = (type: NamedType): void => {
    if (chosen.has(type.id) || type.definition.kind !== 'struct') return;
    chosen.add(type.id);
    queue.push(type);
  };
  for (const type of localTypes) {
    const override = markerFlag(type.markers);
    if (override === true || (override === undefined && kindIds.has(type.id) && !isList(type))) choose(type);
  }
  while (queue.length > 0) {
    const type = queue.shift()!;
    if (type.definition.kind !== 'struct') continue;
    const reached: NamedType[] = [];
    for (const embed of type.definition.embeds) reachedStructs(model, embed, reached);
    for (const field of type.definition.fields) reachedStructs(model, field.type, reached);
    for (const target of reached) choose(target);
  }
  const localIds = new Set(version.typeIds);
  const byName = (a: NamedType, b: NamedType): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1);
  const all = [...chosen].map((id) => model.types[id]!);
  const local = all.filter((t) => localIds.has(t.id)).sort(byName);
  return { local, external: all.filter((t) => !localIds.has(t.id)).sort(byName), roots: local.filter((t) => kindIds.has(t.id)) };
}
