/**
 * The size model of CEL cost in a Kubernetes API server: how long a string, list or map in a custom
 * resource can be — declared bounds (maxLength in bytes, maxItems, maxProperties, enums, formats) or
 * the 3 MiB request bound — and, for runtime cost, the sizes measured on an actual object.
 */
import { maxRequestSizeBytes } from './cost-limits.js';

import type { CrdSchema as Schema } from '../crd-schema.js';
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A min..max range of costs or sizes. */
export interface Range {
  min: number;
  max: number;
}

/** Where sizes come from: the schema's bounds (estimation) or an actual object's measured sizes (runtime). */
export type SizeOf = (schema: Schema) => Range;

const fixed = (n: number): Range => ({ min: n, max: n });

function minSerializedSize(s: Schema | boolean | undefined): number {
  if (!isObject(s) || s['x-kubernetes-int-or-string'] === true) return 1;
  switch (s.type) {
    case 'string':
      return s.format === 'date' ? 12 : s.format === 'date-time' ? 21 : s.format === 'duration' ? 4 : 2;
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return 4;
    case 'array':
    case 'object':
      return 2;
    default:
      return 1;
  }
}

/**
 * The largest string (in bytes, as the server reasons) a request can carry for this schema: maxLength
 * code points × 4 bytes, the longest enum value, a format's bound, or the 3 MiB request.
 */
function maxStringLength(s: Schema): number {
  if (typeof s.maxLength === 'number') return Math.max(0, s.maxLength) * 4;
  if (Array.isArray(s.enum) && s.enum.length > 0) return Math.max(...s.enum.map((e: unknown) => Buffer.byteLength(String(e))));
  if (s.format === 'duration') return 32;
  if (s.format === 'date') return 12;
  if (s.format === 'date-time') return 32;
  return maxRequestSizeBytes - 2;
}

/** How many items (or properties) a list (or map) of this schema can hold in one request. */
export function maxElements(s: Schema): number {
  if (s.type === 'array') return typeof s.maxItems === 'number' ? s.maxItems : Math.floor((maxRequestSizeBytes - 2) / (minSerializedSize(s.items) + 1));
  if (typeof s.maxProperties === 'number') return s.maxProperties;
  if (isObject(s.properties) && Object.keys(s.properties).length > 0) return Object.keys(s.properties).length;
  return Math.floor((maxRequestSizeBytes - 2) / (minSerializedSize(s.additionalProperties) + 6));
}

/** Sizes from the schema's declared bounds, as the API server estimates them at CRD creation. */
export const schemaSizes: SizeOf = (s) => {
  if (s['x-kubernetes-int-or-string'] === true) return { min: 0, max: maxRequestSizeBytes - 2 };
  if (s.type === 'string') return { min: typeof s.minLength === 'number' ? s.minLength : 0, max: maxStringLength(s) };
  if (s.type === 'array' || s.type === 'object' || s['x-kubernetes-preserve-unknown-fields'] === true) {
    return { min: typeof s.minItems === 'number' ? s.minItems : 0, max: maxElements({ type: 'object', ...s }) };
  }
  return fixed(1);
};

/** How many times a rule at the node runs per object: the product of the bounds of the lists and maps above it. */
export function cardinalityFactor(ancestors: Schema[]): number {
  let n = 1;
  for (const s of ancestors) n *= maxElements(s);
  return n;
}

/** Sizes measured on an actual value (the largest seen per schema node), for runtime cost. */
export function measuredSizes(values: unknown[], schema: Schema): SizeOf {
  const sizes = new Map<Schema, number>();
  const visit = (v: unknown, s: Schema | undefined): void => {
    if (!isObject(s) || v === undefined || v === null) return;
    const size = typeof v === 'string' ? [...v].length : Array.isArray(v) ? v.length : isObject(v) ? Object.keys(v).length : 1;
    sizes.set(s, Math.max(sizes.get(s) ?? 0, size));
    if (Array.isArray(v)) for (const item of v) visit(item, s.items);
    else if (isObject(v)) {
      for (const [k, child] of Object.entries(v)) visit(child, isObject(s.properties) && k in s.properties ? s.properties[k] : isObject(s.additionalProperties) ? s.additionalProperties : undefined);
    }
  };
  for (const value of values) visit(value, schema);
  return (s) => fixed(sizes.get(s) ?? 0);
}
