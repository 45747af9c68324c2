/** Kubernetes' CEL regex library (`find`, `findAll`) and the translation of RE2 patterns to JavaScript. */
import type { Environment } from '@marcbachmann/cel-js';

const compiled = new Map<string, RegExp>();

/** A JavaScript RegExp for an RE2 pattern (leading inline flags such as `(?i)` become RegExp flags). */
export function re2ToRegExp(pattern: string, global = false): RegExp {
  const key = `${global ? 'g' : ''}/${pattern}`;
  let re = compiled.get(key);
  if (re) return re;
  const unsupported = /\(\?<?[=!]|\\[1-9]/.exec(pattern);
  if (unsupported) throw new Error(`error parsing regexp: invalid or unsupported Perl syntax: \`${unsupported[0]}\``);
  let flags = global ? 'gu' : 'u';
  let body = pattern;
  const inline = /^\(\?([imsU]+)\)/.exec(body);
  if (inline) {
    body = body.slice(inline[0].length);
    for (const f of inline[1] ?? '') if (f !== 'U' && !flags.includes(f)) flags += f;
  }
  try {
    re = new RegExp(body.replace(/\\z/g, '$').replace(/\\A/g, '^'), flags);
  } catch (err) {
    throw new Error(`error parsing regexp: ${(err as Error).message.replace(/^Invalid regular expression: /, '')}`, { cause: err });
  }
  compiled.set(key, re);
  return re;
}

/** Registers find and findAll. */
export function registerRegexLibrary(env: Environment): void {
  env
    .registerFunction('string.find(string): string', (s: string, p: string) => re2ToRegExp(p).exec(s)?.[0] ?? '')
    .registerFunction('string.findAll(string): list<string>', (s: string, p: string) => [...s.matchAll(re2ToRegExp(p, true))].map((m) => m[0]))
    .registerFunction('string.findAll(string, int): list<string>', (s: string, p: string, n: bigint) => {
      if (n === 0n) return [];
      const all = [...s.matchAll(re2ToRegExp(p, true))].map((m) => m[0]);
      return n < 0n ? all : all.slice(0, Number(n));
    });
}
