/** xxHash64 and the signed-remainder reduction of `H` (reference-operators §4.3 vectors). */
import { hashValueInRange } from './hash-value.js';
import { xxHash64 } from './index.js';

describe('xxHash64 (seed 0)', () => {
  it.each([
    ['myid1', 316181436714908099n],
    ['myid2', 8964299977724969587n],
    ['myid3', 12738036773875955645n],
    // Published reference digests of the xxHash project: the empty input, a short input, and a 39-byte
    // input that takes the 32-byte stripe path.
    ['', 0xef46db3751d8e999n],
    ['abc', 0x44bc2cf5ad770999n],
    ['Nobody inspects the spammish repetition', 0xfbcea83c8a378bf1n],
  ])('xxHash64(%j) = %s', (text, expected) => {
    expect(xxHash64(text)).toBe(expected);
  });
});

describe('value(lo, hi) with the signed truncated remainder', () => {
  it.each([
    [0n, 0, 9, 0],
    [0n, 5, 9, 5],
    [3n, 0, 9, 3],
    [15n, 0, 9, 5],
    [10n, 0, 9, 0],
    [3n, 5, 9, 8],
    [13n, 5, 9, 8],
    [10n, 5, 9, 5],
    [12738036773875955645n, 0, 15, 13],
    [12738036773875955645n, 0, 14, 4],
  ])('h=%s in %i..%i → %i', (hash, lo, hi, expected) => {
    expect(hashValueInRange(hash, lo, hi)).toBe(expected);
  });

  it('differs from the unsigned remainder for a hash with the top bit set (myid3)', () => {
    expect(Number(12738036773875955645n % 15n)).not.toBe(4);
    expect(hashValueInRange(12738036773875955645n, 0, 14)).toBe(4);
  });
});
