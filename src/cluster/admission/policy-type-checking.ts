/**
 * Type checking of a ValidatingAdmissionPolicy's expressions, as the policy status controller of 1.32
 * does it: for every kind the policy's resourceRules name exactly (no wildcards), `object` and
 * `oldObject` are declared with that kind's schema (the built-in OpenAPI definitions, or a CRD's
 * schema) and each expression is compiled; what does not compile becomes a warning
 * "<group>/<version>, Kind=<Kind>: <compile error>" (GroupVersionKind.String(): "/v1, Kind=Pod" for
 * the core group) at the expression's field.
 */
import type { AuditAnnotation, MatchCondition, NamedRuleWithOperations, ValidatingAdmissionPolicy, ValidatingAdmissionPolicySpec, Validation, Variable } from 'kubernetes-types/admissionregistration/v1.js';
import type { Environment } from '@marcbachmann/cel-js';
import { baseEnvironment, knownFunctionNames } from '../crd/cel/environment.js';
import { compileIssue } from '../crd/cel/compile-errors.js';
import { type ObjectClasses, declareType, withTypeAndObjectMeta } from '../crd/cel/declared-types.js';
import type { ResourceCatalog } from '../registry/resource-catalog.js';
import type { ResourceType } from '../registry/resource-type.js';
import { type Schema, builtinDefinition, referencedName } from '../schemas/builtin-schemas.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject } from '../store/object-store.js';
import { registerAuthorizerLibrary } from './authorizer-library.js';

export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

const dynamicDefinitions = new Set(['io.k8s.apimachinery.pkg.api.resource.Quantity', 'io.k8s.apimachinery.pkg.util.intstr.IntOrString']);
const resolvedDefinitions = new Map<string, Schema>();

/** A built-in definition with its references inlined (recursive and int-or-string types as dyn). */
function resolved(schema: Schema, visiting: Set<string> = new Set()): Schema {
  const name = referencedName(schema);
  if (name) {
    if (dynamicDefinitions.has(name) || visiting.has(name)) return { 'x-kubernetes-int-or-string': true };
    const cached = resolvedDefinitions.get(name);
    if (cached) return cached;
    const definition = builtinDefinition(name);
    if (!definition) return { 'x-kubernetes-preserve-unknown-fields': true };
    visiting.add(name);
    const out = resolved(definition, visiting);
    visiting.delete(name);
    resolvedDefinitions.set(name, out);
    return out;
  }
  const out: Schema = { ...schema };
  if (schema.properties) out.properties = Object.fromEntries(Object.entries(schema.properties as Schema).map(([k, v]) => [k, resolved(v as Schema, visiting)]));
  if (schema.items) out.items = resolved(schema.items as Schema, visiting);
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') out.additionalProperties = resolved(schema.additionalProperties as Schema, visiting);
  return out;
}

const environments = new WeakMap<ResourceType, Environment>();

/** The admission environment with `object`/`oldObject` typed as the kind of `rt`. */
function typedEnvironment(rt: ResourceType): Environment {
  let env = environments.get(rt);
  if (env) return env;
  env = baseEnvironment().clone();
  const schema = rt.custom ? withTypeAndObjectMeta(rt.openAPISchema()) : resolved(rt.openAPISchema());
  const classes: ObjectClasses = new Map();
  const type = declareType(env, schema, 'Object', classes);
  env.registerVariable('object', type).registerVariable('oldObject', type);
  for (const v of ['request', 'params', 'namespaceObject', 'variables']) env.registerVariable(v, 'dyn');
  registerAuthorizerLibrary(env);
  environments.set(rt, env);
  return env;
}

/** The compile issue of `expression` in `env`, if any. */
function issueOf(env: Environment, expression: string): string | undefined {
  try {
    const program = env.parse(expression) as unknown as { check(): { valid: boolean; error?: Error } };
    const checked = program.check();
    return checked.valid ? undefined : compileIssue(expression, checked.error as never, false, knownFunctionNames());
  } catch (err) {
    return compileIssue(expression, err as never, true, knownFunctionNames());
  }
}

/** A policy rule: kubernetes-types' NamedRuleWithOperations leaves out the `resources` of the Rule it embeds in Go. */
type PolicyRule = NamedRuleWithOperations & { resources?: string[] };

/** The kinds a policy's resourceRules name without wildcards. */
function matchedKinds(policy: KubeObject, catalog: ResourceCatalog): ResourceType[] {
  const kinds: ResourceType[] = [];
  const rules: PolicyRule[] = asStored<ValidatingAdmissionPolicy>(policy).spec?.matchConstraints?.resourceRules ?? [];
  for (const rule of rules) {
    for (const group of rule?.apiGroups ?? []) {
      for (const version of rule?.apiVersions ?? []) {
        for (const resource of rule?.resources ?? []) {
          if ([group, version, resource].some((p) => typeof p !== 'string' || p.includes('*')) || resource.includes('/')) continue;
          const rt = catalog.find(group, version, resource);
          if (rt && !kinds.includes(rt)) kinds.push(rt);
        }
      }
    }
  }
  return kinds;
}

/** The expressions of a policy with the field each stands at. */
function expressionsOf(policy: KubeObject): Array<[string, string]> {
  const spec: ValidatingAdmissionPolicySpec = asStored<ValidatingAdmissionPolicy>(policy).spec ?? {};
  const out: Array<[string, string]> = [];
  (spec.matchConditions ?? []).forEach((c: MatchCondition | undefined, i: number) => typeof c?.expression === 'string' && out.push([`spec.matchConditions[${i}].expression`, c.expression]));
  (spec.variables ?? []).forEach((v: Variable | undefined, i: number) => typeof v?.expression === 'string' && out.push([`spec.variables[${i}].expression`, v.expression]));
  (spec.validations ?? []).forEach((v: Validation | undefined, i: number) => {
    if (typeof v?.expression === 'string') out.push([`spec.validations[${i}].expression`, v.expression]);
    if (typeof v?.messageExpression === 'string' && v.messageExpression !== '') out.push([`spec.validations[${i}].messageExpression`, v.messageExpression]);
  });
  (spec.auditAnnotations ?? []).forEach((a: AuditAnnotation | undefined, i: number) => typeof a?.valueExpression === 'string' && out.push([`spec.auditAnnotations[${i}].valueExpression`, a.valueExpression]));
  return out;
}

export function typeCheckPolicy(policy: KubeObject, catalog: ResourceCatalog): ExpressionWarning[] {
  const kinds = matchedKinds(policy, catalog);
  if (kinds.length === 0) return [];
  const warnings: ExpressionWarning[] = [];
  for (const [fieldRef, expression] of expressionsOf(policy)) {
    const messages: string[] = [];
    for (const rt of kinds) {
      const issue = issueOf(typedEnvironment(rt), expression);
      if (issue) messages.push(`${rt.group}/${rt.version}, Kind=${rt.kind}: ${issue}`);
    }
    if (messages.length) warnings.push({ fieldRef, warning: messages.join('\n') });
  }
  return warnings;
}
