/**
 * The API model: what the reader (src/reader, the only ts-morph user) extracts from `api/**\/*.ts` and what
 * every emitter (CRD, deep-copy, docs) reads. Plain data, no ts-morph objects, so it can be built by hand in
 * tests and serialised. Named types are kept as references (`{ kind: 'named', id }`), never flattened: the
 * CRD builder resolves and merges them; the deep-copy emitter walks them.
 *
 * Shape: ApiModel → groups (by API group) → versions (one per Go-like "package", i.e. one api folder with a
 * groupversion_info.ts) → kinds (root types) and all named types declared in that folder; `model.types`
 * indexes every named type the api files declare or import (including ones from non-api folders).
 *
 * Stability: fields are only ever added. Positions are 1-based; file paths are relative to the project
 * root with `/` separators (absolute when the file lies outside the root).
 */
import type { Marker, SourcePosition } from '../markers/types.js';

export type { Marker, SourcePosition } from '../markers/types.js';

/** The whole API of a project. */
export interface ApiModel {
  /** Project root (absolute path) the file paths are relative to. */
  root: string;
  /** API groups sorted by name; a group appears once even when its versions live in several folders. */
  groups: ApiGroup[];
  /** Every named type reachable from the api folders, by `TypeId`. */
  types: Record<TypeId, NamedType>;
  /**
   * What the controllers' markers declare (`+kubebuilder:rbac`, `+kubebuilder:webhook`,
   * `+kubebuilder:webhookconfiguration`), when the reader was given controller files (`kubeforge manifests`);
   * absent otherwise (`kubeforge generate` needs only the types).
   */
  controllers?: ControllerDeclarations;
}

/** The RBAC rules and webhooks the controller sources declare, in file order, then source order. */
export interface ControllerDeclarations {
  rbacRules: RbacRuleDeclaration[];
  webhooks: WebhookDeclaration[];
  webhookConfigurations: WebhookConfigurationDeclaration[];
}

/** One `+kubebuilder:rbac` marker: lists as written (`core` not yet mapped to ''), not deduplicated. */
export interface RbacRuleDeclaration {
  groups: string[];
  resources: string[];
  resourceNames: string[];
  urls: string[];
  verbs: string[];
  /** '' for the ClusterRole; else the namespace of a Role. */
  namespace: string;
  /** '' when the marker names no role (the generator's default name is used). */
  roleName: string;
  position: SourcePosition;
}

/** A label selector of a webhook (metav1.LabelSelector). */
export interface LabelSelector {
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
  matchLabels?: Record<string, string>;
}

/**
 * One `+kubebuilder:webhook` marker, its values as written (policies and verbs are normalised and checked by
 * the webhook generator, which quotes `source` in its errors); the Service defaults of the catalogue applied.
 */
export interface WebhookDeclaration {
  /** The marker exactly as written, with its leading `+`. */
  source: string;
  position: SourcePosition;
  mutating: boolean;
  name?: string;
  path?: string;
  url?: string;
  failurePolicy?: string;
  matchPolicy?: string;
  sideEffects?: string;
  reinvocationPolicy?: string;
  timeoutSeconds?: number;
  groups: string[];
  resources: string[];
  verbs: string[];
  versions: string[];
  admissionReviewVersions: string[];
  webhookVersions: string[];
  /** The Service the API server calls when there is no `url` (name and namespace defaulted). */
  service: { name: string; namespace: string; port?: number };
  namespaceSelector?: LabelSelector;
  objectSelector?: LabelSelector;
}

/** One `+kubebuilder:webhookconfiguration` marker: a name for the mutating or the validating configuration. */
export interface WebhookConfigurationDeclaration {
  mutating: boolean;
  name?: string;
  position: SourcePosition;
}

/**
 * Identity of a named type: `<file>#<Name>`, file relative to the root (e.g. `api/v1/cronjob_types.ts#CronJobSpec`).
 * Two declarations with the same name in different files are different types.
 */
export type TypeId = string;

export interface ApiGroup {
  /** `+groupName` value; may be '' (controller-gen allows an empty group). */
  name: string;
  /** Versions sorted by name with plain string compare (controller-gen order: v1 < v1alpha1 < v1beta1 < v2). */
  versions: ApiVersion[];
}

/** One api folder (controller-gen's "package"): e.g. `api/v1` or `api/batch/v1`. */
export interface ApiVersion {
  group: string;
  /** `+versionName`, else the folder name. */
  version: string;
  /** Folder relative to the root, e.g. `api/v1`. */
  dir: string;
  /** Files of the folder that were read (relative paths), sorted. */
  files: string[];
  /** Package-level markers (`+groupName`, `+versionName`, `+kubebuilder:validation:Optional`,
   *  `+kubebuilder:object:generate`, `+kubebuilder:skip`, …) found in the folder's files. */
  markers: Marker[];
  /** Kinds declared in this folder, in declaration order (file order, then source order). */
  kinds: Kind[];
  /** Ids of every named type declared in this folder, in declaration order. */
  typeIds: TypeId[];
}

/**
 * A root API type: an interface with `apiVersion`, `kind` and `metadata?: ObjectMeta` (the TS stand-in for
 * embedding metav1.TypeMeta + metav1.ObjectMeta). List types (`metadata?: ListMeta` + `items`) are not kinds
 * but are listed in `ApiVersion.typeIds` like every other type.
 */
export interface Kind {
  /** Kind name = interface name, e.g. `CronJob`. */
  name: string;
  typeId: TypeId;
}

/** A declared type: an interface (struct) or a type alias. */
export interface NamedType {
  id: TypeId;
  name: string;
  /** File relative to the root. */
  file: string;
  /** Position of the type's name. */
  position: SourcePosition;
  /** Normalised doc text (controller-gen §6.1 rules applied: markers removed, TODO lines dropped, `---` ends it);
   *  '' when none. Lines joined with '\n'. */
  description: string;
  /** Type-level markers (godoc block + closest separated block), in source order. */
  markers: Marker[];
  definition: TypeDefinition;
  /** True when the declaration is `export`ed. */
  exported: boolean;
  /** The exported `deepCopy<Name>` written by hand in the type's folder, which replaces the generated one (§14). */
  handWrittenDeepCopy?: HandWrittenDeepCopy;
}

/** A hand-written deep-copy function found by the reader (src/reader/hand-written-copies.ts). */
export interface HandWrittenDeepCopy {
  /** File declaring it, relative to the root (absolute when outside it). */
  file: string;
  /** Its exported name, `deepCopy<Name>`. */
  functionName: string;
  /** Position of the function's name. */
  position: SourcePosition;
}

export type TypeDefinition = StructDefinition | AliasDefinition;

/** `interface X extends A, B { ... }`: fields in source order; `extends` are inline embeds (Go `json:",inline"`). */
export interface StructDefinition {
  kind: 'struct';
  /** Embedded (inlined) types from `extends`, in source order. Each is a `named` or `known` reference. */
  embeds: TypeRef[];
  fields: Field[];
}

/** `type X = <type>`: e.g. `type Rank = int32`, `type Policy = 'A' | 'B'`, `type Hosts = string[]`. */
export interface AliasDefinition {
  kind: 'alias';
  target: TypeRef;
}

export interface Field {
  /** JSON name = the property name. */
  name: string;
  /** `?` on the property: Go's `omitempty`. */
  optional: boolean;
  type: TypeRef;
  /** Normalised doc text, '' when none (same rules as NamedType.description). */
  description: string;
  /** Field-level markers in source order. */
  markers: Marker[];
  /** Position of the property name. */
  position: SourcePosition;
}

/**
 * A reference to a type as written at a use site. Named references are not resolved here.
 * - primitive: `string`, `boolean`, or a width-carrying number alias from kubeforge/api
 *   (int32 → integer/int32, int64 → integer/int64, int → integer, float32/float64 → number, bytes → string/byte).
 *   Plain `number` (no alias) is kept as `{ type: 'number' }`; the CRD builder rejects it ("no width") —
 *   users write int32/int64/int, or float64 with allowDangerousTypes.
 * - array / map: `T[]`, `Array<T>`, `Record<string, T>`, `{ [k: string]: T }`.
 * - named: a type declared in the project (interface or alias); resolve with `model.types[id]`.
 * - known: a Kubernetes type with a pre-computed schema (catalogue key, e.g. `batch/v1.JobTemplateSpec`,
 *   `meta/v1.Time`, `api/resource.Quantity`, `util/intstr.IntOrString`, `runtime.RawExtension`, `json.JSON`).
 * - enum: a union of literals (`'A' | 'B'`, `1 | 2`) ⇒ `enum: [...]` with the literals' JSON type.
 * - literal: a single literal type (`kind: 'CronJob'`).
 */
export type TypeRef = PrimitiveRef | ArrayRef | MapRef | NamedRef | KnownRef | EnumRef | LiteralRef;

export interface PrimitiveRef {
  kind: 'primitive';
  type: 'string' | 'boolean' | 'integer' | 'number';
  format?: 'int32' | 'int64' | 'byte';
  /** The kubeforge/api alias name the type was written with (`int32`, `bytes`, …), if any. */
  alias?: string;
}
export interface ArrayRef {
  kind: 'array';
  items: TypeRef;
}
export interface MapRef {
  kind: 'map';
  values: TypeRef;
}
export interface NamedRef {
  kind: 'named';
  id: TypeId;
  name: string;
}
export interface KnownRef {
  kind: 'known';
  /** Catalogue key `<group>/<version>.<Type>` (see src/generate/crd/known-types). */
  key: string;
}
export interface EnumRef {
  kind: 'enum';
  values: (string | number | boolean)[];
}
export interface LiteralRef {
  kind: 'literal';
  value: string | number | boolean;
}

/** Finds a type-level or field-level marker by canonical name (first occurrence). */
export function findMarker(markers: readonly Marker[], name: string): Marker | undefined {
  return markers.find((m) => m.name === name);
}

/** All markers with a canonical name, in source order. */
export function markersNamed(markers: readonly Marker[], name: string): Marker[] {
  return markers.filter((m) => m.name === name);
}
