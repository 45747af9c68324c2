/**
 * Decides which named types of one api folder get a generated deep-copy function, following
 * controller-gen's object generator where it makes sense in TypeScript:
 * - a type marker `+kubebuilder:object:generate=<bool>` wins, then the legacy `+k8s:deepcopy-gen=<bool>`;
 * - otherwise a type is generated when the folder has `+kubebuilder:object:generate=true` (kubebuilder puts
 *   it in every groupversion_info.ts), when it is a root (a kind, or `+kubebuilder:object:root=true`), or
 *   when it is reachable from a root through field types;
 * - only types that need copying get a function: interfaces, and aliases of arrays, maps or other such
 *   types (an alias of a string, number or literal union is immutable, as Go skips aliases of basic types);
 * - a type that is not exported cannot be named by the generated file: it is copied as plain JSON.
 * Types declared outside the folder but reachable from it get private helpers in the same file.
 * A type with a hand-written `deepCopy<Type>` (NamedType.handWrittenDeepCopy, spec §14) is selected like any
 * other — and also wherever it is reached — but the emitter calls the hand-written function instead of
 * writing one.
 */
import type { ApiModel, ApiVersion, NamedType, TypeId, TypeRef, Marker } from '../../model/index.js';

/** Known Kubernetes types whose wire form is a JSON scalar (string or number): copied by assignment. */
const SCALAR_KNOWN_TYPES = new Set([
  'meta/v1.Time',
  'meta/v1.MicroTime',
  'meta/v1.Duration',
  'api/resource.Quantity',
  'util/intstr.IntOrString',
]);

export function isScalarKnownType(key: string): boolean {
  return SCALAR_KNOWN_TYPES.has(key);
}

/** The generation plan for one api folder. */
export interface DeepCopySelection {
  /** Types declared in the folder that get an exported `deepCopy<Name>`, sorted by name. */
  exported: NamedType[];
  /** Types declared elsewhere, reachable from the folder's generated types, that get private helpers. */
  helpers: NamedType[];
  /** Root types (kinds and `object:root=true` types) of the folder that have a generated function. */
  roots: NamedType[];
}

function markerFlag(markers: readonly Marker[], name: string): boolean | undefined {
  let result: boolean | undefined;
  for (const marker of markers) {
    if (marker.name !== name) continue;
    const value = marker.args[''];
    if (value === true || value === 'true') result = true;
    else if (value === false || value === 'false') result = false;
    else if (name === 'k8s:deepcopy-gen' && typeof value === 'string' && value.split(',')[0] === 'package') result = true;
  }
  return result;
}

/** The type's own generate decision, or undefined when the markers say nothing. */
function typeGenerateOverride(type: NamedType): boolean | undefined {
  return markerFlag(type.markers, 'kubebuilder:object:generate') ?? markerFlag(type.markers, 'k8s:deepcopy-gen');
}

/** True when values of `ref` are immutable JSON scalars (assignment is a copy). */
export function isScalarRef(model: ApiModel, ref: TypeRef, seen: Set<TypeId> = new Set()): boolean {
  switch (ref.kind) {
    case 'primitive':
    case 'enum':
    case 'literal':
      return true;
    case 'known':
      return isScalarKnownType(ref.key);
    case 'array':
    case 'map':
      return false;
    case 'named': {
      const type = model.types[ref.id];
      if (!type || type.definition.kind === 'struct' || seen.has(ref.id)) return false;
      seen.add(ref.id);
      return isScalarRef(model, type.definition.target, seen);
    }
  }
}

/** True when the type is something a copy function makes sense for (not an alias of a scalar). */
export function needsCopyFunction(model: ApiModel, type: NamedType): boolean {
  if (!type.exported) return false;
  if (type.definition.kind === 'struct') return true;
  return !isScalarRef(model, type.definition.target);
}

/** Named types referenced by a type's fields, embeds or alias target. */
function referencedTypeIds(type: NamedType): TypeId[] {
  const ids: TypeId[] = [];
  const visit = (ref: TypeRef): void => {
    if (ref.kind === 'named') ids.push(ref.id);
    else if (ref.kind === 'array') visit(ref.items);
    else if (ref.kind === 'map') visit(ref.values);
  };
  if (type.definition.kind === 'struct') {
    type.definition.embeds.forEach(visit);
    for (const field of type.definition.fields) visit(field.type);
  } else {
    visit(type.definition.target);
  }
  return ids;
}

function isRoot(type: NamedType, kindIds: Set<TypeId>): boolean {
  return kindIds.has(type.id) || markerFlag(type.markers, 'kubebuilder:object:root') === true;
}

/** Works out which types of `version` get functions and which outside types need private helpers. */
export function selectDeepCopyTypes(model: ApiModel, version: ApiVersion): DeepCopySelection {
  const kindIds = new Set(version.kinds.map((k) => k.typeId));
  const packageEnabled =
    markerFlag(version.markers, 'kubebuilder:object:generate') === true ||
    markerFlag(version.markers, 'k8s:deepcopy-gen') === true;
  const localTypes = version.typeIds.map((id) => model.types[id]).filter((t): t is NamedType => t !== undefined);
  const wanted = (type: NamedType): boolean => typeGenerateOverride(type) !== false && needsCopyFunction(model, type);

  const chosen = new Set<TypeId>();
  const queue: NamedType[] = [];
  const choose = (type: NamedType): void => {
    if (chosen.has(type.id)) return;
    // A type with a hand-written copy is always called through it, even where nothing would be generated.
    if (wanted(type)) queue.push(type);
    else if (!type.handWrittenDeepCopy) return;
    chosen.add(type.id);
  };
  for (const type of localTypes) {
    const override = typeGenerateOverride(type);
    if (override === true || (override === undefined && (packageEnabled || isRoot(type, kindIds)))) choose(type);
  }
  // Everything a chosen type refers to must be copyable too (reachability from the roots).
  while (queue.length > 0) {
    for (const id of referencedTypeIds(queue.shift()!)) {
      const target = model.types[id];
      if (target) choose(target);
    }
  }

  const localIds = new Set(version.typeIds);
  const byName = (a: NamedType, b: NamedType): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id < b.id ? -1 : 1);
  const all = [...chosen].map((id) => model.types[id]!);
  const exported = all.filter((t) => localIds.has(t.id)).sort(byName);
  return {
    exported,
    helpers: all.filter((t) => !localIds.has(t.id)).sort(byName),
    roots: exported.filter((t) => isRoot(t, kindIds)),
  };
}
