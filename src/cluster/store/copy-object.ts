/**
 * Copies of the cluster's JSON data (stored objects, request bodies, schemas' defaults): the local cluster
 * copies an object on every read, write, patch and controller pass, and `structuredClone` (V8's serializer
 * and deserializer) costs ~15 µs for a Pod where a walk over plain JSON values costs ~2 (bench: a 3 KB Pod,
 * Node 20). Only JSON values — plain objects, arrays, strings, numbers, booleans, null (and undefined where a
 * field is left unset) — are copied as values; an own `__proto__` key (JSON.parse makes one from a body) stays
 * an own key. The runtime's cloneJson (src/runtime/cache/copy.ts) is the client side's copy; the cluster keeps
 * its own, as it imports nothing from the runtime.
 */

/** A deep copy of JSON data. */
export function copyObject<T>(value: T): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = new Array(value.length);
    for (let i = 0; i < value.length; i++) items[i] = copyObject(value[i]);
    return items as T;
  }
  const fields: Record<string, unknown> = {};
  for (const key in value) {
    const field = copyObject((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(fields, key, { value: field, enumerable: true, writable: true, configurable: true });
    else fields[key] = field;
  }
  return fields as T;
}
