import { parse } from 'yaml';
import { toYaml } from './emit.js';
import { chooseScalarStyle, scalarStyleByAnalysis } from './scalar-style.js';

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

// ('1e3' is left out: '1e3'+'12'… overflows to a string in yaml.v2 but to Infinity in the YAML 1.2 reader used here.)
const PIECES = [' ', '  ', ':', ': ', '#', ' #', '-', '- ', '?', "'", '"', '\\', '\n', '\n\n', '\t', '{', '}', '[', ']', ',', '*', '&', '!', '|', '>', '%', '@', '`',
  'a', 'word', 'True', 'no', 'null', '~', '0', '12', '0x1F', '1.5', '.5', '2001-12-14', '1:20', 'é', '→', '✓', '\u00a0', 'x'.repeat(30), ' long text that goes on and on', '---', '...'];

function randomString(next: () => number): string {
  const n = Math.floor(next() * 6);
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}

function randomValue(next: () => number, depth: number): unknown {
  const pick = next();
  if (depth > 3 || pick < 0.45) {
    const scalar = next();
    if (scalar < 0.7) return randomString(next);
    if (scalar < 0.8) return Math.floor(next() * 2000) - 1000;
    if (scalar < 0.88) return Math.round(next() * 1e6) / 1e3 + 0.001;
    if (scalar < 0.95) return next() < 0.5;
    return null;
  }
  if (pick < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(next() * 4); i > 0; i--) out[randomString(next) || `k${i}`] = randomValue(next, depth + 1);
  return out;
}

describe('toYaml output reads back as the same value', () => {
  it.each(Array.from({ length: 40 }, (_, i) => i + 1))('random document, seed %i', (seed) => {
    const next = random(seed);
    for (let i = 0; i < 25; i++) {
      const value = { root: randomValue(next, 0) };
      const text = toYaml(value);
      expect({ text, value: parse(text, { uniqueKeys: false }) }).toEqual({ text, value });
    }
  });
});

describe('the fast style checks agree with the full analysis', () => {
  it.each(Array.from({ length: 20 }, (_, i) => i + 1))('random strings, seed %i', (seed) => {
    const next = random(seed * 7919);
    for (let i = 0; i < 500; i++) {
      const s = randomString(next) + randomString(next);
      for (const simpleKey of [false, true]) expect([s, chooseScalarStyle(s, simpleKey)]).toEqual([s, scalarStyleByAnalysis(s, simpleKey)]);
    }
  });
});
