/**
 * The structural-schema rules a CRD version's `openAPIV3Schema` must satisfy (§5.1), reported as
 * field errors at `spec.versions[i].schema.openAPIV3Schema…` with the real server's messages.
 */
import { type FieldError, forbidden, invalid, notSupported, required } from '../errors/field-errors.js';

import type { CrdSchema as Schema } from './crd-schema.js';
const isObject = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);
const allowedTypes = ['array', 'boolean', 'integer', 'number', 'object', 'string'];

interface Walk {
  errs: FieldError[];
  /** Inside allOf/anyOf/oneOf/not: only value validations allowed. */
  inJunctor: boolean;
}

function checkCommon(s: Schema, path: string, w: Walk): void {
  if (s.type === null || s.type === 'null') w.errs.push(forbidden(`${path}.type`, 'type cannot be set to null, use nullable as an alternative'));
  else if (s.type !== undefined && !allowedTypes.includes(s.type)) w.errs.push(notSupported(`${path}.type`, s.type, allowedTypes));
  if (s.$ref !== undefined) w.errs.push(forbidden(`${path}.$ref`, '$ref is not supported'));
  for (const k of ['definitions', 'dependencies', 'patternProperties', 'additionalItems', 'id']) if (s[k] !== undefined) w.errs.push(forbidden(`${path}.${k}`, `${k} is not supported`));
  if (s.uniqueItems === true) w.errs.push(forbidden(`${path}.uniqueItems`, 'uniqueItems cannot be set to true since the runtime complexity becomes quadratic'));
  if (Array.isArray(s.items)) w.errs.push(forbidden(`${path}.items`, 'items must be a schema object and not an array'));
  if (s.additionalProperties !== undefined && s.properties !== undefined) {
    w.errs.push(forbidden(`${path}.additionalProperties`, 'additionalProperties and properties are mutual exclusive'));
  }
  if (s.additionalProperties === false) w.errs.push(forbidden(`${path}.additionalProperties`, 'must not be false'));
  if (s['x-kubernetes-preserve-unknown-fields'] === false) w.errs.push(invalid(`${path}.x-kubernetes-preserve-unknown-fields`, false, 'must be true or undefined'));
  if (s['x-kubernetes-int-or-string'] === true && s['x-kubernetes-preserve-unknown-fields'] === true) {
    w.errs.push(forbidden(`${path}.x-kubernetes-preserve-unknown-fields`, 'must be false if x-kubernetes-int-or-string is true'));
  }
  if (s['x-kubernetes-embedded-resource'] === true) {
    if (s.type !== 'object') w.errs.push(invalid(`${path}.type`, s.type ?? '', 'must be object if x-kubernetes-embedded-resource is true'));
    if (!s.properties && s['x-kubernetes-preserve-unknown-fields'] !== true) {
      w.errs.push(required(`${path}.properties`, 'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields'));
    }
  }
  const listType = s['x-kubernetes-list-type'];
  if (listType !== undefined) {
    if (s.type !== 'array') w.errs.push(invalid(`${path}.x-kubernetes-list-type`, listType, 'must only be used if type is array'));
    else if (!['atomic', 'set', 'map'].includes(listType)) w.errs.push(notSupported(`${path}.x-kubernetes-list-type`, listType, ['atomic', 'set', 'map']));
    else if (listType === 'map') {
      const keys: unknown = s['x-kubernetes-list-map-keys'];
      if (!Array.isArray(keys) || keys.length === 0) w.errs.push(required(`${path}.x-kubernetes-list-map-keys`, 'must not be empty if x-kubernetes-list-type is map'));
      if (s.items && s.items.type !== 'object') w.errs.push(invalid(`${path}.items.type`, s.items.type ?? '', 'must be object if parent array\'s x-kubernetes-list-type is map'));
    }
  }
  const mapType = s['x-kubernetes-map-type'];
  if (mapType !== undefined) {
    if (s.type !== 'object') w.errs.push(invalid(`${path}.x-kubernetes-map-type`, mapType, 'must only be used if type is object'));
    else if (!['atomic', 'granular'].includes(mapType)) w.errs.push(notSupported(`${path}.x-kubernetes-map-type`, mapType, ['granular', 'atomic']));
  }
}

function checkJunctorContent(s: Schema, path: string, w: Walk): void {
  const notAllowed: Array<[string, string]> = [
    ['type', 'must be empty to be structural'], ['default', 'must be undefined to be structural'], ['description', 'must be empty to be structural'],
    ['title', 'must be empty to be structural'], ['additionalProperties', 'must be undefined to be structural'],
  ];
  for (const [k, msg] of notAllowed) if (s[k] !== undefined && s[k] !== '') w.errs.push(forbidden(`${path}.${k}`, msg));
  if (s.nullable === true) w.errs.push(forbidden(`${path}.nullable`, 'must be false to be structural'));
  for (const k of Object.keys(s)) if (k.startsWith('x-kubernetes-')) w.errs.push(forbidden(`${path}.${k}`, k === 'x-kubernetes-validations' ? 'must be empty to be structural' : 'must be false to be structural'));
}

function walk(s: Schema, path: string, w: Walk): void {
  checkCommon(s, path, w);
  if (w.inJunctor) checkJunctorContent(s, path, w);
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    if (!Array.isArray(s[junctor])) continue;
    const intOrString = s['x-kubernetes-int-or-string'] === true;
    (s[junctor] as Schema[]).forEach((sub, i) => {
      if (!isObject(sub)) return;
      if (intOrString && (junctor === 'anyOf' || junctor === 'allOf') && isIntOrStringBranch(sub)) return;
      const p = `${path}.${junctor}[${i}]`;
      walk(sub, p, { errs: w.errs, inJunctor: true });
      for (const prop of Object.keys(sub.properties ?? {})) {
        if (!s.properties || !(prop in s.properties)) w.errs.push(required(`${path}.properties[${prop}]`, `because it is defined in ${junctor}[${i}].properties[${prop}]`));
      }
    });
  }
  if (isObject(s.not)) walk(s.not, `${path}.not`, { errs: w.errs, inJunctor: true });
  for (const [name, child] of Object.entries((s.properties ?? {}) as Schema)) {
    const p = `${path}.properties[${name}]`;
    if (!isObject(child)) continue;
    if (!w.inJunctor && child.type === undefined && child['x-kubernetes-int-or-string'] !== true && child['x-kubernetes-preserve-unknown-fields'] !== true) {
      w.errs.push(required(`${p}.type`, 'must not be empty for specified object fields'));
    }
    walk(child, p, w);
  }
  if (isObject(s.items)) {
    const p = `${path}.items`;
    if (!w.inJunctor && s.items.type === undefined && s.items['x-kubernetes-int-or-string'] !== true && s.items['x-kubernetes-preserve-unknown-fields'] !== true) {
      w.errs.push(required(`${p}.type`, 'must not be empty for specified array items'));
    }
    walk(s.items, p, w);
  } else if (s.type === 'array' && !w.inJunctor && s.items === undefined) {
    w.errs.push(required(`${path}.items`, 'must be specified'));
  }
  if (isObject(s.additionalProperties)) {
    const p = `${path}.additionalProperties`;
    if (!w.inJunctor && s.additionalProperties.type === undefined && s.additionalProperties['x-kubernetes-int-or-string'] !== true && s.additionalProperties['x-kubernetes-preserve-unknown-fields'] !== true) {
      w.errs.push(required(`${p}.type`, 'must not be empty for specified object fields'));
    }
    walk(s.additionalProperties, p, w);
  }
}

function isIntOrStringBranch(s: Schema): boolean {
  const keys = Object.keys(s);
  return keys.length === 1 && (s.type === 'integer' || s.type === 'string');
}

/** Every structural error of a version schema rooted at `path`. */
export function structuralErrors(schema: unknown, path: string, statusSubresource: boolean): FieldError[] {
  const errs: FieldError[] = [];
  if (!isObject(schema)) return [required(path, 'schemas are required')];
  if (schema.type === undefined) errs.push(required(`${path}.type`, 'must not be empty at the root'));
  else if (schema.type !== 'object') errs.push(invalid(`${path}.type`, schema.type, 'must be object at the root'));
  if (schema.additionalProperties !== undefined) errs.push(forbidden(`${path}.additionalProperties`, 'must not be used at the root'));
  if (schema.nullable === true) errs.push(forbidden(`${path}.nullable`, 'must be false at the root'));
  const meta = schema.properties?.metadata;
  if (isObject(meta)) {
    const metaPath = `${path}.properties[metadata]`;
    const extra = Object.keys(meta).filter((k) => !['type', 'properties', 'description'].includes(k));
    const props = Object.keys(meta.properties ?? {}).filter((k) => k !== 'name' && k !== 'generateName');
    if (extra.length || props.length) errs.push(forbidden(metaPath, 'must not specify anything other than name and generateName, but metadata is implicitly specified'));
    if (meta.type !== undefined && meta.type !== 'object') errs.push(invalid(`${metaPath}.type`, meta.type, 'must be object'));
    if (meta.default !== undefined) errs.push(forbidden(`${metaPath}.default`, 'must not be set in top-level metadata'));
  }
  for (const k of ['apiVersion', 'kind']) {
    const p = schema.properties?.[k];
    if (isObject(p) && p.type !== 'string') errs.push(invalid(`${path}.properties[${k}].type`, p.type ?? '', 'must be string'));
  }
  if (statusSubresource) {
    const allowed = ['description', 'type', 'required', 'properties', 'items', 'x-kubernetes-validations', 'x-kubernetes-preserve-unknown-fields', 'title', 'example'];
    const bad = Object.keys(schema).filter((k) => !allowed.includes(k));
    if (bad.length) {
      errs.push(invalid(path, bad.join(','), 'only Description, Type, Required, Properties, Items, XValidations and XPreserveUnknownFields fields are allowed at the root of the schema if the status subresource is enabled'));
    }
  }
  walk(schema, path, { errs, inJunctor: false });
  return errs.sort((a, b) => (a.field < b.field ? -1 : a.field > b.field ? 1 : 0));
}
