/**
 * The OpenAPI v3 schema node the CRD generator builds (apiextensions.k8s.io/v1 JSONSchemaProps as plain
 * JSON), plus the internal `$link` a use site carries until flattening replaces it by the named type's schema.
 */
import type { KnownRef, NamedRef } from '../../model/index.js';

export interface Schema {
  type?: string;
  format?: string;
  description?: string;
  title?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: Schema | boolean;
  enum?: unknown[];
  allOf?: Schema[];
  anyOf?: Schema[];
  default?: unknown;
  example?: unknown;
  /** Internal: this node refers to a named or known type; resolved (and removed) by flattening. */
  $link?: NamedRef | KnownRef;
  [keyword: string]: unknown;
}

/** Keywords that describe a node rather than constrain it: on merge the field side wins when non-empty. */
export const DOC_KEYWORDS = ['description', 'title', 'example', 'externalDocs'] as const;

/** JSON-ish deep equality for schema values. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

/** Byte-order string compare (Go's sort.Strings). */
export function byteCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Freezes `value` and everything reachable from it (stopping at parts already frozen) and returns it. The
 * builder shares frozen subtrees between every use of a type instead of copying them, and the YAML writer
 * may reuse the text of a frozen subtree, so anything shared must be frozen.
 */
export function freezeDeep<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const child of Object.values(value as object)) freezeDeep(child);
  return value;
}
