/**
 * Validation of custom resources against their OpenAPI v3 schema with the messages of the real
 * server (kube-openapi templates, `in body`; §5.5), then the CRD's CEL rules.
 */
import { type FieldError, duplicate, invalid, notSupported, required, tooLong, tooMany, typeInvalid } from '../errors/field-errors.js';
import { evaluateCelRules, hasCelRules } from './cel-rules.js';
import { deepEqual } from '../registry/system-metadata.js';

import type { CrdSchema as Schema } from './crd-schema.js';
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function jsonTypeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

function typeMatches(type: string, v: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof v === 'string';
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return Array.isArray(v);
    case 'object':
      return isObject(v);
    default:
      return true;
  }
}

const formats: Record<string, RegExp> = {
  'date-time': /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-\d{2}-\d{2}$/,
  byte: /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/,
  uuid: /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/,
  email: /^[^@\s]+@[^@\s]+$/,
  ipv4: /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/,
  hostname: /^[a-zA-Z0-9]([-a-zA-Z0-9]{0,62})?(\.[a-zA-Z0-9]([-a-zA-Z0-9]{0,62})?)*$/,
  mac: /^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$/,
  duration: /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/,
};

function validateNode(v: unknown, schema: Schema, path: string, errs: FieldError[]): void {
  if (v === undefined) return;
  if (schema['x-kubernetes-int-or-string'] === true) {
    if (!(typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)))) {
      errs.push(typeInvalid(path, jsonTypeName(v), `${path} in body must be of type int-or-string: ${JSON.stringify(jsonTypeName(v))}`));
    }
    return;
  }
  if (v === null) {
    if (schema.nullable) return;
    if (schema.type) errs.push(typeInvalid(path, 'null', `${path} in body must be of type ${schema.type}: "null"`));
    return;
  }
  if (schema.type && !typeMatches(schema.type, v)) {
    errs.push(typeInvalid(path, jsonTypeName(v), `${path} in body must be of type ${schema.type}: ${JSON.stringify(jsonTypeName(v))}`));
    return;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(v))) {
    errs.push(notSupported(path, v, schema.enum.map((e: unknown) => (typeof e === 'string' ? e : JSON.stringify(e)))));
  }
  if (typeof v === 'string') validateString(v, schema, path, errs);
  if (typeof v === 'number') validateNumber(v, schema, path, errs);
  if (Array.isArray(v)) validateArray(v, schema, path, errs);
  if (isObject(v)) validateObject(v, schema, path, errs);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const subs: Schema[] | undefined = schema[key];
    if (!Array.isArray(subs)) continue;
    const results = subs.map((s) => {
      const e: FieldError[] = [];
      validateNode(v, s, path, e);
      return e;
    });
    if (key === 'allOf') for (const r of results) errs.push(...r);
    if (key === 'anyOf' && !results.some((r) => r.length === 0)) errs.push(invalid(path, v, `${path} in body must validate at least one schema (anyOf)`));
    if (key === 'oneOf' && results.filter((r) => r.length === 0).length !== 1) errs.push(invalid(path, v, `${path} in body must validate one and only one schema (oneOf)`));
  }
  if (isObject(schema.not)) {
    const e: FieldError[] = [];
    validateNode(v, schema.not, path, e);
    if (e.length === 0) errs.push(invalid(path, v, `${path} in body must not validate the schema (not)`));
  }
}

function validateString(v: string, s: Schema, path: string, errs: FieldError[]): void {
  if (typeof s.maxLength === 'number' && [...v].length > s.maxLength) errs.push(tooLong(path, s.maxLength));
  if (typeof s.minLength === 'number' && [...v].length < s.minLength) errs.push(invalid(path, v, `${path} in body should be at least ${s.minLength} chars long`));
  if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(v)) errs.push(invalid(path, v, `${path} in body should match '${s.pattern}'`));
  const re = s.format ? formats[s.format] : undefined;
  if (re && !re.test(v)) errs.push(typeInvalid(path, v, `${path} in body must be of type ${s.format}: ${JSON.stringify(v)}`));
}

function validateNumber(v: number, s: Schema, path: string, errs: FieldError[]): void {
  if (typeof s.minimum === 'number') {
    if (s.exclusiveMinimum === true ? v <= s.minimum : v < s.minimum) {
      errs.push(invalid(path, v, `${path} in body should be greater than ${s.exclusiveMinimum === true ? '' : 'or equal to '}${s.minimum}`));
    }
  }
  if (typeof s.maximum === 'number') {
    if (s.exclusiveMaximum === true ? v >= s.maximum : v > s.maximum) {
      errs.push(invalid(path, v, `${path} in body should be less than ${s.exclusiveMaximum === true ? '' : 'or equal to '}${s.maximum}`));
    }
  }
  if (typeof s.multipleOf === 'number' && s.multipleOf > 0 && Math.abs(v / s.multipleOf - Math.round(v / s.multipleOf)) > 1e-9) {
    errs.push(invalid(path, v, `${path} in body should be a multiple of ${s.multipleOf}`));
  }
  if (s.format === 'int32' && (v > 2147483647 || v < -2147483648)) errs.push(invalid(path, v, `${path} in body must be of type int32: ${JSON.stringify(String(v))}`));
}

function validateArray(v: unknown[], s: Schema, path: string, errs: FieldError[]): void {
  if (typeof s.maxItems === 'number' && v.length > s.maxItems) errs.push(tooMany(path, v.length, s.maxItems));
  if (typeof s.minItems === 'number' && v.length < s.minItems) errs.push(invalid(path, v.length, `${path} in body should have at least ${s.minItems} items`));
  const listType = s['x-kubernetes-list-type'];
  if (listType === 'set') {
    const seen = new Set<string>();
    v.forEach((item, i) => {
      const k = JSON.stringify(item);
      if (seen.has(k)) errs.push(duplicate(`${path}[${i}]`, item));
      seen.add(k);
    });
  } else if (listType === 'map') {
    const keys: string[] = s['x-kubernetes-list-map-keys'] ?? [];
    const seen = new Set<string>();
    v.forEach((item, i) => {
      if (!isObject(item)) return;
      const k = JSON.stringify(keys.map((key) => item[key]));
      if (seen.has(k)) errs.push(duplicate(`${path}[${i}]`, Object.fromEntries(keys.map((key) => [key, item[key]]))));
      seen.add(k);
    });
  }
  const items = s.items;
  if (items) v.forEach((item, i) => validateNode(item, items, `${path}[${i}]`, errs));
}

function validateObject(v: Record<string, unknown>, s: Schema, path: string, errs: FieldError[]): void {
  const prefix = path ? `${path}.` : '';
  for (const r of (s.required ?? []) as string[]) if (v[r] === undefined) errs.push(required(`${prefix}${r}`));
  const count = Object.keys(v).length;
  if (typeof s.maxProperties === 'number' && count > s.maxProperties) errs.push(tooMany(path, count, s.maxProperties));
  if (typeof s.minProperties === 'number' && count < s.minProperties) errs.push(invalid(path, count, `${path} in body should have at least ${s.minProperties} properties`));
  for (const [key, child] of Object.entries(v)) {
    const childSchema = s.properties?.[key] ?? (isObject(s.additionalProperties) ? s.additionalProperties : undefined);
    if (childSchema) validateNode(child, childSchema, `${prefix}${key}`, errs);
  }
}

/** Value validations of one value at a JSON path (used to check CRD defaults). */
export function validateValue(value: unknown, schema: Schema, path: string): FieldError[] {
  const errs: FieldError[] = [];
  validateNode(value, schema, path, errs);
  return errs;
}

/** The value at a field-error path such as `spec.items[2].name` (undefined when absent). */
function valueAtFieldPath(object: unknown, path: string): unknown {
  let node: unknown = object;
  for (const token of path.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (node === undefined || node === null) return undefined;
    const container = node as Record<string | number, unknown>;
    node = token.startsWith('[') ? container[Number(token.slice(1, -1))] : container[token];
  }
  return node;
}

/**
 * Validation ratcheting (on in 1.32): on update, an error on a value that is unchanged from the old
 * object is dropped, so objects stored before a stricter schema can still be updated elsewhere.
 */
function ratchet(errs: FieldError[], object: Record<string, unknown>, old: Record<string, unknown> | undefined): FieldError[] {
  if (!old) return errs;
  return errs.filter((e) => e.field === '<nil>' || !deepEqual(valueAtFieldPath(object, e.field), valueAtFieldPath(old, e.field)));
}

/** Schema and CEL validation of a custom resource (metadata is validated by the generic path). */
export function validateCustomResource(object: Record<string, unknown>, schema: Schema, old?: Record<string, unknown>): FieldError[] {
  const errs: FieldError[] = [];
  const properties = { ...(schema.properties ?? {}) };
  delete properties.metadata;
  delete properties.apiVersion;
  delete properties.kind;
  const rootSchema: Schema = { ...schema, properties };
  const body = { ...object };
  delete body.metadata;
  delete body.apiVersion;
  delete body.kind;
  validateObject(body, rootSchema, '', errs);
  const kept = ratchet(errs, object, old);
  // as apiextensions' hasBlockingErr: type, enum, required and size violations would void the CEL cost bounds
  const blocking: FieldError['type'][] = ['FieldValueNotSupported', 'FieldValueRequired', 'FieldValueTooLong', 'FieldValueTooMany', 'FieldValueTypeInvalid'];
  if (!hasCelRules(schema)) return kept;
  if (kept.some((e) => blocking.includes(e.type))) {
    kept.push(invalid('<nil>', null, 'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation'));
  } else kept.push(...ratchet(evaluateCelRules(object, schema, old), object, old));
  return kept;
}
