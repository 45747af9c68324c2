/**
 * CRD-creation checks of `x-kubernetes-validations`: every rule and messageExpression compiles in the
 * 1.32 CRD environment, rules return bool and messageExpressions string, message/reason/
 * optionalOldSelf are well-formed, transition rules stand on correlatable nodes, and estimated costs
 * stay within the per-expression and per-CRD limits.
 */
import type { ValidationRule } from 'kubernetes-types/apiextensions/v1.js';
import { type FieldError, forbidden, goQuote, GoSyntaxValue, invalid, notSupported, required } from '../../errors/field-errors.js';
import { cardinalityFactor, estimateCost } from './cost-estimate.js';
import { costErrorMessage, perCrdEstimatedLimit, perExpressionEstimatedLimit } from './cost-limits.js';
import { fieldPathProblem } from './field-path.js';
import { ruleContext, type RuleContext } from './rule-context.js';
import { hasCelRules } from './rules-present.js';

type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

const reasons = ['FieldValueDuplicate', 'FieldValueForbidden', 'FieldValueInvalid', 'FieldValueRequired'];

/** Whether an expression refers to `oldSelf` (outside string literals). */
export function usesOldSelf(expression: string): boolean {
  return /\boldSelf\b/.test(expression.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""'));
}

/** A rule of x-kubernetes-validations as the CRD holds it: its fields unchecked until ruleShapeErrors. */
export type DecodedRule = { [K in keyof ValidationRule]?: unknown } | null | undefined;

/** The rule as the server prints it in a field error: Go's %#v of apiextensions.ValidationRule. */
export function validationRuleValue(v: DecodedRule): GoSyntaxValue {
  const text = (x: unknown): string => goQuote(typeof x === 'string' ? x : '');
  const pointer = (type: string, x: unknown): string => `(*${type})(${x === undefined || x === null ? 'nil' : '0xc000a1e000'})`;
  return new GoSyntaxValue(
    `apiextensions.ValidationRule{Rule:${text(v?.rule)}, Message:${text(v?.message)}, MessageExpression:${text(v?.messageExpression)}, ` +
      `Reason:${pointer('apiextensions.FieldValueErrorReason', v?.reason)}, FieldPath:${text(v?.fieldPath)}, OptionalOldSelf:${pointer('bool', v?.optionalOldSelf)}}`,
  );
}

/**
 * One refusal of a CRD's rules, with the rule it concerns (the object in the schema's
 * x-kubernetes-validations; absent for the per-CRD total) and, for cost refusals, the estimate and limit.
 */
export interface RuleFinding {
  error: FieldError;
  rule?: object;
  cost?: { estimated: number; limit: number; of: 'rule' | 'crd' };
}

interface CostTotal {
  sum: number;
  contributions: Array<{ path: string; cost: number; rule: object }>;
}

interface Walk {
  /** apiextensions' SchemaErrors: rule field shapes; any at a node or below skips compiling that node's rules. */
  schemaErrs: RuleFinding[];
  /** apiextensions' CELErrors: compile, result type, cost, oldSelf use. */
  celErrs: RuleFinding[];
  total: CostTotal;
}

const lineBreak = /[\n\r]+/;

/** The checks of a rule's fields that need no compiling (apiextensions' SchemaErrors for x-kubernetes-validations). */
function ruleShapeErrors(v: DecodedRule, p: string, schema: Schema): FieldError[] {
  const errs: FieldError[] = [];
  const rule = typeof v?.rule === 'string' ? v.rule : '';
  const message = typeof v?.message === 'string' ? v.message : '';
  if (rule.trim() === '') errs.push(required(`${p}.rule`, 'rule is not specified'));
  else if (message.length > 0 && message.trim() === '') errs.push(invalid(`${p}.message`, message, 'message must be non-empty if specified'));
  else if (lineBreak.test(message.trim())) errs.push(invalid(`${p}.message`, message, 'message must not contain line breaks'));
  else if (lineBreak.test(rule.trim()) && message.trim() === '') errs.push(required(`${p}.message`, 'message must be specified if rule contains line breaks'));
  if (typeof v?.messageExpression === 'string' && v.messageExpression.length > 0 && v.messageExpression.trim() === '') {
    errs.push(required(`${p}.messageExpression`, 'messageExpression must be non-empty if specified'));
  }
  if (v?.reason !== undefined && v?.reason !== null && !reasons.includes(v.reason as string)) errs.push(notSupported(`${p}.reason`, v.reason, reasons));
  const fieldPath = typeof v?.fieldPath === 'string' ? v.fieldPath : '';
  if (fieldPath.length > 0 && fieldPath.trim() === '') errs.push(invalid(`${p}.fieldPath`, fieldPath, 'fieldPath must be non-empty if specified'));
  if (lineBreak.test(fieldPath)) errs.push(invalid(`${p}.fieldPath`, fieldPath, 'fieldPath must not contain line breaks'));
  if (fieldPath.length > 0 && fieldPathProblem(fieldPath, schema) !== undefined) errs.push(invalid(`${p}.fieldPath`, fieldPath, 'fieldPath must be a valid path'));
  return errs;
}

/** Compiles a rule and its messageExpression: the CELErrors in apiextensions' order, costs into the CRD total. */
function compileRule(v: ValidationRule, p: string, ctx: RuleContext, cardinality: number, uncorrelatable: string | undefined, walk: Walk): void {
  const refuse = (error: FieldError, cost?: number): void => {
    walk.celErrs.push({ error, rule: v, ...(cost === undefined ? {} : { cost: { estimated: cost, limit: perExpressionEstimatedLimit, of: 'rule' as const } }) });
  };
  const optionalOldSelf = v.optionalOldSelf === true;
  const compiled = ctx.compile(v.rule, optionalOldSelf);
  if (compiled.ok && (compiled.type === 'bool' || compiled.type === 'dyn')) {
    const cost = estimateCost(compiled.program.ast, ctx.selfSchema).max * cardinality;
    if (cost > perExpressionEstimatedLimit) refuse(forbidden(`${p}.rule`, costErrorMessage('estimated rule cost', cost, perExpressionEstimatedLimit)), cost);
    walk.total.sum += cost;
    walk.total.contributions.push({ path: `${p}.rule`, cost, rule: v });
  } else if (!compiled.ok) refuse(invalid(`${p}.rule`, validationRuleValue(v), `compilation failed: ${compiled.issue}`));
  else refuse(invalid(`${p}.rule`, validationRuleValue(v), 'cel expression must evaluate to a bool'));
  if (typeof v.messageExpression === 'string' && v.messageExpression.trim() !== '') {
    const message = ctx.compile(v.messageExpression, optionalOldSelf);
    if (!message.ok) refuse(invalid(`${p}.messageExpression`, validationRuleValue(v), `messageExpression compilation failed: ${message.issue}`));
    else if (message.type !== 'string' && message.type !== 'dyn') refuse(invalid(`${p}.messageExpression`, validationRuleValue(v), 'messageExpression must evaluate to a string'));
    else {
      const cost = estimateCost(message.program.ast, ctx.selfSchema).max * cardinality;
      if (cost > perExpressionEstimatedLimit) {
        refuse(forbidden(`${p}.messageExpression`, costErrorMessage('estimated messageExpression cost', cost, perExpressionEstimatedLimit)), cost);
      }
      walk.total.sum += cost;
      walk.total.contributions.push({ path: `${p}.messageExpression`, cost, rule: v });
    }
  }
  if (usesOldSelf(v.rule)) {
    if (uncorrelatable !== undefined) refuse(invalid(`${p}.rule`, v.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${uncorrelatable}`));
  } else if (v.optionalOldSelf !== undefined && v.optionalOldSelf !== null) {
    refuse(invalid(`${p}.optionalOldSelf`, v.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
  }
}

function visit(schema: unknown, path: string, isRoot: boolean, ancestors: Schema[], uncorrelatable: string | undefined, walk: Walk): void {
  if (!isObject(schema) || !hasCelRules(schema)) return;
  const schemaErrsBefore = walk.schemaErrs.length;
  for (const [k, child] of Object.entries((schema.properties ?? {}) as Schema)) visit(child, `${path}.properties[${k}]`, false, ancestors, uncorrelatable, walk);
  if (isObject(schema.items)) {
    const correlatable = schema['x-kubernetes-list-type'] === 'map';
    visit(schema.items, `${path}.items`, false, [...ancestors, schema], uncorrelatable ?? (correlatable ? undefined : path), walk);
  }
  if (isObject(schema.additionalProperties)) visit(schema.additionalProperties, `${path}.additionalProperties`, false, [...ancestors, schema], uncorrelatable, walk);
  const rules = Array.isArray(schema['x-kubernetes-validations']) ? (schema['x-kubernetes-validations'] as unknown[]) : [];
  if (rules.length === 0) return;
  rules.forEach((v, i) => {
    for (const error of ruleShapeErrors(v as DecodedRule, `${path}.x-kubernetes-validations[${i}]`, schema)) walk.schemaErrs.push({ error, ...(isObject(v) ? { rule: v } : {}) });
  });
  // a schema error at this node or below leaves its rules uncompiled, as apiextensions does
  if (walk.schemaErrs.length > schemaErrsBefore) return;
  const ctx = ruleContext(schema, isRoot);
  const cardinality = cardinalityFactor(ancestors);
  // every rule passed ruleShapeErrors: a string rule, and the optional fields of their types
  rules.forEach((v, i) => compileRule(v as ValidationRule, `${path}.x-kubernetes-validations[${i}]`, ctx, cardinality, uncorrelatable, walk));
}

/**
 * Every refusal of a CRD version's rules, as the API server finds them when the CRD is written: field
 * errors under `path` (the openAPIV3Schema path), each with its rule and, for cost, the estimate and limit.
 */
export function celRuleFindings(schema: Schema | undefined, path: string): RuleFinding[] {
  const walk: Walk = { schemaErrs: [], celErrs: [], total: { sum: 0, contributions: [] } };
  visit(schema, path, true, [], undefined, walk);
  const findings = [...walk.schemaErrs, ...walk.celErrs];
  if (walk.total.sum > perCrdEstimatedLimit) {
    const cost = { estimated: walk.total.sum, limit: perCrdEstimatedLimit, of: 'crd' as const };
    const mostExpensive = [...walk.total.contributions].sort((a, b) => b.cost - a.cost).slice(0, 4);
    for (const c of mostExpensive) {
      findings.push({ error: forbidden(c.path, 'contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema'), rule: c.rule, cost });
    }
    findings.push({ error: forbidden(path, costErrorMessage('x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema', walk.total.sum, perCrdEstimatedLimit)), cost });
  }
  return findings;
}

/** Every CEL error of a CRD version's schema, as field errors under `path` (the openAPIV3Schema path). */
export function celCompileErrors(schema: Schema | undefined, path: string): FieldError[] {
  return celRuleFindings(schema, path).map((f) => f.error);
}
