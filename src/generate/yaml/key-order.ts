/**
 * Mapping-key order of gopkg.in/yaml.v2 (the "natural" sort controller-gen's output inherits):
 * letters compare by code point, a non-letter sorts before a letter, and runs of digits compare by
 * numeric value (`a2` < `a10`). Every mapping kubeforge writes is ordered this way.
 */

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

function isLetter(ch: string): boolean {
  return LETTER.test(ch);
}

function isDigit(ch: string): boolean {
  return DIGIT.test(ch);
}

/** True when key `a` sorts before key `b`. */
export function keyLess(a: string, b: string): boolean {
  const ar = Array.from(a);
  const br = Array.from(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const aLetter = isLetter(ar[i]);
    const bLetter = isLetter(br[i]);
    if (aLetter && bLetter) return ar[i].codePointAt(0)! < br[i].codePointAt(0)!;
    if (aLetter || bLetter) return bLetter;
    let an = 0;
    let bn = 0;
    if (ar[i] === '0' || br[i] === '0') {
      // A zero inside a longer number (e.g. the 0 of "10") counts as part of a non-zero run.
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + (ar[ai].charCodeAt(0) - 48);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + (br[bi].charCodeAt(0) - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i].codePointAt(0)! < br[i].codePointAt(0)!;
  }
  return ar.length < br.length;
}

/** A comparator for `Array.prototype.sort` using yaml.v2's key order. */
export function compareKeys(a: string, b: string): number {
  if (keyLess(a, b)) return -1;
  if (keyLess(b, a)) return 1;
  return 0;
}

// eslint-disable-next-line no-control-regex -- the whole ASCII range, control characters included
const ASCII = /^[\x00-\x7f]*$/;

/** `keys` in yaml.v2's order (a fast path for the usual all-ASCII keys; same result as `compareKeys`). */
export function sortKeys(keys: string[]): string[] {
  if (keys.length < 2) return keys;
  const comparator = keys.every((k) => ASCII.test(k)) ? compareAsciiKeys : compareKeys;
  return keys.sort(comparator);
}

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function isAsciiDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** `keyLess` specialised to ASCII keys, as a comparator. */
function compareAsciiKeys(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ac = a.charCodeAt(i);
    const bc = b.charCodeAt(i);
    if (ac === bc) continue;
    const aLetter = isAsciiLetter(ac);
    const bLetter = isAsciiLetter(bc);
    if (aLetter && bLetter) return ac - bc;
    if (aLetter !== bLetter) return bLetter ? -1 : 1;
    let an = 0;
    let bn = 0;
    if (ac === 48 || bc === 48) {
      for (let j = i - 1; j >= 0 && isAsciiDigit(a.charCodeAt(j)); j--) {
        if (a.charCodeAt(j) !== 48) {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < a.length && isAsciiDigit(a.charCodeAt(ai)); ai++) an = an * 10 + (a.charCodeAt(ai) - 48);
    let bi = i;
    for (; bi < b.length && isAsciiDigit(b.charCodeAt(bi)); bi++) bn = bn * 10 + (b.charCodeAt(bi) - 48);
    if (an !== bn) return an < bn ? -1 : 1;
    if (ai !== bi) return ai < bi ? -1 : 1;
    return ac - bc;
  }
  return a.length - b.length;
}
