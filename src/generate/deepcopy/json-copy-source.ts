/**
 * The source text of the generic JSON-value copy that every generated deep-copy file carries privately
 * (so generated files import nothing at run time). It copies the wire-format values kubeforge has no
 * field list for: embedded Kubernetes types (PodTemplateSpec, ObjectMeta, ...), RawExtension and JSON
 * values, and types excluded with `+kubebuilder:object:generate=false`.
 */

export const JSON_COPY_FUNCTION_NAME = 'copyJsonValue';

export const JSON_COPY_SOURCE = `/** Copies a plain JSON value (objects, arrays, scalars); used where no field list is known. */
function ${JSON_COPY_FUNCTION_NAME}<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const length = value.length;
    const out: unknown[] = new Array(length);
    for (let i = 0; i < length; i++) out[i] = ${JSON_COPY_FUNCTION_NAME}(value[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (key === '__proto__') {
      Object.defineProperty(out, key, { value: ${JSON_COPY_FUNCTION_NAME}(value[key]), enumerable: true, writable: true, configurable: true });
    } else {
      out[key] = ${JSON_COPY_FUNCTION_NAME}(value[key]);
    }
  }
  return out as T;
}
`;
