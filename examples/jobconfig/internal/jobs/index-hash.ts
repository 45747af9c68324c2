/**
 * Task-name hashes of parallel indexes (reference-operators spec §4.7.2): Furiko names a task
 * `<job>-<indexHash>-<retry>`, where indexHash reproduces mitchellh/hashstructure v2 (FNV-1 64, not 1a) over
 * its Go `ParallelIndex` struct, printed in decimal, base32-encoded, cut to 6 lower-case characters.
 * Collisions between distinct indexes are part of the reference behaviour (Q-F5) and are kept.
 */

/** The ParallelIndex fields the hash reads; exactly one is meaningful for a given index. */
export interface HashableParallelIndex {
  indexNumber?: number;
  indexKey?: string;
  matrixValues?: Record<string, string>;
}

const MASK_64 = (1n << 64n) - 1n;
const FNV_OFFSET_BASIS_64 = 14695981039346656037n;
const FNV_PRIME_64 = 1099511628211n;

/** FNV-1 64-bit: for each byte, multiply by the prime and then xor the byte (FNV-1a would xor first). */
export function fnv1_64(bytes: Uint8Array): bigint {
  let hash = FNV_OFFSET_BASIS_64;
  for (const byte of bytes) {
    hash = (hash * FNV_PRIME_64) & MASK_64;
    hash ^= BigInt(byte);
  }
  return hash;
}

/** Little-endian 8-byte encodings of the given unsigned 64-bit values, concatenated (Go's binary.Write). */
function littleEndian64(...values: bigint[]): Uint8Array {
  const out = new Uint8Array(8 * values.length);
  const view = new DataView(out.buffer);
  values.forEach((value, i) => view.setBigUint64(8 * i, value & MASK_64, true));
  return out;
}

const hashString = (text: string): bigint => fnv1_64(new TextEncoder().encode(text));
const hashInt64 = (value: number): bigint => fnv1_64(littleEndian64(BigInt.asUintN(64, BigInt(value))));
/** hashstructure's ordered pair: FNV-1 of both hashes side by side. */
const hashPair = (a: bigint, b: bigint): bigint => fnv1_64(littleEndian64(a, b));
/** hashstructure v2 closes every unordered accumulation by hashing the accumulator once more. */
const finishUnordered = (acc: bigint): bigint => fnv1_64(littleEndian64(acc));

function hashStringMap(map: Record<string, string> | undefined): bigint {
  let acc = 0n;
  for (const [key, value] of Object.entries(map ?? {})) acc ^= hashPair(hashString(key), hashString(value));
  return finishUnordered(acc);
}

/** The uint64 hashstructure v2 gives Furiko's `ParallelIndex{IndexNumber *int64; IndexKey string; MatrixValues map}`. */
export function hashParallelIndex(index: HashableParallelIndex): bigint {
  // A nil *int64 hashes like int64 0; an absent key like the empty string; an absent map like an empty one.
  const fields: Array<[string, bigint]> = [
    ['IndexNumber', hashInt64(index.indexNumber ?? 0)],
    ['IndexKey', hashString(index.indexKey ?? '')],
    ['MatrixValues', hashStringMap(index.matrixValues)],
  ];
  let acc = hashString('ParallelIndex');
  for (const [name, valueHash] of fields) {
    acc ^= hashPair(hashString(name), valueHash);
    acc = finishUnordered(acc);
  }
  return acc;
}

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 standard base32 with `=` padding (Go's base32.StdEncoding). */
export function base32Std(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += '=';
  return out;
}

/** The 6-character index hash of a task name, e.g. `gezdqo` for `{indexNumber: 0}`. */
export function indexHash(index: HashableParallelIndex): string {
  const decimal = hashParallelIndex(index).toString(10);
  return base32Std(new TextEncoder().encode(decimal)).slice(0, 6).toLowerCase();
}
