/**
 * xxHash64 with seed 0 over a string's UTF-8 bytes — the hash cespare/xxhash's Sum64String computes and
 * cronexpr feeds into `H`. Written with BigInt arithmetic modulo 2^64.
 */

const MASK_64 = (1n << 64n) - 1n;
const PRIME_1 = 0x9e3779b185ebca87n;
const PRIME_2 = 0xc2b2ae3d27d4eb4fn;
const PRIME_3 = 0x165667b19e3779f9n;
const PRIME_4 = 0x85ebca77c2b2ae63n;
const PRIME_5 = 0x27d4eb2f165667c5n;

const utf8 = new TextEncoder();

function rotateLeft(value: bigint, bits: bigint): bigint {
  return ((value << bits) | (value >> (64n - bits))) & MASK_64;
}

function multiply(a: bigint, b: bigint): bigint {
  return (a * b) & MASK_64;
}

function add(a: bigint, b: bigint): bigint {
  return (a + b) & MASK_64;
}

/** One accumulator round: acc = rotl(acc + lane·P2, 31)·P1. */
function round(accumulator: bigint, lane: bigint): bigint {
  return multiply(rotateLeft(add(accumulator, multiply(lane, PRIME_2)), 31n), PRIME_1);
}

function mergeRound(hash: bigint, accumulator: bigint): bigint {
  return add(multiply(hash ^ round(0n, accumulator), PRIME_1), PRIME_4);
}

function readUint64(bytes: Uint8Array, offset: number): bigint {
  let value = 0n;
  for (let i = 7; i >= 0; i--) value = (value << 8n) | BigInt(bytes[offset + i]!);
  return value;
}

function readUint32(bytes: Uint8Array, offset: number): bigint {
  let value = 0n;
  for (let i = 3; i >= 0; i--) value = (value << 8n) | BigInt(bytes[offset + i]!);
  return value;
}

/** xxHash64 (seed 0) of the UTF-8 bytes of `text`, as an unsigned 64-bit integer. */
export function xxHash64(text: string): bigint {
  const bytes = utf8.encode(text);
  const length = bytes.length;
  let offset = 0;
  let hash: bigint;
  if (length >= 32) {
    let v1 = add(PRIME_1, PRIME_2);
    let v2 = PRIME_2;
    let v3 = 0n;
    let v4 = (MASK_64 + 1n - PRIME_1) & MASK_64;
    for (; offset + 32 <= length; offset += 32) {
      v1 = round(v1, readUint64(bytes, offset));
      v2 = round(v2, readUint64(bytes, offset + 8));
      v3 = round(v3, readUint64(bytes, offset + 16));
      v4 = round(v4, readUint64(bytes, offset + 24));
    }
    hash = add(add(rotateLeft(v1, 1n), rotateLeft(v2, 7n)), add(rotateLeft(v3, 12n), rotateLeft(v4, 18n)));
    hash = mergeRound(hash, v1);
    hash = mergeRound(hash, v2);
    hash = mergeRound(hash, v3);
    hash = mergeRound(hash, v4);
  } else {
    hash = PRIME_5;
  }
  hash = add(hash, BigInt(length));
  for (; offset + 8 <= length; offset += 8) {
    hash ^= round(0n, readUint64(bytes, offset));
    hash = add(multiply(rotateLeft(hash, 27n), PRIME_1), PRIME_4);
  }
  if (offset + 4 <= length) {
    hash ^= multiply(readUint32(bytes, offset), PRIME_1);
    hash = add(multiply(rotateLeft(hash, 23n), PRIME_2), PRIME_3);
    offset += 4;
  }
  for (; offset < length; offset++) {
    hash ^= multiply(BigInt(bytes[offset]!), PRIME_5);
    hash = multiply(rotateLeft(hash, 11n), PRIME_1);
  }
  hash ^= hash >> 33n;
  hash = multiply(hash, PRIME_2);
  hash ^= hash >> 29n;
  hash = multiply(hash, PRIME_3);
  hash ^= hash >> 32n;
  return hash;
}
