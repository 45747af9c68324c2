/**
 * Evaluation of `x-kubernetes-validations` on a custom-resource write, as a 1.32 server does it: each
 * rule at each node of the object with `self` (and `oldSelf` on update, correlated through map lists
 * and maps), failures as field errors carrying message / messageExpression / reason / fieldPath, and
 * the runtime cost limits (per call and per object).
 */
import type { ValidationRule } from 'kubernetes-types/apiextensions/v1.js';
import { Optional } from '@marcbachmann/cel-js';
import { duplicate, type FieldError, forbidden, invalid, required } from '../../errors/field-errors.js';
import { estimateCost, measuredSizes, type SizeOf } from './cost-estimate.js';
import { perCallRuntimeLimit, perObjectRuntimeBudget } from './cost-limits.js';
import { ruleContext } from './rule-context.js';
import { usesOldSelf } from './rule-compiler.js';
import { hasCelRules } from './rules-present.js';

export { hasCelRules };

type Schema = Record<string, unknown>;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

interface Run {
  errs: FieldError[];
  remaining: number;
  stopped: boolean;
  isUpdate: boolean;
}

/** The value field errors show: the schema's type (empty for int-or-string and untyped nodes, as Structural.Type is). */
function typeName(schema: Schema | undefined): string {
  return typeof schema?.type === 'string' ? schema.type : '';
}

const trimmed = (s: unknown): string => (typeof s === 'string' ? s.trim() : '');
/** The rule's message, or its text when it has none (apiextensions ruleErrorString). */
const ruleErrorString = (v: ValidationRule): string => trimmed(v.message) || trimmed(v.rule);

function failure(v: ValidationRule, path: string, schema: Schema | undefined, message: string): FieldError {
  const field = v.fieldPath ? `${path}${v.fieldPath}`.replace(/^\./, '') : path || '<nil>';
  switch (v.reason) {
    case 'FieldValueForbidden':
      return forbidden(field, message);
    case 'FieldValueRequired':
      return required(field, message);
    case 'FieldValueDuplicate':
      // field.Duplicate carries no detail: the message is not shown, as on a real server
      return duplicate(field, typeName(schema));
    default:
      return invalid(field, typeName(schema), message);
  }
}

/** Per program: the schema nodes its cost walk asks sizes of, and the cost per combination of those sizes. */
const costMemo = new WeakMap<object, { queried: Schema[]; costs: Map<string, number> }>();

/** The cost of one evaluation over the measured sizes (memoized on the sizes the walk depends on). */
function runtimeCost(program: { ast: unknown }, selfSchema: Schema, sizes: SizeOf): number {
  let memo = costMemo.get(program);
  if (memo) {
    const key = memo.queried.map((s) => sizes(s).max).join(',');
    let cost = memo.costs.get(key);
    if (cost === undefined) {
      cost = estimateCost(program.ast, selfSchema, sizes).max;
      if (memo.costs.size < 256) memo.costs.set(key, cost);
    }
    return cost;
  }
  const queried: Schema[] = [];
  const cost = estimateCost(program.ast, selfSchema, (s) => {
    if (!queried.includes(s)) queried.push(s);
    return sizes(s);
  }).max;
  memo = { queried, costs: new Map([[queried.map((s) => sizes(s).max).join(','), cost]]) };
  costMemo.set(program, memo);
  return cost;
}

/** cel-go's wording of a runtime error. */
function runtimeError(err: Error): string {
  const text = (err.message.split('\n')[0] ?? '').replace(/^No such key: index out of bounds, index (\d+) >= size \d+$/, 'index out of bounds: $1');
  return text.replace(/^No such key: /, 'no such key: ').replace(/^integer overflow: .*$/, 'integer overflow');
}

/** Largest evaluated messageExpression (apiserver cel MaxEvaluatedMessageExpressionSizeBytes). */
const maxMessageBytes = 5 * 1024;

/**
 * The failure message: messageExpression's result when it evaluates to a usable string (charged to the
 * budget), else the message / "failed rule: …" — or undefined when its cost ran the budget out.
 */
function messageFor(v: ValidationRule, context: Record<string, unknown>, ctx: ReturnType<typeof ruleContext>, optionalOldSelf: boolean, sizes: SizeOf, run: Run): string | undefined {
  const fallback = trimmed(v.message) || `failed rule: ${ruleErrorString(v)}`;
  if (typeof v.messageExpression !== 'string') return fallback;
  const compiled = ctx.compile(v.messageExpression, optionalOldSelf);
  if (!compiled.ok) return fallback;
  const cost = runtimeCost(compiled.program, ctx.selfSchema, sizes);
  if (cost > perCallRuntimeLimit || cost > run.remaining) return undefined;
  run.remaining -= cost;
  try {
    const m = compiled.program(context);
    const text = typeof m === 'string' ? m.trim() : '';
    return text !== '' && !text.includes('\n') && Buffer.byteLength(text) <= maxMessageBytes ? text : fallback;
  } catch {
    return fallback;
  }
}

/** The node being validated: its value (and correlated old value) converted once for all its rules. */
interface NodeRun {
  value: unknown;
  old: unknown;
  schema: Schema;
  path: string;
  field: string;
  ctx: ReturnType<typeof ruleContext>;
  sizes: SizeOf;
  self?: unknown;
  oldSelf?: unknown;
}

/** Stops the whole validation with `message` at the node, as the server does when a cost limit is hit. */
function stop(run: Run, node: NodeRun, message: string): void {
  run.errs.push(invalid(node.field, typeName(node.schema), message));
  run.stopped = true;
}

function evaluateRule(v: ValidationRule, node: NodeRun, run: Run): void {
  if (typeof v?.rule !== 'string') return;
  const transition = usesOldSelf(v.rule);
  const optionalOldSelf = v.optionalOldSelf === true;
  if (transition && (!run.isUpdate || node.old === undefined) && !optionalOldSelf) return;
  const compiled = node.ctx.compile(v.rule, optionalOldSelf);
  if (!compiled.ok) {
    run.errs.push(invalid(node.field, typeName(node.schema), `rule compile error: ${compiled.issue}`));
    return;
  }
  const cost = runtimeCost(compiled.program, node.ctx.selfSchema, node.sizes);
  if (cost > perCallRuntimeLimit) {
    return stop(run, node, `'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(v)}`);
  }
  if (cost > run.remaining) return stop(run, node, 'validation failed due to running out of cost budget, no further validation rules will be run');
  run.remaining -= cost;
  node.self ??= node.ctx.toCel(node.value);
  const context: Record<string, unknown> = { self: node.self };
  if (transition) {
    if (node.oldSelf === undefined && node.old !== undefined) node.oldSelf = node.ctx.toCel(node.old);
    context.oldSelf = optionalOldSelf ? (node.oldSelf === undefined ? Optional.none() : Optional.of(node.oldSelf)) : node.oldSelf;
  }
  let ok: unknown;
  try {
    ok = compiled.program(context);
  } catch (err) {
    const text = runtimeError(err as Error);
    const detail = /^no such overload/i.test(text)
      ? `'${text}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(v)}`
      : `${text} evaluating rule: ${ruleErrorString(v)}`;
    run.errs.push(invalid(node.field, typeName(node.schema), detail));
    return;
  }
  if (ok === true) return;
  const message = messageFor(v, context, node.ctx, optionalOldSelf, node.sizes, run);
  if (message === undefined) return stop(run, node, 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run');
  run.errs.push(failure(v, node.path, node.schema, message));
}

function evaluateChildren(value: unknown, old: unknown, schema: Schema, path: string, isRoot: boolean, run: Run): void {
  if (Array.isArray(value) && isObject(schema.items)) {
    // only map lists correlate items with the old list (by their keys)
    const keys: string[] = schema['x-kubernetes-list-type'] === 'map' && Array.isArray(schema['x-kubernetes-list-map-keys']) ? schema['x-kubernetes-list-map-keys'] : [];
    const oldItems = Array.isArray(old) ? old : [];
    value.forEach((item, i) => {
      const oldItem = keys.length > 0 && isObject(item) ? oldItems.find((o) => isObject(o) && keys.every((k) => o[k] === item[k])) : undefined;
      evaluateNode(item, oldItem, schema.items as Schema, `${path}[${i}]`, false, run);
    });
  } else if (isObject(value)) {
    for (const [k, child] of Object.entries(value)) {
      if (isRoot && (k === 'metadata' || k === 'apiVersion' || k === 'kind')) continue;
      const declared = isObject(schema.properties) && k in schema.properties;
      const childSchema = declared ? (schema.properties as Record<string, Schema>)[k] : isObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
      evaluateNode(child, isObject(old) ? old[k] : undefined, childSchema, declared ? (path ? `${path}.${k}` : k) : `${path}[${k}]`, false, run);
    }
  }
}

function evaluateNode(value: unknown, old: unknown, schema: Schema | undefined, path: string, isRoot: boolean, run: Run): void {
  // null values are not validated: rules about them stand on the enclosing schema
  if (!isObject(schema) || value === undefined || value === null || run.stopped || !hasCelRules(schema)) return;
  // the CRD's rules passed its validation: a string rule each, optional fields of their types
  const rules: ValidationRule[] = Array.isArray(schema['x-kubernetes-validations']) ? schema['x-kubernetes-validations'] : [];
  if (rules.length > 0) {
    const ctx = ruleContext(schema, isRoot);
    const node: NodeRun = { value, old, schema, path, field: path || '<nil>', ctx, sizes: measuredSizes(old === undefined ? [value] : [value, old], ctx.selfSchema) };
    for (const v of rules) {
      evaluateRule(v, node, run);
      if (run.stopped) return;
    }
  }
  evaluateChildren(value, old, schema, path, isRoot, run);
}

/** Evaluates every rule of the schema against a custom resource (and its old version on update). */
export function evaluateCelRules(object: Record<string, unknown>, schema: Schema, old?: Record<string, unknown>): FieldError[] {
  const run: Run = { errs: [], remaining: perObjectRuntimeBudget, stopped: false, isUpdate: old !== undefined };
  evaluateNode(object, old, schema, '', true, run);
  return run.errs;
}
