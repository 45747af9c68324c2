/**
 * Leads a finding of the API-evolution check back to the TypeScript that causes it: walks the API model from
 * the kind's type along the finding's schema path (fields, embedded types, aliases, array items, map values)
 * and picks the marker that made the changed keyword, else the field, else — for a removed field — the type
 * that lost it, else the kind. A generated CEL rule is found through the CRD generator's own record of its marker.
 */
import type { Marker, SourcePosition } from '../markers/types.js';
import type { ApiModel, Field, NamedType, TypeRef } from '../model/index.js';
import { ruleOrigin } from '../generate/crd/rule-origins.js';
import type { SourceHint } from './findings.js';

/** The kind types of a group and kind, the wanted version's first. */
function kindTypes(model: ApiModel, hint: SourceHint): NamedType[] {
  const types: NamedType[] = [];
  for (const group of model.groups) {
    if (group.name !== hint.group) continue;
    for (const version of group.versions) {
      for (const kind of version.kinds) {
        const type = kind.name === hint.kind ? model.types[kind.typeId] : undefined;
        if (type && version.version === hint.version) types.unshift(type);
        else if (type) types.push(type);
      }
    }
  }
  return types;
}

/** The package markers (`+groupName`, …) of the folders that declare the kind. */
function packageMarkers(model: ApiModel, hint: SourceHint): Marker[] {
  return model.groups.filter((g) => g.name === hint.group).flatMap((g) => g.versions.filter((v) => v.kinds.some((k) => k.name === hint.kind)).flatMap((v) => v.markers));
}

function markerAmong(markers: readonly Marker[], names: readonly string[] | undefined): Marker | undefined {
  for (const name of names ?? []) {
    const found = markers.find((m) => m.name === name);
    if (found) return found;
  }
  return undefined;
}

/** Follows named aliases to a struct or a non-named type, collecting the type-level markers on the way. */
function resolve(model: ApiModel, ref: TypeRef): { struct?: NamedType; ref: TypeRef; markers: Marker[] } {
  const markers: Marker[] = [];
  let current = ref;
  for (let depth = 0; current.kind === 'named' && depth < 50; depth++) {
    const type = model.types[current.id];
    if (!type) break;
    markers.push(...type.markers);
    if (type.definition.kind === 'struct') return { struct: type, ref: current, markers };
    current = type.definition.target;
  }
  return { ref: current, markers };
}

/** The field named `name` of a struct, looking into its embedded (`extends`) types too; with the type declaring it. */
function findField(model: ApiModel, struct: NamedType, name: string, depth = 0): { field: Field; owner: NamedType } | undefined {
  if (struct.definition.kind !== 'struct' || depth > 20) return undefined;
  const own = struct.definition.fields.find((f) => f.name === name);
  if (own) return { field: own, owner: struct };
  for (const embed of struct.definition.embeds) {
    const inner = resolve(model, embed).struct;
    const found = inner ? findField(model, inner, name, depth + 1) : undefined;
    if (found) return found;
  }
  return undefined;
}

/** Where a walk along a schema path got to. */
interface WalkEnd {
  /** The deepest field reached (undefined at the kind's root). */
  field?: Field;
  /** Markers that apply to the node reached: the field's, then those of the named types it resolves to. */
  markers: Marker[];
  /** The struct the node is, when it is one. */
  struct?: NamedType;
  /** True when every step was followed (false: it entered a Kubernetes type or a type the model lacks). */
  complete: boolean;
}

function walk(model: ApiModel, kindType: NamedType, steps: SourceHint['steps']): WalkEnd {
  let ref: TypeRef = { kind: 'named', id: kindType.id, name: kindType.name };
  let field: Field | undefined;
  let own: Marker[] = [];
  for (const step of steps) {
    const resolved = resolve(model, ref);
    if ('property' in step) {
      const found = resolved.struct ? findField(model, resolved.struct, step.property) : undefined;
      if (!found) return { field, markers: [...own, ...resolved.markers], struct: resolved.struct, complete: false };
      field = found.field;
      own = found.field.markers;
      ref = found.field.type;
    } else if ('items' in step && resolved.ref.kind === 'array') {
      // `+kubebuilder:validation:items:…` markers on the field apply to the items.
      own = (field?.markers ?? []).filter((m) => m.text.startsWith('+kubebuilder:validation:items:'));
      ref = resolved.ref.items;
    } else if ('values' in step && resolved.ref.kind === 'map') {
      own = [];
      ref = resolved.ref.values;
    } else {
      return { field, markers: [...own, ...resolved.markers], struct: resolved.struct, complete: false };
    }
  }
  const end = resolve(model, ref);
  return { field, markers: [...own, ...end.markers], struct: end.struct, complete: true };
}

/** The source position of a finding's cause in `model`, or undefined when the model has no such kind. */
export function locateSource(model: ApiModel, hint: SourceHint): SourcePosition | undefined {
  const kinds = kindTypes(model, hint);
  const kindType = kinds[0];
  if (!kindType) return undefined;
  if (hint.target === 'kind') {
    const markers = [...kinds.flatMap((t) => t.markers), ...packageMarkers(model, hint)];
    return (markerAmong(kinds[0]!.markers, hint.markers) ?? markerAmong(markers, hint.markers))?.position ?? kindType.position;
  }
  if (hint.rule) {
    const origin = ruleOrigin(hint.rule);
    if (origin) return origin.position;
  }
  if (hint.target === 'owner') {
    // The type that lost the field: the struct the path's parent is.
    const parent = walk(model, kindType, hint.steps.slice(0, -1));
    if (parent.complete && parent.struct) return parent.struct.position;
    return parent.field?.position ?? kindType.position;
  }
  const end = walk(model, kindType, hint.steps);
  return markerAmong(end.markers, hint.markers)?.position ?? end.field?.position ?? kindType.position;
}
