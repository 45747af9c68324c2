/**
 * OpenAPI schema → CEL types, as the API server declares `self` for a rule: objects with properties
 * become object types (fields escaped as Kubernetes escapes them), additionalProperties maps, arrays
 * lists, int-or-string and preserve-unknown-fields dyn; and JSON values converted to match.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { celEquals } from './values.js';

import type { CrdSchema as Schema } from '../crd-schema.js';
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const reserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/** The CEL field name of a property (`__dash__`, `__dot__`, `__slash__`, `__underscores__`, `__<keyword>__`), or undefined when it cannot be accessed. */
export function escapePropertyName(name: string): string | undefined {
  if (reserved.has(name)) return `__${name}__`;
  if (!/^[a-zA-Z_.\-/][a-zA-Z0-9_.\-/]*$/.test(name)) return undefined;
  return name.replace(/__/g, '__underscores__').replace(/\./g, '__dot__').replace(/-/g, '__dash__').replace(/\//g, '__slash__');
}

/** The root of a CRD schema as rules see it: apiVersion, kind and metadata (name, generateName only). */
export function withTypeAndObjectMeta(schema: Schema): Schema {
  return {
    ...schema,
    type: 'object',
    properties: {
      ...(schema.properties ?? {}),
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object', properties: { name: { type: 'string' }, generateName: { type: 'string' } } },
    },
  };
}

const effective = (s: Schema | undefined): Schema | undefined => (isObject(s) && s['x-kubernetes-embedded-resource'] === true ? withTypeAndObjectMeta(s) : s);

/** The class of each object type, by the schema node it was declared for (values are built as instances). */
export type ObjectClasses = Map<Schema, new (fields: Record<string, unknown>) => object>;

function objectClass(classes: ObjectClasses, schema: Schema, name: string): new (fields: Record<string, unknown>) => object {
  let ctor = classes.get(schema);
  if (!ctor) {
    ctor = {
      [name]: class {
        constructor(fields: Record<string, unknown>) {
          Object.assign(this, fields);
        }
      },
    }[name] as new (fields: Record<string, unknown>) => object;
    classes.set(schema, ctor);
  }
  return ctor;
}

/**
 * Declares the CEL type of `schema` (registering object types on `env` under `name`) and returns the type string.
 * With `selectable`, object fields whose CEL name it refuses are left out of the declared types: the expressions
 * compiled in `env` never name them, so they can never select them (a Pod template's hundreds of nested object
 * types are then not registered for a rule that reads one field).
 */
export function declareType(env: Environment, schema: Schema | undefined, name: string, classes: ObjectClasses, selectable?: (field: string) => boolean): string {
  const s = effective(schema);
  if (!isObject(s) || s['x-kubernetes-int-or-string'] === true) return 'dyn';
  switch (s.type) {
    case 'integer':
      return 'int';
    case 'number':
      return 'double';
    case 'boolean':
      return 'bool';
    case 'string':
      if (s.format === 'byte') return 'bytes';
      if (s.format === 'date-time' || s.format === 'date') return 'google.protobuf.Timestamp';
      if (s.format === 'duration') return 'google.protobuf.Duration';
      return 'string';
    case 'array':
      return `list<${declareType(env, s.items, `${name}.items`, classes, selectable)}>`;
    case 'object': {
      if (isObject(s.properties) && Object.keys(s.properties).length > 0) {
        const fields: Record<string, string> = {};
        for (const [prop, child] of Object.entries(s.properties as Schema)) {
          const field = escapePropertyName(prop);
          if (field && (selectable === undefined || selectable(field))) fields[field] = declareType(env, child as Schema, `${name}.${field}`, classes, selectable);
        }
        env.registerType(name, { ctor: objectClass(classes, schema as Schema, name), fields });
        env.registerOperator(`${name} == ${name}`, (a: unknown, b: unknown) => celEquals(a, b));
        return name;
      }
      if (isObject(s.additionalProperties)) return `map<string, ${declareType(env, s.additionalProperties, `${name}.values`, classes, selectable)}>`;
      if (s.additionalProperties === true || s['x-kubernetes-preserve-unknown-fields'] === true) return s.additionalProperties === true ? 'map<string, dyn>' : 'dyn';
      env.registerType(name, { ctor: objectClass(classes, schema as Schema, name), fields: {} });
      env.registerOperator(`${name} == ${name}`, (a: unknown, b: unknown) => celEquals(a, b));
      return name;
    }
    default:
      return 'dyn';
  }
}

function durationOf(text: string, make: (seconds: bigint, nanos: number) => unknown): unknown {
  const units: Record<string, number> = { h: 3600e9, m: 60e9, s: 1e9, ms: 1e6, us: 1e3, µs: 1e3, ns: 1 };
  let nanos = 0;
  const sign = text.startsWith('-') ? -1 : 1;
  for (const [, num, unit] of text.replace(/^[-+]/, '').matchAll(/([0-9.]+)(h|ms|m|s|us|µs|ns)/g)) nanos += Number(num) * (units[unit as string] ?? 0);
  nanos *= sign;
  return make(BigInt(Math.trunc(nanos / 1e9)), Math.round(nanos % 1e9));
}

/** Converts a JSON value to the CEL value of its schema type (objects as instances of their declared class, fields escaped). */
export function toCelValue(value: unknown, schema: Schema | undefined, makeDuration: (seconds: bigint, nanos: number) => unknown, classes: ObjectClasses): unknown {
  const s = effective(schema);
  if (typeof value === 'number') {
    if (s?.type === 'number') return value;
    return Number.isInteger(value) ? BigInt(value) : value;
  }
  if (typeof value === 'string' && isObject(s) && s.type === 'string') {
    if (s.format === 'byte') return new Uint8Array(Buffer.from(value, 'base64'));
    if (s.format === 'date-time' || s.format === 'date') {
      const t = Date.parse(s.format === 'date' ? `${value}T00:00:00Z` : value);
      return Number.isNaN(t) ? value : new Date(t);
    }
    if (s.format === 'duration') return durationOf(value, makeDuration);
  }
  // Array.from (not map) so the list belongs to this realm even when the body was parsed in another
  if (Array.isArray(value)) return Array.from(value, (v) => toCelValue(v, isObject(s) ? s.items : undefined, makeDuration, classes));
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    const props = isObject(s?.properties) ? (s?.properties as Record<string, Schema>) : undefined;
    for (const [k, v] of Object.entries(value)) {
      if (props && Object.keys(props).length > 0) {
        const field = escapePropertyName(k);
        if (field && k in props) out[field] = toCelValue(v, props[k], makeDuration, classes);
      } else out[k] = toCelValue(v, isObject(s?.additionalProperties) ? s?.additionalProperties : undefined, makeDuration, classes);
    }
    const ctor = isObject(schema) ? classes.get(schema) : undefined;
    return ctor ? new ctor(out) : out;
  }
  return value;
}
