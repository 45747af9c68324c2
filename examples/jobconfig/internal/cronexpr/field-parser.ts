/**
 * Parses the text of one cron field into the values it allows, with cronexpr's entry forms (`*`, `N`,
 * `N-M`, `*\/S`, `/S`, `N/S`, `N-M/S`, the `H` forms) and its error texts. Day-of-month and day-of-week
 * extras (`L`, `W`, `#`) are left to their own handlers as "other" entries.
 */
import { CronParseError } from './errors.js';
import type { FieldDescriptor } from './fields.js';
import type { HashSource } from './hash-value.js';

/** One comma-separated item of a field, classified. */
export type FieldEntry =
  | { readonly kind: 'all' }
  | { readonly kind: 'values'; readonly values: readonly number[] }
  | { readonly kind: 'other'; readonly text: string };

const patternCache = new Map<string, RegExp>();

/** `layout` with `V` replaced by the field's value alternation, anchored, compiled once. */
function layout(template: string, descriptor: FieldDescriptor): RegExp {
  const source = `^${template.replaceAll('V', `(${descriptor.valuePattern})`)}$`;
  let pattern = patternCache.get(source);
  if (pattern === undefined) {
    pattern = new RegExp(source);
    patternCache.set(source, pattern);
  }
  return pattern;
}

const WILDCARD = /^(?:\*|\?|\*\*|\?\?)$/;
const INTERVAL_ONLY = /^(?:\*)?\/(\d+)$/;

function span(first: number, last: number, step: number): number[] {
  const values: number[] = [];
  for (let value = first; value <= last; value += step) values.push(value);
  return values;
}

/** Parses a step; cronexpr allows 1…max of the field. */
function step(text: string, item: string, descriptor: FieldDescriptor): number {
  const value = Number.parseInt(text, 10);
  if (!(value >= 1 && value <= descriptor.max)) throw new CronParseError(`invalid interval ${item}`);
  return value;
}

/** The end of a range: in the standard day-of-week a span ending at 7 (Sunday) ends at 6 (Quartz's 7 is 6 already). */
function rangeEnd(text: string, descriptor: FieldDescriptor): number {
  const value = descriptor.valueOf(text);
  return descriptor.name === 'day-of-week' && value === 0 && /^0?7$/.test(text) ? 6 : value;
}

function checkedSpan(first: number, last: number, stepBy: number, item: string, descriptor: FieldDescriptor): number[] {
  if (first < descriptor.min) {
    throw new CronParseError(`beginning of range (${first}) below minimum (${descriptor.min}): ${item}`);
  }
  if (first > last) throw new CronParseError(`beginning of range (${first}) beyond end of range (${last}): ${item}`);
  return span(first, last, stepBy);
}

/** The `H` forms; undefined when `item` is none of them. */
function hashEntry(item: string, descriptor: FieldDescriptor, hash: HashSource | undefined): FieldEntry | undefined {
  const plain = item === 'h';
  const range = layout(String.raw`h\(V-V\)`, descriptor).exec(item);
  const interval = /^h\/(\d+)$/.exec(item);
  const rangeInterval = layout(String.raw`h\(V-V\)/(\d+)`, descriptor).exec(item);
  if (!plain && !range && !interval && !rangeInterval) return undefined;
  if (hash === undefined) throw new CronParseError(`hash requested without using WithHash: ${item}`);
  const { name, min } = descriptor;
  if (plain) return { kind: 'values', values: [hash.valueFor(name, min, descriptor.hashMax)] };
  if (range) {
    const [lo, hi] = [descriptor.valueOf(range[1]!), rangeEnd(range[2]!, descriptor)];
    if (lo > hi) throw new CronParseError(`beginning of range (${lo}) beyond end of range (${hi}): ${item}`);
    return { kind: 'values', values: [hash.valueFor(name, lo, hi)] };
  }
  if (interval) {
    const every = step(interval[1]!, item, descriptor);
    const start = hash.valueFor(name, 0, every - 1);
    return { kind: 'values', values: checkedSpan(start, descriptor.max, every, item, descriptor) };
  }
  const [lo, hi] = [descriptor.valueOf(rangeInterval![1]!), rangeEnd(rangeInterval![2]!, descriptor)];
  const every = step(rangeInterval![3]!, item, descriptor);
  const start = lo + hash.valueFor(name, 0, every - 1);
  return { kind: 'values', values: checkedSpan(start, hi, every, item, descriptor) };
}

/** Classifies one lower-cased item of a field. */
function parseItem(item: string, descriptor: FieldDescriptor, hash: HashSource | undefined): FieldEntry {
  const { min, max } = descriptor;
  if (WILDCARD.test(item)) return { kind: 'all' };
  if (layout('V', descriptor).test(item)) return { kind: 'values', values: [descriptor.valueOf(item)] };
  let match = layout('V-V', descriptor).exec(item);
  if (match) {
    return { kind: 'values', values: checkedSpan(descriptor.valueOf(match[1]!), rangeEnd(match[2]!, descriptor), 1, item, descriptor) };
  }
  match = INTERVAL_ONLY.exec(item);
  if (match) return { kind: 'values', values: span(min, max, step(match[1]!, item, descriptor)) };
  match = layout(String.raw`V/(\d+)`, descriptor).exec(item);
  if (match) return { kind: 'values', values: span(descriptor.valueOf(match[1]!), max, step(match[2]!, item, descriptor)) };
  match = layout(String.raw`V-V/(\d+)`, descriptor).exec(item);
  if (match) {
    const every = step(match[3]!, item, descriptor);
    return { kind: 'values', values: checkedSpan(descriptor.valueOf(match[1]!), rangeEnd(match[2]!, descriptor), every, item, descriptor) };
  }
  return hashEntry(item, descriptor, hash) ?? { kind: 'other', text: item };
}

/** Splits a field at commas and classifies every item; "other" entries keep the item's original case. */
export function parseFieldEntries(text: string, descriptor: FieldDescriptor, hash: HashSource | undefined): FieldEntry[] {
  const items = text.match(/[^,]+/g);
  if (items === null) throw new CronParseError(`${descriptor.name} field: missing directive`);
  return items.map((item) => {
    const entry = parseItem(item.toLowerCase(), descriptor, hash);
    return entry.kind === 'other' ? { kind: 'other', text: item } : entry;
  });
}

export function syntaxError(descriptor: FieldDescriptor, item: string): CronParseError {
  return new CronParseError(`syntax error in ${descriptor.name} field: '${item}'`);
}

/**
 * The sorted values of a plain field (second, minute, hour, month, year). As in cronexpr, a `*` item ends
 * the scan (later items are not looked at) and an unrecognised item is a syntax error.
 */
export function parseSimpleField(text: string, descriptor: FieldDescriptor, hash: HashSource | undefined): number[] {
  const values = new Set<number>();
  for (const entry of parseFieldEntries(text, descriptor, hash)) {
    if (entry.kind === 'all') return span(descriptor.min, descriptor.max, 1);
    if (entry.kind === 'other') throw syntaxError(descriptor, entry.text);
    for (const value of entry.values) values.add(value);
  }
  return [...values].sort((a, b) => a - b);
}
