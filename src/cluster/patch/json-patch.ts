/**
 * JSON patch (RFC 6902) with all six operations. A failing operation throws `JsonPatchError`
 * (the API server answers 422 with its message).
 */
import { copyObject } from '../store/copy-object.js';

export class JsonPatchError extends Error {}

type Container = Record<string, unknown> | unknown[];

function parsePointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw new JsonPatchError(`invalid JSON pointer: ${JSON.stringify(path)}`);
  return path.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function parent(doc: unknown, tokens: string[], path: string): { container: Container; key: string } {
  let node = doc;
  for (const t of tokens.slice(0, -1)) {
    if (Array.isArray(node)) node = node[Number(t)];
    else if (node !== null && typeof node === 'object') node = (node as Record<string, unknown>)[t];
    else node = undefined;
    if (node === undefined) throw new JsonPatchError(`doc is missing path: "${path}": missing value`);
  }
  if (node === null || typeof node !== 'object') throw new JsonPatchError(`doc is missing path: "${path}": missing value`);
  return { container: node as Container, key: tokens[tokens.length - 1]! };
}

function get(doc: unknown, path: string): unknown {
  let node = doc;
  for (const t of parsePointer(path)) {
    if (Array.isArray(node)) node = node[t === '-' ? node.length : Number(t)];
    else if (node !== null && typeof node === 'object') node = (node as Record<string, unknown>)[t];
    else node = undefined;
    if (node === undefined) throw new JsonPatchError(`doc is missing path: "${path}": missing value`);
  }
  return node;
}

function arrayIndex(arr: unknown[], key: string, forInsert: boolean): number {
  if (key === '-' && forInsert) return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(key)) throw new JsonPatchError(`Unable to access invalid index: ${key}: invalid index referenced`);
  const i = Number(key);
  if (i > arr.length || (!forInsert && i >= arr.length)) throw new JsonPatchError(`Unable to access invalid index: ${i}: invalid index referenced`);
  return i;
}

function add(doc: unknown, path: string, value: unknown): unknown {
  const tokens = parsePointer(path);
  if (tokens.length === 0) return copyObject(value);
  const { container, key } = parent(doc, tokens, path);
  if (Array.isArray(container)) container.splice(arrayIndex(container, key, true), 0, copyObject(value));
  else container[key] = copyObject(value);
  return doc;
}

function remove(doc: unknown, path: string): unknown {
  const tokens = parsePointer(path);
  const { container, key } = parent(doc, tokens, path);
  if (Array.isArray(container)) container.splice(arrayIndex(container, key, false), 1);
  else {
    if (!(key in container)) throw new JsonPatchError(`Unable to remove nonexistent key: ${key}: missing value`);
    delete container[key];
  }
  return doc;
}

function deepEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
  return v;
}

/** Go's encoding/json name for a JSON value's type, as its unmarshal errors print it. */
const goJsonType = (v: unknown): string => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v === 'boolean' ? 'bool' : typeof v);

/** A move's or copy's `from` pointer (Operation.From), with the library's error when it is missing or not a string. */
function fromOf(op: Record<string, unknown>, kind: string): string {
  if (op.from === undefined || op.from === null) throw new JsonPatchError(`${kind} operation failed to decode from: operation, missing from field: missing value`);
  if (typeof op.from !== 'string') throw new JsonPatchError(`${kind} operation failed to decode from: json: cannot unmarshal ${goJsonType(op.from)} into Go value of type string`);
  return op.from;
}

export function applyJsonPatch(document: unknown, operations: unknown): unknown {
  if (!Array.isArray(operations)) throw new TypeError('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  let doc = copyObject(document);
  for (const op of operations as Array<Record<string, unknown>>) {
    const path = op.path;
    if (typeof path !== 'string') throw new JsonPatchError(`Unable to find path for operation ${JSON.stringify(op.op)}`);
    switch (op.op) {
      case 'add':
        doc = add(doc, path, op.value);
        break;
      case 'remove':
        doc = remove(doc, path);
        break;
      case 'replace': {
        get(doc, path);
        doc = remove(doc, path);
        doc = add(doc, path, op.value);
        break;
      }
      case 'move': {
        const from = fromOf(op, 'move');
        const value = get(doc, from);
        doc = remove(doc, from);
        doc = add(doc, path, value);
        break;
      }
      case 'copy':
        doc = add(doc, path, get(doc, fromOf(op, 'copy')));
        break;
      case 'test':
        if (!deepEqual(get(doc, path), op.value)) throw new JsonPatchError(`testing value ${path} failed: test failed`);
        break;
      default:
        throw new JsonPatchError(`Unexpected kind: ${op.op}`);
    }
  }
  return doc;
}
