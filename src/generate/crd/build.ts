/**
 * The CRD generator: API model → one apiextensions.k8s.io/v1 CustomResourceDefinition per (group, kind),
 * as controller-gen v0.21.0 builds it (spec §1, §11, §12): versions sorted by name, storage defaulting,
 * names and pluralisation, CRD-level markers from each version's kind type, descriptions limited by
 * maxDescLen, and a structural-schema check (structural.ts) — a CRD that fails it is not returned.
 */
import type { Diagnostic, Marker, SourcePosition } from '../../markers/types.js';
import type { ApiModel, ApiVersion, Kind, NamedType } from '../../model/index.js';
import { withLimitedDescriptions } from './descriptions.js';
import { pluralize } from './pluralize.js';
import { byteCompare, type Schema } from './schema.js';
import { checkCrd } from './structural.js';
import { SchemaBuilder } from './type-schemas.js';

export interface BuildCrdsOptions {
  /** controller-gen `crd:maxDescLen`: 0 removes descriptions, N > 0 shortens them; default: keep all. */
  maxDescLen?: number;
  /** Allow float32/float64 (`type: number`), as `crd:allowDangerousTypes=true`. */
  allowDangerousTypes?: boolean;
  /** Nested ObjectMeta gets name/namespace/labels/annotations/finalizers, as `crd:generateEmbeddedObjectMeta`. */
  generateEmbeddedObjectMeta?: boolean;
  /** Value of the `controller-gen.kubebuilder.io/version` annotation; default `v0.21.0` (what kubebuilder pins). */
  toolVersion?: string;
}

export interface GeneratedCrd {
  /** `<group>_<plural>.yaml` */
  fileName: string;
  /** The CRD as plain JSON data (serialise with emitCrdYaml). */
  document: CustomResourceDefinition;
}

export interface BuildCrdsResult {
  crds: GeneratedCrd[];
  diagnostics: Diagnostic[];
}

export interface CrdVersion {
  additionalPrinterColumns?: Record<string, unknown>[];
  deprecated?: boolean;
  deprecationWarning?: string;
  name: string;
  schema: { openAPIV3Schema: Schema };
  selectableFields?: { jsonPath: string }[];
  served: boolean;
  storage: boolean;
  subresources?: { scale?: { labelSelectorPath?: string; specReplicasPath: string; statusReplicasPath: string }; status?: Record<string, never> };
}

export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { annotations: Record<string, string>; labels?: Record<string, string>; name: string };
  spec: {
    group: string;
    names: { categories?: string[]; kind: string; listKind: string; plural: string; shortNames?: string[]; singular: string };
    scope: string;
    versions: CrdVersion[];
  };
}

/** One version's contribution to a kind's CRD. */
interface KindVersion {
  version: ApiVersion;
  kind: Kind;
  type: NamedType;
}

function markers(type: NamedType, name: string): Marker[] {
  return type.markers.filter((m) => m.name === name);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function list(v: unknown): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  return (Array.isArray(v) ? v : [v]).map(String);
}

/** `key=value` items of +kubebuilder:metadata into a map; reports items without `=`. */
function keyValues(items: string[], what: string, position: SourcePosition, diagnostics: Diagnostic[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    if (eq < 0) {
      diagnostics.push({ position, message: `${what} ${item} is not in 'xxx=xxx' format` });
      continue;
    }
    out[item.slice(0, eq)] = item.slice(eq + 1);
  }
  return out;
}

function versionEntry(kv: KindVersion, schema: Schema): CrdVersion | undefined {
  const t = kv.type;
  if (markers(t, 'kubebuilder:skipversion').length > 0) return undefined;
  const entry: CrdVersion = { name: kv.version.version, schema: { openAPIV3Schema: schema }, served: true, storage: false };
  const columns = markers(t, 'kubebuilder:printcolumn').map((m) => {
    const column: Record<string, unknown> = {};
    if (str(m.args.description)) column.description = m.args.description;
    if (str(m.args.format)) column.format = m.args.format;
    column.jsonPath = str(m.args.JSONPath) ?? '';
    column.name = str(m.args.name) ?? '';
    if (typeof m.args.priority === 'number' && m.args.priority !== 0) column.priority = m.args.priority;
    column.type = str(m.args.type) ?? '';
    return column;
  });
  if (columns.length > 0) entry.additionalPrinterColumns = columns;
  const deprecated = markers(t, 'kubebuilder:deprecatedversion')[0];
  if (deprecated) {
    entry.deprecated = true;
    if (str(deprecated.args.warning)) entry.deprecationWarning = deprecated.args.warning as string;
  }
  const selectable = markers(t, 'kubebuilder:selectablefield').map((m) => ({ jsonPath: str(m.args.JSONPath) ?? '' }));
  if (selectable.length > 0) entry.selectableFields = selectable;
  if (markers(t, 'kubebuilder:unservedversion').length > 0) entry.served = false;
  if (markers(t, 'kubebuilder:storageversion').length > 0) entry.storage = true;
  const status = markers(t, 'kubebuilder:subresource:status').length > 0;
  const scale = markers(t, 'kubebuilder:subresource:scale')[0];
  if (status || scale || columns.length > 0) {
    entry.subresources = {};
    if (scale) {
      entry.subresources.scale = {
        ...(str(scale.args.selectorpath) ? { labelSelectorPath: scale.args.selectorpath as string } : {}),
        specReplicasPath: str(scale.args.specpath) ?? '',
        statusReplicasPath: str(scale.args.statuspath) ?? '',
      };
    }
    if (status) entry.subresources.status = {};
  }
  return entry;
}

/**
 * Exactly one version of a kind with several must carry `+kubebuilder:storageversion`. As controller-gen,
 * a missing one is reported at every version's kind (each file is a place to fix it); several marked are
 * reported at each marked kind, naming the others, since the API server would reject the CRD.
 */
function storageVersionProblem(fullName: string, versions: CrdVersion[], kvs: KindVersion[]): Diagnostic[] | undefined {
  const emitted = new Set(versions.map((v) => v.name));
  const candidates = kvs.filter((kv) => emitted.has(kv.version.version));
  const where = (kv: KindVersion) => `${kv.version.version} (${kv.type.position.file}:${kv.type.position.line})`;
  const storage = candidates.filter((kv) => versions.find((v) => v.name === kv.version.version)?.storage);
  if (storage.length === 0) {
    const all = candidates.map(where).join(', ');
    return candidates.map((kv) => ({ position: kv.type.position, message: `CRD for ${fullName} has no storage version: mark exactly one of ${all} with +kubebuilder:storageversion` }));
  }
  if (storage.length > 1) {
    const all = storage.map(where).join(', ');
    return storage.map((kv) => ({ position: kv.type.position, message: `CRD for ${fullName} has more than one storage version: ${all} are marked +kubebuilder:storageversion; keep it on exactly one` }));
  }
  return undefined;
}

/** What every CRD of one buildCrds run shares: the schema builder and the maxDescLen results of shared subtrees. */
interface BuildContext {
  builder: SchemaBuilder;
  options: BuildCrdsOptions;
  diagnostics: Diagnostic[];
  limitedDescriptions: WeakMap<Schema, Schema>;
}

function buildCrd(group: string, kindName: string, kvs: KindVersion[], context: BuildContext): GeneratedCrd | undefined {
  const { builder, options, diagnostics } = context;
  const first = kvs[0]!.type;
  const names: CustomResourceDefinition['spec']['names'] = {
    kind: kindName,
    listKind: `${kindName}List`,
    plural: pluralize(kindName).toLowerCase(),
    singular: kindName.toLowerCase(),
  };
  let scope = 'Namespaced';
  const annotations: Record<string, string> = {};
  let labels: Record<string, string> | undefined;
  for (const kv of kvs) {
    for (const m of markers(kv.type, 'kubebuilder:resource')) {
      if (str(m.args.path)) names.plural = m.args.path as string;
      if (str(m.args.singular)) names.singular = m.args.singular as string;
      if (list(m.args.shortName)) names.shortNames = list(m.args.shortName);
      if (list(m.args.categories)) names.categories = list(m.args.categories);
      if (str(m.args.scope)) scope = m.args.scope as string;
    }
    for (const m of markers(kv.type, 'kubebuilder:metadata')) {
      Object.assign(annotations, keyValues(list(m.args.annotations) ?? [], 'annotation', m.position, diagnostics));
      if (m.args.labels !== undefined) labels = { ...labels, ...keyValues(list(m.args.labels) ?? [], 'label', m.position, diagnostics) };
    }
  }
  annotations['controller-gen.kubebuilder.io/version'] = options.toolVersion ?? 'v0.21.0';
  const versions: CrdVersion[] = [];
  for (const kv of kvs) {
    const kindSchema = builder.typeSchema(kv.type.id);
    kindSchema.properties = { ...kindSchema.properties, metadata: { type: 'object' } };
    const schema = withLimitedDescriptions(kindSchema, options.maxDescLen, context.limitedDescriptions);
    const entry = versionEntry(kv, schema);
    if (entry) versions.push(entry);
  }
  if (versions.length === 0) return undefined;
  versions.sort((a, b) => byteCompare(a.name, b.name));
  if (versions.length === 1) versions[0]!.storage = true;
  const where = first.position;
  const fullName = `${kindName}.${group}`;
  const storageProblem = storageVersionProblem(fullName, versions, kvs);
  if (storageProblem) {
    diagnostics.push(...storageProblem);
    return undefined;
  }
  if (!versions.some((v) => v.served)) {
    diagnostics.push({ position: where, message: `CRD for ${fullName} with version(s) [${versions.map((v) => v.name).join(' ')}] does not serve any version` });
    return undefined;
  }
  const document: CustomResourceDefinition = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { annotations, ...(labels ? { labels } : {}), name: `${names.plural}.${group}` },
    spec: { group, names, scope, versions },
  };
  const problems = checkCrd(document);
  if (problems.length > 0) {
    for (const p of problems)
      diagnostics.push({ position: where, message: `CRD for kind ${kindName} (${group}): not a valid structural CRD: ${p.path}: ${p.message}` });
    return undefined;
  }
  return { fileName: `${group}_${names.plural}.yaml`, document };
}

/** Builds every CRD of the model. A CRD with errors is left out; all problems are in `diagnostics`. */
export function buildCrds(model: ApiModel, options: BuildCrdsOptions = {}): BuildCrdsResult {
  const diagnostics: Diagnostic[] = [];
  const context: BuildContext = { builder: new SchemaBuilder(model, options, diagnostics), options, diagnostics, limitedDescriptions: new WeakMap() };
  const crds: GeneratedCrd[] = [];
  const byKind = new Map<string, { group: string; kind: string; versions: KindVersion[] }>();
  for (const group of model.groups)
    for (const version of group.versions)
      for (const kind of version.kinds) {
        const type = model.types[kind.typeId];
        if (!type) continue;
        const key = `${kind.name}.${group.name}`;
        const entry = byKind.get(key) ?? { group: group.name, kind: kind.name, versions: [] };
        entry.versions.push({ version, kind, type });
        byKind.set(key, entry);
      }
  for (const key of [...byKind.keys()].sort(byteCompare)) {
    const { group, kind, versions } = byKind.get(key)!;
    const crd = buildCrd(group, kind, versions, context);
    if (crd) crds.push(crd);
  }
  return { crds, diagnostics: dedupe(diagnostics) };
}

/** Types shared by several kinds are built once, but keep only one copy of each message anyway. */
function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((d) => {
    const key = `${d.position.file}:${d.position.line}:${d.position.column}:${d.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}


