// The writer folds plain and single-quoted scalars a run of non-space characters at a time. This checks it
// against the character-by-character rule of libyaml it implements (kept here as the oracle): past column 80 a
// single space, not the first or last character of a quoted scalar and not followed by another space, becomes a
// line break indented as the continuation; a code point counts one column; `'` doubles inside single quotes.
import { toYaml } from './emit.js';
import { chooseScalarStyle } from './scalar-style.js';

/** libyaml's folding of `value` written at `startColumn` (the oracle), for plain ('') and single (') quotes. */
function foldByCharacter(value: string, startColumn: number, indent: number, quote: '' | "'"): string {
  let out: string = quote;
  let column = startColumn + quote.length;
  let spaces = false;
  const last = value.length - 1;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 32) {
      const mayBreak = !spaces && column > 80 && (quote === '' || (i !== 0 && i !== last));
      if (mayBreak && value.charCodeAt(i + 1) !== 32) {
        out += `\n${' '.repeat(indent)}`;
        column = indent;
      } else {
        out += ' ';
        column++;
      }
      spaces = true;
      continue;
    }
    spaces = false;
    if (quote === "'" && code === 39) {
      out += "''";
      column += 2;
      continue;
    }
    out += value[i];
    if (!(code >= 0xdc00 && code <= 0xdfff)) column++;
  }
  return out + quote;
}

function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ['word', 'a', 'longerwordthanusual', "it's", "'quoted'", 'é', '😀', '→', 'x'.repeat(90), '#', '-', ':', '12'];

function randomText(next: () => number): string {
  let text = '';
  const words = 1 + Math.floor(next() * 40);
  for (let i = 0; i < words; i++) {
    text += WORDS[Math.floor(next() * WORDS.length)];
    if (i < words - 1) text += ' '.repeat(1 + Math.floor(next() * next() * 3));
  }
  return text;
}

describe('folding of plain and single-quoted scalars', () => {
  it('matches the character-by-character rule on 3000 random texts', () => {
    const next = random(20261122);
    let checked = 0;
    for (let n = 0; n < 3000; n++) {
      const text = randomText(next);
      const style = chooseScalarStyle(text, false);
      if (style !== 'plain' && style !== 'single') continue;
      // `key: value` at the top: the value starts at column 5 and continues at indent 2.
      expect(toYaml({ key: text })).toBe(`key: ${foldByCharacter(text, 5, 2, style === 'plain' ? '' : "'")}\n`);
      checked++;
    }
    expect(checked).toBeGreaterThan(1000);
  });
});
