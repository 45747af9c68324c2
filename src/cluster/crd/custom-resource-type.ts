/**
 * Turns one served version of an established CRD into a ResourceType: names and scope, status and
 * scale subresources, printer columns, selectable fields, and the strategy that prunes, defaults and
 * validates custom resources against the version's structural schema (§5.3).
 */
import type { Schema } from '../schemas/builtin-schemas.js';
import type { CrdSchema } from './crd-schema.js';
import type { CustomResourceColumnDefinition, CustomResourceDefinition, CustomResourceDefinitionVersion, SelectableField } from 'kubernetes-types/apiextensions/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject } from '../store/object-store.js';
import { type ResourceType, allVerbs } from '../registry/resource-type.js';
import { age, ageColumn, nameColumn } from '../registry/table-format.js';
import { evaluateJsonPath } from './json-path.js';
import { applyDefaults, pruneUnknown } from './prune-and-default.js';
import { validateCustomResource } from './schema-validation.js';
import { listSemanticsFromSchema } from './schema-lists.js';
import type { ListSemanticsResolver } from '../patch/field-sets.js';
import { addEmbeddedProperties, addTypeMetaProperties } from './published-type-meta.js';
import { copyObject } from '../store/copy-object.js';

export interface CustomResourceTypeExtras {
  listSemantics: ListSemanticsResolver;
}

function printerTable(version: CustomResourceDefinitionVersion) {
  const columns: CustomResourceColumnDefinition[] = version.additionalPrinterColumns ?? [];
  if (columns.length === 0) {
    return { columns: [nameColumn, ageColumn], cells: (o: KubeObject, now: number) => [o.metadata.name, age(o.metadata.creationTimestamp, now)] };
  }
  return {
    columns: [
      nameColumn,
      ...columns.map((c) => ({ name: c.name, type: c.type, format: c.format ?? '', description: c.description ?? '', priority: c.priority ?? 0 })),
    ],
    cells: (o: KubeObject, now: number) => [
      o.metadata.name,
      ...columns.map((c) => {
        const value = evaluateJsonPath(o, c.jsonPath);
        if (value === undefined || value === null) return null;
        if (c.type === 'date') return typeof value === 'string' ? age(value, now) : null;
        if (c.type === 'integer' || c.type === 'number') return typeof value === 'number' ? value : null;
        if (c.type === 'boolean') return typeof value === 'boolean' ? value : null;
        return typeof value === 'string' ? value : JSON.stringify(value);
      }),
    ],
  };
}

export function customResourceType(crd: KubeObject, version: CustomResourceDefinitionVersion, terminating: boolean): ResourceType & CustomResourceTypeExtras {
  const { spec, status } = asStored<CustomResourceDefinition>(crd);
  const names = status?.acceptedNames?.kind ? status.acceptedNames : spec.names;
  // the stored openAPIV3Schema passed the structural checks when the CRD was written
  const schema = (version.schema?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) as CrdSchema;
  const group: string = spec.group;
  const selectable: string[] = (version.selectableFields ?? []).map((f: SelectableField) => String(f.jsonPath));
  const kind: string = names.kind;
  return {
    group,
    version: version.name,
    resource: names.plural,
    kind,
    listKind: names.listKind ?? `${kind}List`,
    singular: names.singular ?? kind.toLowerCase(),
    namespaced: spec.scope === 'Namespaced',
    shortNames: names.shortNames ?? [],
    categories: names.categories ?? [],
    verbs: allVerbs,
    bucket: `${names.plural}.${group}`,
    nameRule: 'subdomain',
    statusSubresource: Boolean(version.subresources?.status),
    ...(version.subresources?.scale ? { scale: version.subresources.scale } : {}),
    otherSubresources: [],
    hasGeneration: true,
    returnsDeletedObject: false,
    defaultPropagation: 'Background',
    custom: true,
    terminating,
    ...(spec.conversion?.strategy === 'Webhook' ? { conversionWebhook: true } : {}),
    table: printerTable(version),
    listSemantics: listSemanticsFromSchema(schema),
    strategy: {
      dropUnknownFields: (o) => pruneUnknown(o, schema),
      prepareForCreate: (o) => applyDefaults(o, schema),
      prepareForUpdate: (o) => applyDefaults(o, schema),
      validateCreate: (o) => validateCustomResource(o, schema),
      validateUpdate: (o, old) => validateCustomResource(o, schema, old),
      // read-time defaulting only matters when the schema has defaults
      ...(JSON.stringify(schema).includes('"default"')
        ? {
            fromStorage: (o: KubeObject) => {
              applyDefaults(o, schema);
              return o;
            },
          }
        : {}),
      fieldLabels: (o) => {
        const out: Record<string, string> = {};
        for (const path of selectable) {
          const v = evaluateJsonPath(o, path);
          out[path.replace(/^\./, '')] = v === undefined || v === null ? '' : String(v);
        }
        return out;
      },
    },
    openAPISchema: () => schemaForOpenAPI(schema),
  };
}

/** The CR schema as published: the standard apiVersion, kind and metadata at the root and in embedded resources. */
function schemaForOpenAPI(schema: object): Schema {
  const copy = copyObject(schema) as Schema; // a CRD's openAPIV3Schema: an OpenAPI v3 schema
  addTypeMetaProperties(copy);
  addEmbeddedProperties(copy);
  return copy;
}
