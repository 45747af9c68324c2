/**
 * Pruning and defaulting of custom resources by their structural schema (§5.3 steps 3–5): unknown
 * fields are dropped (their paths reported for fieldValidation), nulls of non-nullable fields
 * removed, and `default` values filled in for missing fields of objects that exist.
 */
import { objectMetaFields } from '../registry/define-kind.js';

import type { CrdSchema as Schema } from './crd-schema.js';
import { copyObject } from '../store/copy-object.js';
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function pruneNode(value: unknown, schema: Schema | undefined, path: string, unknown: string[], embedded: boolean): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    const items = schema.items;
    if (items) value.forEach((item, i) => pruneNode(item, items, `${path}[${i}]`, unknown, Boolean(items['x-kubernetes-embedded-resource'])));
    return;
  }
  if (!isObject(value)) return;
  const props: Record<string, Schema> | undefined = schema.properties;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const embeddedKeep = embedded || schema['x-kubernetes-embedded-resource'] === true;
  for (const key of Object.keys(value)) {
    const child = `${path ? `${path}.` : ''}${key}`;
    if (embeddedKeep && (key === 'apiVersion' || key === 'kind')) continue;
    if (embeddedKeep && key === 'metadata') {
      pruneMetadata(value[key], child, unknown);
      continue;
    }
    if (props && key in props) {
      const childSchema = props[key];
      if (value[key] === null && !childSchema.nullable) {
        delete value[key];
        continue;
      }
      pruneNode(value[key], childSchema, child, unknown, false);
    } else if (isObject(schema.additionalProperties)) {
      pruneNode(value[key], schema.additionalProperties, child, unknown, false);
    } else if (!preserve && schema.additionalProperties !== true) {
      unknown.push(child);
      delete value[key];
    }
  }
}

/**
 * A custom resource's metadata goes through metav1.ObjectMeta and back (objectmeta.GetObjectMeta /
 * SetObjectMeta): unknown keys are dropped, and so are empty maps and lists (ToUnstructured skips
 * zero-length omitempty fields) — unlike the rest of the CR, where `{}` stays.
 */
function pruneMetadata(meta: unknown, path: string, unknown: string[]): void {
  if (!isObject(meta)) return;
  for (const key of Object.keys(meta)) {
    if (!objectMetaFields.includes(key)) {
      unknown.push(`${path}.${key}`);
      delete meta[key];
    } else if (isEmptyCollection(meta[key])) delete meta[key];
  }
}

const isEmptyCollection = (v: unknown): boolean => v === null || (Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).length === 0);

/** Drops fields the schema does not declare; returns their paths (`spec.foo`). */
export function pruneUnknown(object: Record<string, unknown>, schema: Schema): string[] {
  const unknown: string[] = [];
  const rootProperties = { ...(schema.properties ?? {}) };
  delete rootProperties.metadata;
  for (const key of Object.keys(object)) {
    if (key === 'apiVersion' || key === 'kind') continue;
    if (key === 'metadata') {
      pruneMetadata(object.metadata, 'metadata', unknown);
      continue;
    }
    const childSchema = rootProperties[key];
    if (childSchema) {
      if (object[key] === null && !childSchema.nullable) {
        delete object[key];
        continue;
      }
      pruneNode(object[key], childSchema, key, unknown, false);
    } else if (schema['x-kubernetes-preserve-unknown-fields'] !== true) {
      unknown.push(key);
      delete object[key];
    }
  }
  return unknown;
}

function defaultNode(value: unknown, schema: Schema | undefined): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    if (schema.items) for (const item of value) defaultNode(item, schema.items);
    return;
  }
  if (!isObject(value)) return;
  for (const [key, childSchema] of Object.entries(schema.properties ?? {})) {
    if ((value[key] === undefined || (value[key] === null && !childSchema.nullable)) && childSchema.default !== undefined) {
      value[key] = copyObject(childSchema.default);
    }
    if (value[key] !== undefined) defaultNode(value[key], childSchema);
  }
  if (isObject(schema.additionalProperties)) for (const key of Object.keys(value)) defaultNode(value[key], schema.additionalProperties);
}

/** Fills `default` values into missing fields (recursing only into values that exist). */
export function applyDefaults(object: Record<string, unknown>, schema: Schema): void {
  const properties = { ...(schema.properties ?? {}) };
  delete properties.metadata;
  defaultNode(object, { ...schema, properties });
}
