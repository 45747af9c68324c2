/**
 * The apiextensions.k8s.io/v1 CustomResourceDefinition kind: defaulting, the spec and schema rules of
 * §5.1 with their messages (named under spec.validation / spec.subresources / … when every version
 * shares that part), immutability on update, and the initial status the POST response shows.
 */
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionSpec,
  CustomResourceDefinitionStatus,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
  JSONSchemaProps,
} from 'kubernetes-types/apiextensions/v1.js';
import { asStored } from '../store/kube-object.js';
import { type FieldError, GoSyntaxValue, forbidden, invalid, notSupported, required } from '../errors/field-errors.js';
import { defineKind } from '../registry/define-kind.js';
import { dns1035LabelErrors, dns1123SubdomainErrors } from '../registry/object-meta.js';
import type { KubeObject } from '../store/object-store.js';
import { column, nameColumn } from '../registry/table-format.js';
import { celCompileErrors } from './cel-rules.js';
import type { CrdSchema } from './crd-schema.js';
import { structuralErrors } from './structural-schema.js';
import { defaultErrors } from './default-checks.js';
import { deepEqual } from '../registry/system-metadata.js';
import { conversionErrors } from './conversion-validation.js';

export const crdCleanupFinalizer = 'customresourcecleanup.apiextensions.k8s.io';

/** A CRD's spec as a client sent it: not validated yet, so any field may be missing. */
type SentCrdSpec = Partial<CustomResourceDefinitionSpec>;

function defaultCrd(o: KubeObject): void {
  const spec = (o.spec ??= {}) as SentCrdSpec;
  const names: Partial<CustomResourceDefinitionNames> = (spec.names ??= {} as CustomResourceDefinitionNames);
  if (!names.singular && typeof names.kind === 'string') names.singular = names.kind.toLowerCase();
  if (!names.listKind && typeof names.kind === 'string') names.listKind = `${names.kind}List`;
  spec.conversion ??= { strategy: 'None' };
  for (const v of Array.isArray(spec.versions) ? spec.versions : []) {
    for (const c of v?.additionalPrinterColumns ?? []) c.priority ??= 0;
  }
}

function nameErrors(field: string, value: unknown, mixedCase = false): FieldError[] {
  if (typeof value !== 'string' || value === '') return [required(field)];
  const msgs = dns1035LabelErrors(mixedCase ? value.toLowerCase() : value);
  if (mixedCase) return msgs.map((m) => invalid(field, value, `may have mixed case, but should otherwise match: ${m}`));
  return msgs.map((m) => invalid(field, value, m));
}

const columnTypes = ['integer', 'number', 'string', 'boolean', 'date'];
const columnFormats = ['int32', 'int64', 'float', 'double', 'byte', 'date', 'date-time', 'password'];

/**
 * Answers of schemaErrors by schema text, path and status: a CRD's every write (its status updates
 * included) checks the same schema again, and a test file installs the same CRDs for each test.
 */
const checkedSchemas = new Map<string, FieldError[]>();
const maxCheckedSchemas = 64;

/** The structural, CEL and default checks of one openAPIV3Schema reported under `path`. */
function schemaErrors(written: JSONSchemaProps, path: string, statusOn: boolean): FieldError[] {
  const key = JSON.stringify([path, statusOn, written]);
  const known = checkedSchemas.get(key);
  if (known) return copyErrors(known);
  // kubernetes-types' JSONSchemaProps has no x-kubernetes extensions: read it as the CRD schema it is
  const schema = written as CrdSchema;
  const structural = structuralErrors(schema, path, statusOn);
  const errs = [...structural, ...celCompileErrors(schema, path)];
  if (structural.length === 0) errs.push(...defaultErrors(schema, path));
  if (checkedSchemas.size >= maxCheckedSchemas) checkedSchemas.delete(checkedSchemas.keys().next().value!);
  checkedSchemas.set(key, copyErrors(errs));
  return errs;
}

/** Field errors with their values copied (a GoSyntaxValue, immutable, kept as itself: it renders by its class). */
function copyErrors(errs: FieldError[]): FieldError[] {
  return errs.map((e) => ('value' in e && !(e.value instanceof GoSyntaxValue) ? { ...e, value: structuredClone(e.value) } : { ...e }));
}

function columnErrors(columns: unknown, p: string): FieldError[] {
  const errs: FieldError[] = [];
  (Array.isArray(columns) ? columns : []).forEach((c: CustomResourceColumnDefinition | undefined, j: number) => {
    const cp = `${p}[${j}]`;
    if (!c?.name) errs.push(required(`${cp}.name`));
    if (!columnTypes.includes(c?.type as string)) errs.push(notSupported(`${cp}.type`, c?.type ?? '', columnTypes));
    const format = c?.format;
    if (format && !columnFormats.includes(format)) errs.push(notSupported(`${cp}.format`, format, columnFormats));
    const jsonPath = c?.jsonPath;
    if (!jsonPath) errs.push(required(`${cp}.JSONPath`));
    else if (!String(jsonPath).startsWith('.')) errs.push(invalid(`${cp}.JSONPath`, jsonPath, 'must be a simple json path starting with .'));
  });
  return errs;
}

function subresourceErrors(subresources: CustomResourceSubresources | undefined, p: string): FieldError[] {
  const errs: FieldError[] = [];
  const scale = subresources?.scale;
  if (scale) {
    const sp = `${p}.scale`;
    if (!String(scale.specReplicasPath ?? '').startsWith('.spec.')) errs.push(invalid(`${sp}.specReplicasPath`, scale.specReplicasPath ?? '', 'should be a json path under .spec'));
    if (!String(scale.statusReplicasPath ?? '').startsWith('.status.')) errs.push(invalid(`${sp}.statusReplicasPath`, scale.statusReplicasPath ?? '', 'should be a json path under .status'));
    if (scale.labelSelectorPath !== undefined && !/^\.(spec|status)\./.test(scale.labelSelectorPath)) {
      errs.push(invalid(`${sp}.labelSelectorPath`, scale.labelSelectorPath, 'should be a json path under either .spec or .status'));
    }
  }
  return errs;
}

function selectableFieldErrors(fields: unknown, p: string): FieldError[] {
  return Array.isArray(fields) && fields.length > 8 ? [{ type: 'FieldValueTooMany', field: p, value: fields.length, detail: 'must have at most 8 items' }] : [];
}

/**
 * Which per-version parts every version carries identically: the v1 → internal conversion moves those
 * to the spec (`spec.validation`, `spec.subresources`, `spec.additionalPrinterColumns`,
 * `spec.selectableFields` — the last only together with the schema), and errors are named there.
 */
export function sharedVersionParts(versions: Array<CustomResourceDefinitionVersion | undefined>): { schema: boolean; subresources: boolean; columns: boolean; selectableFields: boolean } {
  const same = (part: keyof CustomResourceDefinitionVersion): boolean => versions.length > 0 && versions.every((v) => deepEqual(v?.[part], versions[0]?.[part]));
  const schema = versions.length > 0 && versions[0]?.schema?.openAPIV3Schema !== undefined && same('schema');
  return { schema, subresources: same('subresources'), columns: same('additionalPrinterColumns'), selectableFields: schema && same('selectableFields') };
}

function validateVersion(v: CustomResourceDefinitionVersion | undefined, i: number, errs: FieldError[], shared: ReturnType<typeof sharedVersionParts>): void {
  const p = `spec.versions[${i}]`;
  errs.push(...nameErrors(`${p}.name`, v?.name));
  const schema = v?.schema?.openAPIV3Schema;
  if (schema === undefined) errs.push(required(`${p}.schema.openAPIV3Schema`, 'schemas are required'));
  else if (!shared.schema) errs.push(...schemaErrors(schema, `${p}.schema.openAPIV3Schema`, Boolean(v?.subresources?.status)));
  if (v?.deprecationWarning !== undefined && v?.deprecated !== true) errs.push(forbidden(`${p}.deprecationWarning`, 'can only be set for deprecated versions'));
  if (!shared.columns) errs.push(...columnErrors(v?.additionalPrinterColumns, `${p}.additionalPrinterColumns`));
  if (!shared.subresources) errs.push(...subresourceErrors(v?.subresources, `${p}.subresources`));
  if (!shared.selectableFields) errs.push(...selectableFieldErrors(v?.selectableFields, `${p}.selectableFields`));
}

export function validateCrd(o: KubeObject): FieldError[] {
  const errs: FieldError[] = [];
  const spec = (o.spec ?? {}) as SentCrdSpec;
  const names: Partial<CustomResourceDefinitionNames> = spec.names ?? {};
  if (!spec.group) errs.push(required('spec.group'));
  else {
    errs.push(...dns1123SubdomainErrors(spec.group).map((m) => invalid('spec.group', spec.group, m)));
    if (!String(spec.group).includes('.')) errs.push(invalid('spec.group', spec.group, 'should be a domain with at least one dot'));
  }
  if (o.metadata.name !== `${names.plural}.${spec.group}`) errs.push(invalid('metadata.name', o.metadata.name, 'must be spec.names.plural+"."+spec.group'));
  if (!(['Cluster', 'Namespaced'] as Array<string | undefined>).includes(spec.scope)) errs.push(notSupported('spec.scope', spec.scope ?? '', ['Cluster', 'Namespaced']));
  errs.push(...nameErrors('spec.names.plural', names.plural));
  errs.push(...nameErrors('spec.names.singular', names.singular));
  errs.push(...nameErrors('spec.names.kind', names.kind, true));
  errs.push(...nameErrors('spec.names.listKind', names.listKind, true));
  if (names.kind && names.kind === names.listKind) errs.push(invalid('spec.names.listKind', names.listKind, 'kind and listKind cannot be the same'));
  (names.shortNames ?? []).forEach((s: string, i: number) => errs.push(...nameErrors(`spec.names.shortNames[${i}]`, s)));
  (names.categories ?? []).forEach((s: string, i: number) => errs.push(...nameErrors(`spec.names.categories[${i}]`, s)));
  const versions: Array<CustomResourceDefinitionVersion | undefined> = Array.isArray(spec.versions) ? spec.versions : [];
  if (versions.length === 0) errs.push(invalid('spec.versions', versions, 'must have exactly one version marked as storage version'));
  const seen = new Set<string | undefined>();
  const shared = sharedVersionParts(versions);
  versions.forEach((v, i) => {
    if (seen.has(v?.name)) errs.push(invalid('spec.versions', versions, 'must contain unique version names'));
    seen.add(v?.name);
    validateVersion(v, i, errs, shared);
  });
  if (shared.schema) {
    const statusOn = versions.some((v) => Boolean(v?.subresources?.status));
    errs.push(...schemaErrors(versions[0]!.schema!.openAPIV3Schema!, 'spec.validation.openAPIV3Schema', statusOn));
  }
  if (shared.subresources) errs.push(...subresourceErrors(versions[0]?.subresources, 'spec.subresources'));
  if (shared.columns) errs.push(...columnErrors(versions[0]?.additionalPrinterColumns, 'spec.additionalPrinterColumns'));
  if (shared.selectableFields) errs.push(...selectableFieldErrors(versions[0]?.selectableFields, 'spec.selectableFields'));
  if (versions.length > 0 && versions.filter((v) => v?.storage === true).length !== 1) errs.push(invalid('spec.versions', versions, 'must have exactly one version marked as storage version'));
  if (spec.preserveUnknownFields === true) errs.push(invalid('spec.preserveUnknownFields', true, 'cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead'));
  errs.push(...conversionErrors(spec.conversion));
  return errs;
}

function validateCrdUpdate(o: KubeObject, old: KubeObject): FieldError[] {
  const errs = validateCrd(o);
  const spec = o.spec as SentCrdSpec | undefined;
  const stored = asStored<CustomResourceDefinition>(old);
  if (spec?.group !== stored.spec?.group) errs.push(invalid('spec.group', spec?.group, 'field is immutable'));
  if (spec?.names?.plural !== stored.spec?.names?.plural) errs.push(invalid('spec.names.plural', spec?.names?.plural, 'field is immutable'));
  const established = (stored.status?.conditions ?? []).some((c) => c.type === 'Established' && c.status === 'True');
  if (established) {
    if (spec?.scope !== stored.spec?.scope) errs.push(invalid('spec.scope', spec?.scope, 'field is immutable'));
    if (spec?.names?.kind !== stored.spec?.names?.kind) errs.push(invalid('spec.names.kind', spec?.names?.kind, 'field is immutable'));
  }
  const versionNames = (spec?.versions ?? []).map((v: CustomResourceDefinitionVersion | undefined) => v?.name);
  (stored.status?.storedVersions ?? []).forEach((sv: string, i: number) => {
    if (!versionNames.includes(sv)) errs.push(invalid(`status.storedVersions[${i}]`, sv, 'must appear in spec.versions'));
  });
  return errs;
}

export const customResourceDefinitions = defineKind({
  group: 'apiextensions.k8s.io',
  resource: 'customresourcedefinitions',
  kind: 'CustomResourceDefinition',
  namespaced: false,
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  statusSubresource: true,
  hasGeneration: true,
  fields: ['spec', 'status'],
  table: {
    columns: [nameColumn, column('Created At', 'date', 'CreationTimestamp')],
    cells: (o) => [o.metadata.name, o.metadata.creationTimestamp],
  },
  strategy: {
    prepareForCreate(o) {
      defaultCrd(o);
      const storage = ((o.spec as SentCrdSpec).versions ?? []).find((v: CustomResourceDefinitionVersion | undefined) => v?.storage === true)?.name;
      o.status = { acceptedNames: { plural: '', kind: '' }, storedVersions: storage ? [storage] : [] };
    },
    prepareForUpdate(o) {
      defaultCrd(o);
      const storage = ((o.spec as SentCrdSpec | undefined)?.versions ?? []).find((v: CustomResourceDefinitionVersion | undefined) => v?.storage === true)?.name;
      const status = o.status as CustomResourceDefinitionStatus | undefined;
      if (storage && status && !(status.storedVersions ?? []).includes(storage)) status.storedVersions = [...(status.storedVersions ?? []), storage];
    },
    validateCreate: validateCrd,
    validateUpdate: validateCrdUpdate,
    finalizersOnDelete: [crdCleanupFinalizer],
  },
});
