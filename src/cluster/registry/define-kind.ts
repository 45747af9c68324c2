/**
 * A compact way to declare a built-in kind: names, scope, top-level fields, table and strategy, with
 * the defaults most kinds share. Kinds in the Kubernetes v1.32 schema catalogue (src/cluster/schemas) are
 * decoded against their full schema (unknown fields and wrong JSON types at every depth) and serve it to
 * OpenAPI/explain; others fall back to their declared top-level fields.
 */
import type { KubeObject } from '../store/object-store.js';
import { ageColumn, age, nameColumn } from './table-format.js';
import { allVerbs, type ResourceStrategy, type ResourceType, type TableSpec } from './resource-type.js';
import type { NameRule } from './object-meta.js';
import { type Schema, builtinDefinition, definitionName } from '../schemas/builtin-schemas.js';
import { decodeBuiltin } from '../schemas/typed-decoding.js';

export const objectMetaFields = [
  'annotations', 'creationTimestamp', 'deletionGracePeriodSeconds', 'deletionTimestamp', 'finalizers', 'generateName',
  'generation', 'labels', 'managedFields', 'name', 'namespace', 'ownerReferences', 'resourceVersion', 'selfLink', 'uid',
];

/** Drops fields of `object` not in `topLevel` (plus apiVersion/kind/metadata) and unknown ObjectMeta fields. */
export function dropUnknownTopLevel(object: KubeObject, fields: string[]): string[] {
  const topLevel = fields.map((f) => f.split(':')[0]!);
  const unknown: string[] = [];
  for (const key of Object.keys(object)) {
    if (key === 'apiVersion' || key === 'kind' || key === 'metadata' || topLevel.includes(key)) continue;
    unknown.push(key);
    delete object[key];
  }
  for (const key of Object.keys(object.metadata ?? {})) {
    if (objectMetaFields.includes(key)) continue;
    unknown.push(`metadata.${key}`);
    delete (object.metadata as Record<string, unknown>)[key];
  }
  return unknown;
}

export interface KindDeclaration {
  group?: string;
  version?: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  verbs?: string[];
  bucket?: string;
  nameRule?: NameRule;
  statusSubresource?: boolean;
  otherSubresources?: string[];
  hasGeneration?: boolean;
  returnsDeletedObject?: boolean;
  defaultPropagation?: 'Background' | 'Orphan';
  /** Top-level fields besides apiVersion/kind/metadata, as `name` (an object) or `name:string|boolean|integer|map`. */
  fields: string[];
  /** Extra columns after Name (Age is appended unless `noAge`). */
  table?: TableSpec;
  description?: string;
  strategy?: ResourceStrategy;
}

/** The default Name + Age table. */
export const nameAgeTable: TableSpec = {
  columns: [nameColumn, ageColumn],
  cells: (o, now) => [o.metadata.name, age(o.metadata.creationTimestamp, now)],
};

export function defineKind(d: KindDeclaration): ResourceType {
  const group = d.group ?? '';
  const version = d.version ?? 'v1';
  const definition = definitionName(group, version, d.kind);
  const strategy: ResourceStrategy = {
    dropUnknownFields: (o) => decodeBuiltin(o, definition) ?? dropUnknownTopLevel(o, d.fields),
    ...d.strategy,
  };
  return {
    group,
    version,
    resource: d.resource,
    kind: d.kind,
    listKind: `${d.kind}List`,
    singular: d.kind.toLowerCase(),
    namespaced: d.namespaced,
    shortNames: d.shortNames ?? [],
    categories: d.categories ?? [],
    verbs: d.verbs ?? allVerbs,
    bucket: d.bucket ?? (group ? `${d.resource}.${group}` : d.resource),
    nameRule: d.nameRule ?? 'subdomain',
    statusSubresource: d.statusSubresource ?? false,
    otherSubresources: d.otherSubresources ?? [],
    hasGeneration: d.hasGeneration ?? false,
    returnsDeletedObject: d.returnsDeletedObject ?? false,
    defaultPropagation: d.defaultPropagation ?? 'Background',
    custom: false,
    table: d.table ?? nameAgeTable,
    strategy,
    openAPISchema: () => builtinDefinition(definition) ?? builtinSchema(d),
  };
}

/** A shallow schema for explain and the OpenAPI documents: the declared top-level fields. */
function builtinSchema(d: KindDeclaration): Schema {
  const properties: Record<string, Schema> = {
    apiVersion: { type: 'string', description: 'APIVersion defines the versioned schema of this representation of an object.' },
    kind: { type: 'string', description: 'Kind is a string value representing the REST resource this object represents.' },
    metadata: { allOf: [{ $ref: '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta' }], default: {}, description: "Standard object's metadata." },
  };
  for (const f of d.fields) {
    const [name, type] = f.split(':') as [string, string | undefined];
    const description = `${name} of the ${d.kind}.`;
    if (type === 'map') properties[name] = { type: 'object', additionalProperties: { type: 'string', default: '' }, description };
    else if (type === 'list') properties[name] = { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }, description };
    else if (type) properties[name] = { type, description };
    else properties[name] = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, description };
  }
  return { type: 'object', description: d.description ?? `${d.kind} (served by the kubeforge local cluster).`, properties };
}
