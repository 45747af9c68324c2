/**
 * The RFC 6902 JSON patch that turns one JSON value into another — what a defaulting webhook answers
 * after the user's defaulter mutated a copy of the object. Objects are diffed key by key; arrays that
 * differ are replaced whole (simple, and always correct).
 */

export interface JsonPatchOp {
  op: 'add' | 'remove' | 'replace';
  path: string;
  value?: unknown;
}

const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ak = Object.keys(a);
    return ak.length === Object.keys(b).length && ak.every((k) => k in b && equal(a[k], b[k]));
  }
  return false;
}

export function jsonPatchDiff(from: unknown, to: unknown, path = ''): JsonPatchOp[] {
  if (equal(from, to)) return [];
  if (!isObject(from) || !isObject(to)) return [{ op: 'replace', path, value: to }];
  const ops: JsonPatchOp[] = [];
  for (const key of Object.keys(from)) if (!(key in to) || to[key] === undefined) ops.push({ op: 'remove', path: `${path}/${escape(key)}` });
  for (const [key, value] of Object.entries(to)) {
    if (value === undefined) continue;
    const child = `${path}/${escape(key)}`;
    if (!(key in from) || from[key] === undefined) ops.push({ op: 'add', path: child, value });
    else ops.push(...jsonPatchDiff(from[key], value, child));
  }
  return ops;
}
