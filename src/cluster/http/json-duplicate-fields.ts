/**
 * Finds object keys that occur twice in a JSON request body, named as sigs.k8s.io/json's strict decoder
 * names them (`metadata.labels.app`, `spec.containers[0].name`). A cheap check on the already parsed
 * value rules most bodies out without a second scan of the text.
 */

function countColons(text: string): number {
  let count = 0;
  for (let at = text.indexOf(':'); at !== -1; at = text.indexOf(':', at + 1)) count++;
  return count;
}

/**
 * Whether the text can hold no duplicate key: every ':' of the text is either a key separator (one per
 * parsed key) or inside a parsed key or string. A duplicate key is lost by JSON.parse, so the count
 * falls short; an escaped colon (`\u003a`) also fails the check and takes the exact path.
 */
function surelyUnique(text: string, parsed: unknown): boolean {
  const colons = countColons(text);
  if (colons === 0) return true;
  let expected = 0;
  const stack: unknown[] = [parsed];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (value.includes(':')) expected += countColons(value);
    } else if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
    } else if (value !== null && typeof value === 'object') {
      for (const key in value as Record<string, unknown>) {
        expected += 1;
        if (key.includes(':')) expected += countColons(key);
        stack.push((value as Record<string, unknown>)[key]);
      }
    }
  }
  return colons === expected;
}

interface Frame {
  path: string;
  /** Keys seen so far (objects), or undefined for arrays. */
  keys: Set<string> | undefined;
  index: number;
}

/** Reads the JSON string starting at `at` (a '"'); returns its value and the index after it. */
function readString(text: string, at: number): [string, number] {
  let end = at + 1;
  let escaped = false;
  for (; end < text.length; end++) {
    const c = text.charCodeAt(end);
    if (c === 0x5c) escaped = true;
    if (c === 0x22) break;
  }
  for (;;) {
    // a quote preceded by an odd number of backslashes is part of the string
    let slashes = 0;
    for (let i = end - 1; text.charCodeAt(i) === 0x5c; i--) slashes++;
    if (slashes % 2 === 0) break;
    end = text.indexOf('"', end + 1);
  }
  const raw = text.slice(at, end + 1);
  return [escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1), end + 1];
}

function childPath(frame: Frame | undefined, key: string): string {
  if (!frame) return key;
  return frame.path ? `${frame.path}.${key}` : key;
}

/** Every duplicated key of a well-formed JSON text, in document order (at the second occurrence). */
function scanDuplicates(text: string): string[] {
  const found: string[] = [];
  const stack: Frame[] = [];
  let pendingPath = '';
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 0x22) {
      const [value, next] = readString(text, i);
      i = next;
      while (i < text.length && /\s/.test(text[i]!)) i++;
      if (top?.keys && text[i] === ':') {
        const path = childPath(top, value);
        if (top.keys.has(value)) found.push(path);
        else top.keys.add(value);
        pendingPath = path;
        i++;
      }
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      const path = top && !top.keys ? `${top.path}[${top.index}]` : pendingPath;
      stack.push({ path, keys: c === 0x7b ? new Set() : undefined, index: 0 });
    } else if (c === 0x7d || c === 0x5d) {
      stack.pop();
    } else if (c === 0x2c && top && !top.keys) {
      top.index++;
    }
    i++;
  }
  return found;
}

/**
 * The paths of duplicated keys in `text` (already parsed into `parsed`), each once (the strict decoder
 * drops repeated messages), or [] for most bodies at once.
 */
export function duplicateFields(text: string, parsed: unknown): string[] {
  if (parsed === null || typeof parsed !== 'object') return [];
  return surelyUnique(text, parsed) ? [] : [...new Set(scanDuplicates(text))];
}

/** The strict decoder's list: duplicate-field messages, then the unknown fields, at most 100 in all. */
export function strictDecodingReasons(duplicates: string[], unknown: string[]): string {
  return [...duplicates, ...unknown.map((u) => `unknown field "${u}"`)].slice(0, 100).join(', ');
}
