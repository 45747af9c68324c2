/**
 * Whether a schema node or anything below it carries x-kubernetes-validations — the server builds no CEL
 * validator for a schema without rules, and the CRD-write checks and evaluation skip subtrees without any.
 * Memoized per schema object, each subtree once.
 */
type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const withRules = new WeakMap<Schema, boolean>();

const below = (s: unknown): boolean => isObject(s) && hasCelRules(s);

/** Whether any node of the schema has x-kubernetes-validations. */
export function hasCelRules(schema: Schema): boolean {
  let has = withRules.get(schema);
  if (has === undefined) {
    has =
      (Array.isArray(schema['x-kubernetes-validations']) && schema['x-kubernetes-validations'].length > 0) ||
      Object.values((schema.properties ?? {}) as Schema).some(below) ||
      below(schema.items) ||
      below(schema.additionalProperties);
    withRules.set(schema, has);
  }
  return has;
}
