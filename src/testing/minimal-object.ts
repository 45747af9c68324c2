/**
 * `minimalObject()`: an object of a custom kind built from its CRD's schema with every required field
 * filled (defaults, the first enum value, the minimum, the shortest allowed string), so a scaffolded test
 * keeps creating a valid object when the user replaces the placeholder spec with real, required fields.
 * kubebuilder's Go tests get this from zero values; TypeScript has none, the CRD `make manifests` wrote does.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import type { KindInfo } from '../runtime/client/kinds.js';
import type { KubeObject } from '../runtime/client/object.js';

export interface MinimalObjectOptions {
  /** CRD manifests: files or folders of .yaml/.yml files (the test env's crdPaths). */
  crdPaths: string[];
  name: string;
  /** For a namespaced kind; default "default". */
  namespace?: string;
}

/** kubernetes-types leaves the x-kubernetes-* extensions out of JSONSchemaProps. */
type Schema = JSONSchemaProps & { 'x-kubernetes-int-or-string'?: boolean };

interface CrdVersion {
  name: string;
  schema?: { openAPIV3Schema?: JSONSchemaProps };
}

/** Fields the API server sets or the caller gives: never synthesised. */
const SET_ELSEWHERE = new Set(['apiVersion', 'kind', 'metadata', 'status']);

export function minimalObject<T extends KubeObject>(kind: KindInfo<T>, options: MinimalObjectOptions): T {
  const crdName = `${kind.plural}.${kind.group}`;
  const schema = findSchema(crdName, kind.version, options.crdPaths);
  const where = `${crdName} ${kind.version}`;
  const object: Record<string, unknown> = {};
  for (const field of schema.required ?? []) {
    if (!SET_ELSEWHERE.has(field)) object[field] = valueFor(schema.properties?.[field] ?? {}, `${where}: .${field}`);
  }
  // spec is kept even when optional: the TypeScript type of a scaffolded kind requires it.
  if (object.spec === undefined && schema.properties?.spec) object.spec = valueFor(schema.properties.spec, `${where}: .spec`);
  const metadata = kind.namespaced ? { name: options.name, namespace: options.namespace ?? 'default' } : { name: options.name };
  return { apiVersion: kind.group === '' ? kind.version : `${kind.group}/${kind.version}`, kind: kind.kind, metadata, ...object } as unknown as T;
}

/** The smallest value `schema` accepts, with every required field of objects filled in. */
function valueFor(schema: Schema, at: string): unknown {
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (schema.enum && schema.enum.length > 0) return structuredClone(schema.enum[0]);
  if (schema['x-kubernetes-int-or-string']) return Math.max(0, schema.minimum ?? 0);
  switch (schema.type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const field of schema.required ?? []) value[field] = valueFor(schema.properties?.[field] ?? {}, `${at}.${field}`);
      return value;
    }
    case 'array': {
      const count = schema.minItems ?? 0;
      const item = schema.items && !Array.isArray(schema.items) ? (schema.items as JSONSchemaProps) : {};
      return Array.from({ length: count }, (_, i) => distinctItem(valueFor(item, `${at}[${i}]`), i));
    }
    case 'string':
      return stringFor(schema, at);
    case 'integer':
    case 'number':
      return numberFor(schema);
    case 'boolean':
      return false;
    default:
      return {};
  }
}

/** Items of a list that must be unique (sets, maps keyed by name) differ by a suffix on their strings. */
function distinctItem(value: unknown, index: number): unknown {
  if (index === 0) return value;
  if (typeof value === 'string') return `${value}${index}`;
  if (typeof value === 'number') return value + index;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' ? `${v}${index}` : v]));
  }
  return value;
}

function numberFor(schema: JSONSchemaProps): number {
  if (schema.minimum === undefined) return schema.maximum !== undefined && schema.maximum < 0 ? schema.maximum : 0;
  return schema.exclusiveMinimum ? schema.minimum + 1 : schema.minimum;
}

const FORMATTED: Record<string, string> = {
  'date-time': '1970-01-01T00:00:00Z',
  date: '1970-01-01',
  duration: '1s',
  byte: '',
  uuid: '00000000-0000-0000-0000-000000000000',
  email: 'user@example.com',
  hostname: 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  uri: 'https://example.com',
};

function stringFor(schema: JSONSchemaProps, at: string): string {
  const formatted = schema.format ? FORMATTED[schema.format] : undefined;
  const length = Math.max(schema.minLength ?? 0, 0);
  const candidates = [...(formatted !== undefined ? [formatted] : []), 'a'.repeat(length), 'a'.repeat(Math.max(length, 1)), '0'.repeat(Math.max(length, 1)), 'A'.repeat(Math.max(length, 1))];
  const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u');
  const fits = candidates.find((c) => c.length >= length && (schema.maxLength === undefined || c.length <= schema.maxLength) && (!pattern || pattern.test(c)));
  if (fits === undefined) throw new Error(`minimalObject: ${at}: no simple value matches pattern ${schema.pattern}; build this object by hand in the test`);
  return fits;
}

/** The openAPIV3Schema of `version` in the CRD named `crdName` under `crdPaths`. */
function findSchema(crdName: string, version: string, crdPaths: string[]): JSONSchemaProps {
  return findCrdVersion(crdName, version, crdPaths, 'minimalObject').schema;
}

/** The file of the CRD named `crdName` under `crdPaths` and the openAPIV3Schema of its `version`. */
export function findCrdVersion(crdName: string, version: string, crdPaths: string[], caller: string): { file: string; schema: JSONSchemaProps } {
  for (const file of crdPaths.flatMap((p) => manifestFiles(p, caller))) {
    for (const doc of parseAllDocuments(readFileSync(file, 'utf8'))) {
      const crd = doc.toJS() as { kind?: string; metadata?: { name?: string }; spec?: { versions?: CrdVersion[] } } | null;
      if (crd?.kind !== 'CustomResourceDefinition' || crd.metadata?.name !== crdName) continue;
      const served = crd.spec?.versions?.find((v) => v.name === version);
      if (!served?.schema?.openAPIV3Schema) throw new Error(`${caller}: ${file}: CRD ${crdName} has no schema for version ${version} (run \`make manifests\`)`);
      return { file, schema: served.schema.openAPIV3Schema };
    }
  }
  throw new Error(`${caller}: no CRD ${crdName} in ${crdPaths.join(', ')} (run \`make manifests\`)`);
}

function manifestFiles(p: string, caller: string): string[] {
  if (!existsSync(p)) throw new Error(`${caller}: crdPaths entry ${p} does not exist`);
  if (statSync(p).isFile()) return [p];
  return readdirSync(p)
    .filter((e) => /\.ya?ml$/.test(e))
    .sort()
    .map((e) => path.join(p, e));
}
