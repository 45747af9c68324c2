/**
 * `maxDescLen` (controller-gen §6.4): removes (N = 0) or shortens (N > 0) every `description` in a
 * flattened schema. Shortening cuts at N UTF-8 bytes, then after the last sentence terminal, else at the
 * last whitespace plus `...`, else appends `...`.
 */
import { freezeDeep, type Schema } from './schema.js';

const SENTENCE_TERMINAL = /[.!?\u0589\u061F\u06D4\u0700-\u0702\u07F9\u0964\u0965\u104A\u104B\u1362\u1367\u1368\u166E\u1803\u1809\u1944\u1945\u203C\u203D\u2047-\u2049\u2E2E\u3002\uFE52\uFE56\uFE57\uFF01\uFF0E\uFF1F\uFF61]/u;

/** Cuts text to at most `max` UTF-8 bytes without splitting a character. */
function cutToBytes(text: string, max: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= max) return text;
  let end = max;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** One description shortened to `max` bytes (§6.4). */
export function truncateDescription(text: string, max: number): string {
  if (Buffer.byteLength(text, 'utf8') <= max) return text;
  const cut = cutToBytes(text, max);
  const chars = [...cut];
  for (let i = chars.length - 1; i > 0; i--) if (SENTENCE_TERMINAL.test(chars[i]!)) return chars.slice(0, i + 1).join('');
  for (let i = chars.length - 1; i > 0; i--) if (/\s/u.test(chars[i]!)) return `${chars.slice(0, i).join('')}...`;
  return `${cut}...`;
}

/** One node's description under maxDescLen (N = 0: none). */
function limitedText(text: string, maxDescLen: number): string | undefined {
  return maxDescLen === 0 ? undefined : truncateDescription(text, maxDescLen);
}

/** Applies maxDescLen to every node of a schema (mutates it). Negative or undefined: no change. */
export function limitDescriptions(node: Schema, maxDescLen: number | undefined): void {
  if (maxDescLen === undefined || maxDescLen < 0) return;
  const visit = (n: Schema): void => {
    if (typeof n.description === 'string') {
      const text = limitedText(n.description, maxDescLen);
      if (text === undefined) delete n.description;
      else n.description = text;
    }
    for (const child of Object.values(n.properties ?? {})) visit(child);
    if (n.items) visit(n.items);
    if (n.additionalProperties && typeof n.additionalProperties === 'object') visit(n.additionalProperties);
    for (const list of [n.allOf, n.anyOf, n.oneOf as Schema[] | undefined]) for (const s of list ?? []) visit(s);
    if (n.not && typeof n.not === 'object') visit(n.not as Schema);
  };
  visit(node);
}

/**
 * The same as limitDescriptions, without changing `node`: returns a copy with maxDescLen applied. Frozen
 * (shared) subtrees are limited once per `memo` and the results are frozen and shared in turn, so a type used
 * by a hundred kinds is shortened once. Negative or undefined: `node` itself.
 */
export function withLimitedDescriptions(node: Schema, maxDescLen: number | undefined, memo = new WeakMap<Schema, Schema>()): Schema {
  if (maxDescLen === undefined || maxDescLen < 0) return node;
  const visit = (n: Schema): Schema => {
    const shared = Object.isFrozen(n);
    if (shared) {
      const known = memo.get(n);
      if (known) return known;
    }
    const out: Schema = { ...n };
    if (typeof n.description === 'string') {
      const text = limitedText(n.description, maxDescLen);
      if (text === undefined) delete out.description;
      else out.description = text;
    }
    if (n.properties) out.properties = Object.fromEntries(Object.entries(n.properties).map(([k, v]) => [k, visit(v)]));
    if (n.items) out.items = visit(n.items);
    if (n.additionalProperties && typeof n.additionalProperties === 'object') out.additionalProperties = visit(n.additionalProperties);
    for (const key of ['allOf', 'anyOf', 'oneOf'] as const) if (Array.isArray(n[key])) out[key] = (n[key] as Schema[]).map(visit);
    if (n.not && typeof n.not === 'object') out.not = visit(n.not as Schema);
    if (shared) memo.set(n, freezeDeep(out));
    return out;
  };
  return visit(node);
}
