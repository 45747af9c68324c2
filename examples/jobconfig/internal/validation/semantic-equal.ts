/**
 * Equality of API values as Go sees the decoded structs: an unset field equals its zero value (false, "",
 * 0, empty list or map), and map key order never matters. Used to compare schedules, templates and
 * substitutions across updates, and to hash an OptionSpec.
 */

/** The value with zero values dropped and map keys sorted, recursively; `undefined` for a zero value. */
export function withoutZeroValues(value: unknown): unknown {
  if (Array.isArray(value)) return value.length ? value.map((v) => withoutZeroValues(v) ?? null) : undefined;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => [key, withoutZeroValues((value as Record<string, unknown>)[key])] as const)
      .filter(([, v]) => v !== undefined);
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  if (value === false || value === '' || value === 0 || value === null) return undefined;
  return value;
}

/** Whether `a` and `b` are the same once zero values are ignored. */
export function semanticallyEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(withoutZeroValues(a)) === JSON.stringify(withoutZeroValues(b));
}
