/**
 * English pluralisation of Kind names with the behaviour of gobuffalo/flect v1.0.3 (`flect.Pluralize`),
 * which controller-gen uses for `names.plural` (spec §11.1). The tables are in pluralize-tables.ts; this
 * module holds the algorithm: split the name into words, try the dictionary on the whole input and on the
 * last word, then the ordered suffix rules on the last word, then "ends in s ⇒ unchanged", else append "s".
 * The caller lower-cases the result.
 */
import { ACRONYMS, DICTIONARY, SUFFIX_RULES } from './pluralize-tables.js';

/** A suffix rule: when the last word ends in `suffix`, replace that suffix by `replacement` (null: keep). */
interface SuffixRule {
  suffix: string;
  replacement: string | null;
}

const singularToPlural = new Map<string, string>();
const pluralToSingular = new Map<string, string>();
for (const word of DICTIONARY) {
  const plural = word.plural ?? word.singular;
  singularToPlural.set(word.singular, plural);
  if (word.oneWay) continue;
  pluralToSingular.set(plural, word.singular);
  if (word.alternative !== undefined) pluralToSingular.set(word.alternative, word.singular);
}

/**
 * Rule order as flect builds it: each rule pair is "plural suffix ⇒ already plural" then "singular suffix ⇒
 * plural suffix"; the dictionary's non-exact words come first, the last-listed word first, then the suffix
 * list in its own order.
 */
const RULES: readonly SuffixRule[] = (() => {
  const pairs: [string, string][] = [];
  for (const word of [...DICTIONARY].reverse()) {
    if (!word.exact) pairs.push([word.singular, word.plural ?? word.singular]);
  }
  pairs.push(...SUFFIX_RULES.map(([singular, plural]): [string, string] => [singular, plural]));
  return pairs.flatMap(([singular, plural]) => [
    { suffix: plural, replacement: null },
    { suffix: singular, replacement: plural },
  ]);
})();

const SEPARATORS = new Set(['_', ' ', ':', '-', '/']);
const WHITE_SPACE = /^\s$/u;
const UPPER_CASE_LETTER = /^\p{Lu}$/u;
const WORD_CHARACTER = /^[\p{L}\p{Nd}\p{P}`]$/u;
const isAsciiLetterOrDigit = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
// ASCII letters and digits (every Kind in practice) answer without the Unicode regular expressions.
const isSeparator = (c: string): boolean => !isAsciiLetterOrDigit(c) && (SEPARATORS.has(c) || WHITE_SPACE.test(c));
const isUpper = (c: string): boolean => (isAsciiLetterOrDigit(c) ? c >= 'A' && c <= 'Z' : UPPER_CASE_LETTER.test(c));
const isWordChar = (c: string): boolean => isAsciiLetterOrDigit(c) || WORD_CHARACTER.test(c);

/** Trims separators from both ends and upper-cases a known acronym; empty parts are dropped. */
function pushPart(parts: string[], raw: string): void {
  let part = raw.trim();
  for (const separator of SEPARATORS) {
    while (part.startsWith(separator)) part = part.slice(separator.length);
    while (part.endsWith(separator)) part = part.slice(0, -separator.length);
  }
  if (ACRONYMS.has(part.toUpperCase())) part = part.toUpperCase();
  if (part !== '') parts.push(part);
}

/** Splits a name into words as flect does: at separators, at lower→upper, and after a known acronym. */
export function wordsOf(name: string): string[] {
  const trimmed = name.trim();
  if (trimmed === '') return [];
  if (ACRONYMS.has(trimmed.toUpperCase())) return [trimmed.toUpperCase()];
  const parts: string[] = [];
  let current = '';
  let previous = '';
  for (const c of trimmed) {
    const startsWord =
      isSeparator(c) || (isUpper(c) && !isUpper(previous)) || (isUpper(c) && ACRONYMS.has(current.toUpperCase()));
    if (startsWord) {
      pushPart(parts, current);
      current = c;
    } else if (isWordChar(c)) {
      current += c;
    } else {
      pushPart(parts, current);
      current = '';
    }
    previous = c;
  }
  pushPart(parts, current);
  return parts;
}

const capitalize = (s: string): string => (s === '' ? s : s[0]!.toUpperCase() + s.slice(1));

/** `original` with `suffix` replaced by `replacement` (unchanged prefix when it does not end in it). */
function replaceSuffix(original: string, suffix: string, replacement: string): string {
  const prefix = original.endsWith(suffix) ? original.slice(0, original.length - suffix.length) : original;
  return prefix + replacement;
}

/** Plural of a Kind name (case kept; controller-gen lower-cases it). */
export function pluralize(name: string): string {
  const words = wordsOf(name);
  const last = words[words.length - 1];
  if (last === undefined) return '';
  const whole = singularToPlural.get(name);
  if (whole !== undefined) return whole;
  if (pluralToSingular.has(name)) return name;
  const lowerLast = last.toLowerCase();
  if (pluralToSingular.has(lowerLast)) return name;
  const dictionaryPlural = singularToPlural.get(lowerLast);
  if (dictionaryPlural !== undefined) {
    return replaceSuffix(name, last, last === capitalize(last) ? capitalize(dictionaryPlural) : dictionaryPlural);
  }
  for (const rule of RULES) {
    if (!last.endsWith(rule.suffix)) continue;
    if (rule.replacement === null) return replaceSuffix(name, last, last);
    return replaceSuffix(name, last, last.slice(0, last.length - rule.suffix.length) + rule.replacement);
  }
  return lowerLast.endsWith('s') ? name : `${name}s`;
}
