/**
 * Per schema node: the CEL environment its rules compile in (`self` and `oldSelf` declared with the
 * node's type) and the compiled programs, cached on the schema object so each rule is compiled once.
 */
import { evaluate, type Environment } from '@marcbachmann/cel-js';
import { baseEnvironment, knownFunctionNames } from './environment.js';
import { compileIssue, invalidLiterals, undeclaredCalls } from './compile-errors.js';
import { declareType, type ObjectClasses, toCelValue, withTypeAndObjectMeta } from './declared-types.js';

type Schema = Record<string, unknown>;

/** A compiled expression: callable with `{self, oldSelf}`, its AST and its result type. */
export interface Program {
  (context: Record<string, unknown>): unknown;
  ast: unknown;
}

export type CompileResult = { ok: true; program: Program; type: string } | { ok: false; issue: string };

/** The compile side of one schema node. */
export interface RuleContext {
  /** The schema `self` has (at the root: with apiVersion, kind and metadata name/generateName). */
  selfSchema: Schema;
  compile(expression: string, optionalOldSelf: boolean): CompileResult;
  /** A JSON value as `self` sees it. */
  toCel(value: unknown): unknown;
}

const rootContexts = new WeakMap<Schema, RuleContext>();
const nodeContexts = new WeakMap<Schema, RuleContext>();
let known: Set<string> | undefined;
let durationCtor: (new (seconds: bigint, nanos: number) => unknown) | undefined;

const makeDuration = (seconds: bigint, nanos: number): unknown => {
  durationCtor ??= (evaluate('duration("0s")') as object).constructor as new (s: bigint, n: number) => unknown;
  return new durationCtor(seconds, nanos);
};

const identifiers = (text: string): string[] => text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];

/** Every identifier the node's rules and messageExpressions use (string literals included: a harmless superset). */
function namesInRules(schema: Schema): Set<string> {
  const names = new Set<string>();
  const rules: unknown[] = Array.isArray(schema['x-kubernetes-validations']) ? schema['x-kubernetes-validations'] : [];
  for (const v of rules as Array<Record<string, unknown> | null>) {
    for (const key of ['rule', 'messageExpression']) {
      const text = v?.[key];
      if (typeof text === 'string') for (const id of identifiers(text)) names.add(id);
    }
  }
  return names;
}

function newContext(schema: Schema, isRoot: boolean): RuleContext {
  const selfSchema = isRoot ? withTypeAndObjectMeta(schema) : schema;
  const envs = new Map<string, Environment>();
  const classes: ObjectClasses = new Map();
  const cache = new Map<string, CompileResult>();
  // `self` declares only the fields the node's own expressions name; any other expression gets every field
  const named = namesInRules(schema);
  const envFor = (optionalOldSelf: boolean, expression?: string): Environment => {
    const everyField = expression !== undefined && identifiers(expression).some((id) => !named.has(id));
    const key = `${optionalOldSelf}/${everyField}`;
    let env = envs.get(key);
    if (!env) {
      env = baseEnvironment().clone();
      const selfType = declareType(env, selfSchema, 'Object', classes, everyField ? undefined : (field) => named.has(field));
      env.registerVariable('self', selfType).registerVariable('oldSelf', optionalOldSelf ? `optional<${selfType}>` : selfType);
      envs.set(key, env);
    }
    return env;
  };
  return {
    selfSchema,
    toCel: (value) => {
      // the classes exist once an environment has declared the types
      envFor(false);
      return toCelValue(value, selfSchema, makeDuration, classes);
    },
    compile(expression, optionalOldSelf) {
      const key = `${optionalOldSelf}\u0000${expression}`;
      let result = cache.get(key);
      if (result) return result;
      known ??= knownFunctionNames();
      const env = envFor(optionalOldSelf, expression);
      try {
        const program = env.parse(expression) as unknown as Program & { check(): { valid: boolean; type?: unknown; error?: Error & { range?: { start: number; end: number } } } };
        const undeclared = [...undeclaredCalls(expression, program.ast), ...invalidLiterals(expression, program.ast)];
        if (undeclared.length > 0) result = { ok: false, issue: undeclared.join('\n') };
        else {
          const checked = program.check();
          result = checked.valid ? { ok: true, program, type: String(checked.type) } : { ok: false, issue: compileIssue(expression, checked.error as Error, false, known) };
        }
      } catch (err) {
        result = { ok: false, issue: compileIssue(expression, err as Error, true, known) };
      }
      cache.set(key, result);
      return result;
    },
  };
}

/** The rule context of a schema node (`isRoot` for the openAPIV3Schema itself). */
export function ruleContext(schema: Schema, isRoot: boolean): RuleContext {
  const cache = isRoot ? rootContexts : nodeContexts;
  let ctx = cache.get(schema);
  if (!ctx) {
    ctx = newContext(schema, isRoot);
    cache.set(schema, ctx);
  }
  return ctx;
}
