// toYaml reuses the text of frozen (immutable) subtrees: the result must be byte-identical to writing an
// unfrozen copy of the same value, wherever the shared subtree stands (mapping value, sequence item, nested
// sequences, any indent), including folded long strings, literal blocks and empty collections.
import { toYaml } from './emit.js';

function freezeDeep<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value as object)) freezeDeep(child);
  }
  return value;
}

/** A small deterministic PRNG (mulberry32) so failures reproduce. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SCALARS: unknown[] = [
  'word',
  'a description long enough to be folded by the writer once it goes past the eightieth column of its line',
  'first line\nsecond line\n',
  'ends with a break\n',
  'x: y',
  '- dash',
  "it's",
  'tab\there',
  '',
  '123',
  'true',
  42,
  1.5,
  false,
  null,
];

/** Random values built from a pool of shared frozen subtrees, so the same subtree appears in many places. */
function randomDocument(next: () => number, pool: unknown[], depth = 0): unknown {
  const pick = next();
  if (depth > 0 && pick < 0.25) return pool[Math.floor(next() * pool.length)];
  if (depth > 4 || pick < 0.45) return SCALARS[Math.floor(next() * SCALARS.length)];
  if (pick < 0.65) return Array.from({ length: Math.floor(next() * 4) }, () => randomDocument(next, pool, depth + 1));
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 5); i > 0; i--) out[`${'k'.repeat(1 + Math.floor(next() * 12))}${i}`] = randomDocument(next, pool, depth + 1);
  return out;
}

describe('toYaml with frozen subtrees', () => {
  it('writes exactly what it writes for an unfrozen copy, at every place a shared subtree is used', () => {
    const next = random(7);
    const pool: unknown[] = [];
    for (let i = 0; i < 12; i++) pool.push(freezeDeep(randomDocument(next, pool.length > 0 ? pool : [{ a: 1 }], 1)));
    pool.push(freezeDeep({}), freezeDeep([]), freezeDeep({ only: undefined }), freezeDeep({ text: 'literal\nblock\n' }));
    for (let round = 0; round < 300; round++) {
      const document = { spec: randomDocument(next, pool), list: [randomDocument(next, pool), [randomDocument(next, pool)]] };
      const expected = toYaml(structuredClone(document));
      expect(toYaml(document)).toBe(expected);
      expect(toYaml(document)).toBe(expected); // second time from the kept text
    }
  });

  it('places an empty frozen collection after keys of any length', () => {
    const empty = freezeDeep({ map: {}, list: [] });
    expect(toYaml({ a: empty.map, longer: empty.map, b: empty.list, longest: empty.list })).toBe('a: {}\nb: []\nlonger: {}\nlongest: []\n');
  });

  it('continues correctly after a kept subtree that ends in a literal block', () => {
    const shared = freezeDeep({ text: 'one\ntwo\n' });
    const expected = 'a:\n  text: |\n    one\n    two\nb:\n- text: |\n    one\n    two\n  z: 1\n';
    expect(toYaml({ a: shared, b: [{ text: 'one\ntwo\n', z: 1 }] })).toBe(expected);
    expect(toYaml({ a: shared, b: [{ ...shared, z: 1 }] })).toBe(expected);
  });
});
