/**
 * CEL for ValidatingAdmissionPolicy: the cluster's CEL environment (src/cluster/crd/cel) with the
 * admission variables — `object`, `oldObject`, `request`, `params`, `namespaceObject`, `variables` —
 * declared as dynamic values, and `authorizer` (authorizer-library.ts); compile errors worded as
 * cel-go's, programs cached per expression.
 */
import { evaluate } from '@marcbachmann/cel-js';
import type { Environment } from '@marcbachmann/cel-js';
import { baseEnvironment, knownFunctionNames } from '../crd/cel/environment.js';
import { compileIssue, invalidLiterals, undeclaredCalls } from '../crd/cel/compile-errors.js';
import { toCelValue } from '../crd/cel/declared-types.js';
import { registerAuthorizerLibrary } from './authorizer-library.js';

export const admissionVariables = ['object', 'oldObject', 'request', 'params', 'namespaceObject', 'variables'];

export interface AdmissionProgram {
  (context: Record<string, unknown>): unknown;
}

export type AdmissionCompileResult = { ok: true; program: AdmissionProgram } | { ok: false; issue: string };

let env: Environment | undefined;
let known: Set<string> | undefined;
const cache = new Map<string, AdmissionCompileResult>();
let durationCtor: (new (seconds: bigint, nanos: number) => unknown) | undefined;

function environment(): Environment {
  if (!env) {
    env = baseEnvironment().clone();
    for (const v of admissionVariables) env.registerVariable(v, 'dyn');
    registerAuthorizerLibrary(env);
  }
  return env;
}

export function compileAdmissionExpression(expression: string): AdmissionCompileResult {
  let result = cache.get(expression);
  if (result) return result;
  known ??= knownFunctionNames();
  try {
    const program = environment().parse(expression) as unknown as AdmissionProgram & { ast: unknown; check(): { valid: boolean; error?: Error } };
    const undeclared = [...undeclaredCalls(expression, program.ast), ...invalidLiterals(expression, program.ast)];
    if (undeclared.length) result = { ok: false, issue: undeclared.join('\n') };
    else {
      const checked = program.check();
      result = checked.valid ? { ok: true, program } : { ok: false, issue: compileIssue(expression, checked.error as never, false, known) };
    }
  } catch (err) {
    result = { ok: false, issue: compileIssue(expression, err as never, true, known) };
  }
  if (cache.size > 2000) cache.clear();
  cache.set(expression, result);
  return result;
}

const makeDuration = (seconds: bigint, nanos: number): unknown => {
  durationCtor ??= (evaluate('duration("0s")') as object).constructor as new (s: bigint, n: number) => unknown;
  return new durationCtor(seconds, nanos);
};

/** A JSON value as the admission variables carry it (integers as CEL ints). */
export function toAdmissionValue(value: unknown): unknown {
  if (value === undefined) return null;
  return toCelValue(value, undefined, makeDuration, new Map());
}

/** cel-go's wording of a runtime error (first line). */
export function evaluationError(err: unknown): string {
  const text = ((err as Error)?.message ?? String(err)).split('\n')[0] ?? '';
  return text.replace(/^No such key: /, 'no such key: ');
}
