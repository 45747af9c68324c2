/**
 * The CEL environment of CRD validation rules in a 1.32 API server (compatibility version 1.31): cel-js's
 * standard library plus the Kubernetes libraries enabled for newly written CRD rules — strings (v2),
 * lists, sets, regex, URLs, quantity, IP, CIDR, format — with optional types and homogeneous literals.
 */
import { Environment, Optional } from '@marcbachmann/cel-js';
import { registerFormatLibrary } from './format-library.js';
import { registerIpCidrLibrary } from './ip-cidr-library.js';
import { registerListsLibrary } from './lists-library.js';
import { registerQuantityLibrary } from './quantity-library.js';
import { registerRegexLibrary } from './regex-library.js';
import { registerStringsLibrary } from './strings-library.js';
import { registerUrlLibrary } from './url-library.js';

let base: Environment | undefined;

function isZero(v: unknown): boolean {
  if (v === null || v === false || v === '' || v === 0n || v === 0) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof Map) return v.size === 0;
  if (v instanceof Uint8Array) return v.length === 0;
  return typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype && Object.keys(v).length === 0;
}

/** A duration as cel-go prints it: seconds with up to nine fractional digits and an "s". */
function durationText(d: { seconds: bigint; nanos: number }): string {
  const negative = d.seconds < 0n || d.nanos < 0;
  const abs = (negative ? -1n : 1n) * d.seconds;
  const nanos = Math.abs(d.nanos);
  const fraction = nanos === 0 ? '' : `.${String(nanos).padStart(9, '0').replace(/0+$/, '')}`;
  return `${negative ? '-' : ''}${abs}${fraction}s`;
}

/** The shared base environment (built once; callers clone it to declare `self` and its types). */
export function baseEnvironment(): Environment {
  if (base) return base;
  const env = new Environment({ enableOptionalTypes: true, homogeneousAggregateLiterals: true, unlistedVariablesAreDyn: false });
  registerStringsLibrary(env);
  registerListsLibrary(env);
  registerRegexLibrary(env);
  registerUrlLibrary(env);
  registerQuantityLibrary(env);
  registerIpCidrLibrary(env);
  registerFormatLibrary(env);
  env.registerFunction('OptionalNamespace.ofNonZeroValue(A): optional<A>', (_ns: unknown, v: unknown) => (isZero(v) ? Optional.none() : Optional.of(v)));
  env.registerFunction('string(google.protobuf.Duration): string', durationText);
  env.registerFunction('string(google.protobuf.Timestamp): string', (t: Date) => t.toISOString().replace(/\.000Z$/, 'Z'));
  base = env;
  return env;
}

/** Names of every function a rule may call, for telling "unknown function" from "wrong arguments". */
export function knownFunctionNames(): Set<string> {
  const names = new Set<string>();
  for (const f of baseEnvironment().getDefinitions().functions as Array<{ name?: string; signature?: string }>) {
    const sig = f.signature ?? f.name ?? '';
    const m = /([A-Za-z_][A-Za-z0-9_]*)\(/.exec(sig);
    if (m?.[1]) names.add(m[1]);
  }
  return names;
}

