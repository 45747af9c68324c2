/**
 * `randomObjects()`: seeded, deterministic random objects of a custom kind that its CRD accepts — every
 * required field, optional fields about half the time, values within enums, bounds, lengths and formats —
 * for conversion round-trip tests, as controller-runtime's conversion fuzz tests fill objects at random.
 * Each object is checked with the CRD's own validation (crdValidator); those it refuses (a pattern or a
 * CEL rule the generator cannot aim at) are drawn again.
 */
import type { JSONSchemaProps } from 'kubernetes-types/apiextensions/v1.js';
import type { KindInfo } from '../runtime/client/kinds.js';
import type { KubeObject } from '../runtime/client/object.js';
import { crdValidator } from './crd-validator.js';
import { findCrdVersion } from './minimal-object.js';

export interface RandomObjectsOptions {
  /** CRD manifests: files or folders of .yaml/.yml files (config/crd/bases). */
  crdPaths: string[];
  /** How many objects (default 100). */
  count?: number;
  /** The seed: the same seed gives the same objects (default 1). */
  seed?: number;
  /** For a namespaced kind; default "default". */
  namespace?: string;
}

type Schema = JSONSchemaProps & { 'x-kubernetes-int-or-string'?: boolean; 'x-kubernetes-preserve-unknown-fields'?: boolean; 'x-kubernetes-embedded-resource'?: boolean; 'x-kubernetes-list-type'?: string; 'x-kubernetes-list-map-keys'?: string[] };

/** Draws per object before giving up on a schema the generator cannot satisfy. */
const ATTEMPTS_PER_OBJECT = 50;
const MAX_DEPTH = 8;

export function randomObjects<T extends KubeObject>(kind: KindInfo<T>, options: RandomObjectsOptions): T[] {
  const crdName = `${kind.plural}.${kind.group}`;
  const { file, schema } = findCrdVersion(crdName, kind.version, options.crdPaths, 'randomObjects');
  const validator = crdValidator(file);
  const random = mulberry32(options.seed ?? 1);
  const count = options.count ?? 100;
  const objects: T[] = [];
  let lastRefusal = '';
  for (let attempt = 0; objects.length < count && attempt < count * ATTEMPTS_PER_OBJECT; attempt++) {
    const object = randomObject(kind, schema, random, objects.length, options.namespace);
    const verdict = validator.validate(object);
    if (verdict.allowed) objects.push(object as unknown as T);
    else lastRefusal = verdict.message;
  }
  if (objects.length < count) {
    throw new Error(`randomObjects: ${crdName} ${kind.version}: only ${objects.length} of ${count} random objects were valid; the CRD refused the others: ${lastRefusal}`);
  }
  return objects;
}

function randomObject(kind: KindInfo, schema: Schema, random: () => number, index: number, namespace?: string): Record<string, unknown> {
  const gen = new ValueGenerator(random);
  const name = `fuzz-${index}`;
  const metadata: Record<string, unknown> = kind.namespaced ? { name, namespace: namespace ?? 'default' } : { name };
  if (random() < 0.5) metadata.labels = { [`l${gen.int(0, 9)}`]: gen.word(1, 8) };
  const body: Record<string, unknown> = {};
  for (const [field, sub] of Object.entries(schema.properties ?? {})) {
    if (field === 'apiVersion' || field === 'kind' || field === 'metadata') continue;
    // spec is always there: scaffolded TypeScript types require it.
    if (field === 'spec' || schema.required?.includes(field) || random() < 0.5) body[field] = gen.value(sub as Schema, 1);
  }
  return { apiVersion: kind.group ? `${kind.group}/${kind.version}` : kind.version, kind: kind.kind, metadata, ...body };
}

class ValueGenerator {
  constructor(private readonly random: () => number) {}

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  word(minLength: number, maxLength: number): string {
    const letters = 'abcdefghijklmnopqrstuvwxyz0123456789';
    const length = this.int(minLength, maxLength);
    let out = '';
    for (let i = 0; i < length; i++) out += letters[this.int(0, i === 0 ? 25 : letters.length - 1)]; // a letter first, as names need
    return out;
  }

  value(schema: Schema, depth: number): unknown {
    if (schema.enum && schema.enum.length > 0) return structuredClone(schema.enum[this.int(0, schema.enum.length - 1)]);
    if (schema['x-kubernetes-int-or-string']) return this.random() < 0.5 ? this.int(0, 100) : `${this.int(0, 100)}%`;
    // An embedded object (runtime.RawExtension, kubebuilder:validation:EmbeddedResource) needs apiVersion and kind.
    if (schema['x-kubernetes-embedded-resource']) return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: this.word(1, 8) }, ...(schema.properties ? this.object(schema, depth) : {}) };
    if (schema['x-kubernetes-preserve-unknown-fields'] && !schema.properties) return {};
    switch (schema.type) {
      case 'object':
        return this.object(schema, depth);
      case 'array':
        return this.array(schema, depth);
      case 'string':
        return this.string(schema);
      case 'integer':
        return this.number(schema, true);
      case 'number':
        return this.number(schema, false);
      case 'boolean':
        return this.random() < 0.5;
      default:
        return {};
    }
  }

  private object(schema: Schema, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const deep = depth >= MAX_DEPTH;
    for (const [field, sub] of Object.entries(schema.properties ?? {})) {
      if (schema.required?.includes(field) || (!deep && this.random() < 0.5)) out[field] = this.value(sub as Schema, depth + 1);
    }
    const extra = schema.additionalProperties;
    if (extra && typeof extra === 'object' && !deep) {
      const entries = this.int(schema.minProperties ?? 0, Math.max(schema.minProperties ?? 0, Math.min(schema.maxProperties ?? 3, 3)));
      for (let i = 0; i < entries; i++) out[`k${i}${this.word(0, 4)}`] = this.value(extra as Schema, depth + 1);
    }
    return out;
  }

  private array(schema: Schema, depth: number): unknown[] {
    const item = (schema.items && !Array.isArray(schema.items) ? schema.items : {}) as Schema;
    const min = schema.minItems ?? 0;
    const max = depth >= MAX_DEPTH ? min : Math.max(min, Math.min(schema.maxItems ?? min + 3, min + 3));
    const length = this.int(min, max);
    const listType = schema['x-kubernetes-list-type'];
    const keys = schema['x-kubernetes-list-map-keys'] ?? [];
    const seen = new Set<string>();
    const out: unknown[] = [];
    for (let tries = 0; out.length < length && tries < length * 10; tries++) {
      const value = this.value(item, depth + 1);
      if (listType === 'set' || listType === 'map') {
        const identity = listType === 'map' && value && typeof value === 'object' ? JSON.stringify(keys.map((k) => (value as Record<string, unknown>)[k])) : JSON.stringify(value);
        if (seen.has(identity)) continue;
        seen.add(identity);
      }
      out.push(value);
    }
    return out;
  }

  private string(schema: Schema): string {
    const format = schema.format;
    if (format === 'date-time') return new Date(Date.UTC(2000 + this.int(0, 30), this.int(0, 11), this.int(1, 28), this.int(0, 23), this.int(0, 59), this.int(0, 59))).toISOString().replace(/\.\d{3}Z$/, 'Z');
    if (format === 'date') return `20${this.int(10, 30)}-0${this.int(1, 9)}-1${this.int(0, 9)}`;
    if (format === 'duration') return `${this.int(1, 59)}s`;
    if (format === 'byte') return Buffer.from(this.word(0, 6)).toString('base64');
    const min = schema.minLength ?? 0;
    const max = Math.max(min, Math.min(schema.maxLength ?? min + 12, min + 12));
    const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u');
    for (let i = 0; i < 20; i++) {
      const candidate = this.word(min, max);
      if (!pattern || pattern.test(candidate)) return candidate;
    }
    return this.word(min, max);
  }

  private number(schema: Schema, integer: boolean): number {
    const low = schema.minimum !== undefined ? schema.minimum + (schema.exclusiveMinimum ? 1 : 0) : -1000;
    const high = schema.maximum !== undefined ? schema.maximum - (schema.exclusiveMaximum ? 1 : 0) : 1000;
    const lo = Math.max(low, high - 2000);
    const hi = Math.min(high, lo + 2000);
    if (integer) return this.int(Math.ceil(lo), Math.floor(hi));
    return Math.round((lo + this.random() * (hi - lo)) * 100) / 100;
  }
}

/** A small seeded PRNG: the same seed draws the same numbers on every machine. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
