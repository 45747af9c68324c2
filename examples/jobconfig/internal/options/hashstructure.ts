/**
 * The hashing walk of Go's github.com/mitchellh/hashstructure/v2 (FormatV2, FNV-1 64, IgnoreZeroValue), for
 * the few Go kinds Furiko's option spec has: strings, bools, string slices and structs of them. A struct
 * hashes its Go type name, then folds in each non-zero field (Go field name, value) with a finishing round
 * after every field — so the field order is the Go declaration order.
 */
import { fnv1_64 } from '../jobs/index-hash.js';

const encoder = new TextEncoder();
const MASK_64 = (1n << 64n) - 1n;

function littleEndian64(...values: bigint[]): Uint8Array {
  const bytes = new Uint8Array(values.length * 8);
  const view = new DataView(bytes.buffer);
  values.forEach((value, i) => view.setBigUint64(i * 8, value & MASK_64, true));
  return bytes;
}

/** hashUpdateOrdered: FNV-1 of both hashes, little-endian. */
const ordered = (a: bigint, b: bigint): bigint => fnv1_64(littleEndian64(a, b));
/** hashFinishUnordered: FNV-1 of the hash, little-endian. */
const finish = (a: bigint): bigint => fnv1_64(littleEndian64(a));

/** A Go string. */
export const hashString = (value: string): bigint => fnv1_64(encoder.encode(value));
/** A Go bool (hashed as int8 1 or 0). */
export const hashBool = (value: boolean): bigint => fnv1_64(Uint8Array.of(value ? 1 : 0));
/** A Go slice (not a set): each element's hash folded in order, starting from 0. */
export const hashSlice = (elements: readonly bigint[]): bigint => elements.reduce((h, element) => ordered(h, element), 0n);
/** A Go []string. */
export const hashStringSlice = (values: readonly string[]): bigint => hashSlice(values.map(hashString));

/** One field of a Go struct: its Go name and its value's hash, or undefined when the value is Go's zero value. */
export type GoField = readonly [goName: string, hash: bigint | undefined];

/** A Go struct of type `typeName` whose fields (in declaration order) hash as given; zero fields are skipped. */
export function hashStruct(typeName: string, fields: readonly GoField[]): bigint {
  let h = hashString(typeName);
  for (const [goName, hash] of fields) {
    if (hash === undefined) continue;
    h = finish(h ^ ordered(hashString(goName), hash));
  }
  return h;
}

/** Field helpers: undefined for Go's zero value ("" / false / nil slice), so hashStruct skips the field. */
export const stringField = (value: string | undefined): bigint | undefined => (value ? hashString(value) : undefined);
export const boolField = (value: boolean | undefined): bigint | undefined => (value ? hashBool(true) : undefined);
/** A nil slice is zero; an empty one is not (Go's reflect IsZero), so `[]` still counts. */
export const stringSliceField = (values: readonly string[] | undefined): bigint | undefined => (values ? hashStringSlice(values) : undefined);
