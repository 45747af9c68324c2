/**
 * Turns a hash ID into the concrete value of an `H` token: xxHash64 of the ID (optionally suffixed with
 * ":<field name>"), read as a signed 64-bit integer, reduced into [lo, hi] with Go's truncated remainder.
 */
import { xxHash64 } from './xxhash64.js';

/**
 * `lo + (s mod m)` where `s` is `hash` reinterpreted as signed two's-complement and a negative remainder
 * gets `m` added — cronexpr's `GetValue`. Callers must pass lo <= hi.
 */
export function hashValueInRange(hash: bigint, lo: number, hi: number): number {
  const modulus = BigInt(hi - lo + 1);
  let remainder = BigInt.asIntN(64, hash) % modulus;
  if (remainder < 0n) remainder += modulus;
  return lo + Number(remainder);
}

/** The source of `H` values for one parse: a hash ID and whether field names are mixed in. */
export class HashSource {
  private readonly cache = new Map<string, bigint>();

  constructor(
    readonly hashId: string,
    readonly hashFields: boolean,
  ) {}

  /** The value of `H` in [lo, hi] for the field named `fieldName` (e.g. "day-of-week"). */
  valueFor(fieldName: string, lo: number, hi: number): number {
    const key = this.hashFields ? `${this.hashId}:${fieldName}` : this.hashId;
    let hash = this.cache.get(key);
    if (hash === undefined) {
      hash = xxHash64(key);
      this.cache.set(key, hash);
    }
    return hashValueInRange(hash, lo, hi);
  }
}
