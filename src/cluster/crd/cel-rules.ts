/**
 * `x-kubernetes-validations` (CEL) rules: compiled when a CRD is written (a rule that does not parse
 * rejects the CRD) and evaluated on every custom-resource write with `self` and, on updates,
 * `oldSelf`, using @marcbachmann/cel-js. A rule the engine cannot evaluate fails the write with a
 * message saying so — it is never silently skipped. Cost budgets are not estimated.
 */
import { parse } from '@marcbachmann/cel-js';
import { type FieldError, forbidden, invalid, required } from '../errors/field-errors.js';

type Schema = Record<string, any>;
const isObject = (v: unknown): v is Record<string, any> => v !== null && typeof v === 'object' && !Array.isArray(v);

type Compiled = (context: Record<string, unknown>) => unknown;
const cache = new Map<string, Compiled>();

function compile(rule: string): Compiled {
  let fn = cache.get(rule);
  if (!fn) {
    fn = parse(rule) as unknown as Compiled;
    cache.set(rule, fn);
  }
  return fn;
}

/** Compilation errors for every rule of a schema, as CRD field errors at `path`. */
export function celCompileErrors(schema: Schema | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!isObject(schema)) return errs;
  (Array.isArray(schema['x-kubernetes-validations']) ? schema['x-kubernetes-validations'] : []).forEach((v: any, i: number) => {
    const p = `${path}.x-kubernetes-validations[${i}]`;
    if (typeof v?.rule !== 'string' || v.rule === '') {
      errs.push(required(`${p}.rule`));
      return;
    }
    try {
      compile(v.rule);
    } catch (err) {
      errs.push(invalid(`${p}.rule`, v.rule, `compilation failed: ERROR: <input>:${firstLine((err as Error).message)}`));
    }
    if (v.messageExpression !== undefined) {
      try {
        compile(v.messageExpression);
      } catch (err) {
        errs.push(invalid(`${p}.messageExpression`, v.messageExpression, `messageExpression compilation failed: ${firstLine((err as Error).message)}`));
      }
    }
  });
  for (const [k, child] of Object.entries((schema.properties ?? {}) as Schema)) errs.push(...celCompileErrors(child, `${path}.properties[${k}]`));
  if (isObject(schema.items)) errs.push(...celCompileErrors(schema.items, `${path}.items`));
  if (isObject(schema.additionalProperties)) errs.push(...celCompileErrors(schema.additionalProperties, `${path}.additionalProperties`));
  return errs;
}

function firstLine(s: string): string {
  return s.split('\n')[0] ?? s;
}

/** JSON values as CEL sees them: integer-typed schema values become int (bigint). */
function toCel(value: unknown, schema: Schema | undefined): unknown {
  if (typeof value === 'number') {
    const intTyped = schema?.type === 'integer' || schema?.['x-kubernetes-int-or-string'] === true;
    return intTyped && Number.isInteger(value) ? BigInt(value) : value;
  }
  if (Array.isArray(value)) return value.map((v) => toCel(v, schema?.items));
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const child = schema?.properties?.[k] ?? (isObject(schema?.additionalProperties) ? schema?.additionalProperties : undefined);
      out[k] = toCel(v, child);
    }
    return out;
  }
  return value;
}

const usesOldSelf = (rule: string): boolean => /\boldSelf\b/.test(rule);

function typeName(schema: Schema | undefined): string {
  return schema?.type ?? (schema?.['x-kubernetes-int-or-string'] ? 'int-or-string' : 'object');
}

function failure(v: any, path: string, schema: Schema | undefined, message: string): FieldError {
  const field = v.fieldPath ? `${path}${v.fieldPath}`.replace(/^\./, '') : path || '<nil>';
  switch (v.reason) {
    case 'FieldValueForbidden':
      return forbidden(field, message);
    case 'FieldValueRequired':
      return required(field, message);
    case 'FieldValueDuplicate':
      return { type: 'FieldValueDuplicate', field, value: typeName(schema), detail: message };
    default:
      return invalid(field, typeName(schema), message);
  }
}

function evaluateNode(value: unknown, old: unknown, schema: Schema | undefined, path: string, isUpdate: boolean, errs: FieldError[]): void {
  if (!isObject(schema) || value === undefined) return;
  const rules: any[] = Array.isArray(schema['x-kubernetes-validations']) ? schema['x-kubernetes-validations'] : [];
  for (const v of rules) {
    if (usesOldSelf(v.rule) && (!isUpdate || old === undefined) && v.optionalOldSelf !== true) continue;
    const context: Record<string, unknown> = { self: toCel(value, schema) };
    if (usesOldSelf(v.rule)) context.oldSelf = old === undefined ? null : toCel(old, schema);
    let ok: unknown;
    try {
      ok = compile(v.rule)(context);
    } catch (err) {
      errs.push(invalid(path || '<nil>', typeName(schema), `rule could not be evaluated by the kubeforge local cluster's CEL engine (rule ${JSON.stringify(v.rule)}): ${firstLine((err as Error).message)}`));
      continue;
    }
    if (ok === true) continue;
    let message = typeof v.message === 'string' && v.message ? v.message : `failed rule: ${v.rule}`;
    if (typeof v.messageExpression === 'string') {
      try {
        const m = compile(v.messageExpression)(context);
        if (typeof m === 'string' && m !== '') message = m;
      } catch {
        // fall back to message / failed rule, as the real server does on messageExpression errors
      }
    }
    errs.push(failure(v, path, schema, message));
  }
  const prefix = path ? `${path}.` : '';
  if (Array.isArray(value) && isObject(schema.items)) {
    value.forEach((item, i) => evaluateNode(item, undefined, schema.items, `${path}[${i}]`, isUpdate, errs));
  } else if (isObject(value)) {
    for (const [k, child] of Object.entries(value)) {
      const childSchema = schema.properties?.[k] ?? (isObject(schema.additionalProperties) ? schema.additionalProperties : undefined);
      evaluateNode(child, isObject(old) ? old[k] : undefined, childSchema, `${prefix}${k}`, isUpdate, errs);
    }
  }
}

/** Evaluates every rule of the schema against a custom resource (and its old version on update). */
export function evaluateCelRules(object: Record<string, any>, schema: Schema, old?: Record<string, any>): FieldError[] {
  const errs: FieldError[] = [];
  const body = { ...object };
  delete body.metadata;
  const oldBody = old ? { ...old } : undefined;
  if (oldBody) delete oldBody.metadata;
  const rootSchema = { ...schema, properties: { ...(schema.properties ?? {}) } };
  delete rootSchema.properties.metadata;
  evaluateNode(body, oldBody, rootSchema, '', old !== undefined, errs);
  return errs;
}
