/** Kubernetes' CEL list library (isSorted, sum, min, max, indexOf, lastIndexOf) and cel-go's sets extension. */
import type { Environment } from '@marcbachmann/cel-js';
import { celCompare, celEquals } from './values.js';

class SetsNamespace {}

function sum(list: unknown[]): unknown {
  if (list.length === 0) return 0n;
  let total: unknown = list[0];
  for (const v of list.slice(1)) {
    if (typeof total === 'bigint' && typeof v === 'bigint') {
      total = total + v;
      if ((total as bigint) > 9223372036854775807n || (total as bigint) < -9223372036854775808n) throw new Error('integer overflow');
    } else if (typeof total === 'number' && typeof v === 'number') total = total + v;
    else throw new Error('no such overload');
  }
  return total;
}

function extreme(name: 'min' | 'max', list: unknown[]): unknown {
  if (list.length === 0) throw new Error(`${name} called on empty list`);
  return list.reduce((best, v) => {
    const c = celCompare(v, best);
    return (name === 'min' ? c < 0 : c > 0) ? v : best;
  });
}

/** Registers the list functions and the `sets` namespace. */
export function registerListsLibrary(env: Environment): void {
  env
    .registerFunction('list<A>.isSorted(): bool', (l: unknown[]) => l.every((v, i) => i === 0 || celCompare(l[i - 1], v) <= 0))
    .registerFunction('list<A>.sum(): A', sum)
    .registerFunction('list<A>.min(): A', (l: unknown[]) => extreme('min', l))
    .registerFunction('list<A>.max(): A', (l: unknown[]) => extreme('max', l))
    .registerFunction('list<A>.indexOf(A): int', (l: unknown[], x: unknown) => BigInt(l.findIndex((v) => celEquals(v, x))))
    .registerFunction('list<A>.lastIndexOf(A): int', (l: unknown[], x: unknown) => {
      for (let i = l.length - 1; i >= 0; i--) if (celEquals(l[i], x)) return BigInt(i);
      return -1n;
    })
    .registerType('SetsNamespace', SetsNamespace)
    .registerConstant('sets', 'SetsNamespace', new SetsNamespace())
    .registerFunction('SetsNamespace.contains(list<A>, list<A>): bool', (_ns: unknown, a: unknown[], b: unknown[]) => b.every((x) => a.some((y) => celEquals(x, y))))
    .registerFunction('SetsNamespace.equivalent(list<A>, list<A>): bool', (_ns: unknown, a: unknown[], b: unknown[]) =>
      b.every((x) => a.some((y) => celEquals(x, y))) && a.every((x) => b.some((y) => celEquals(x, y))),
    )
    .registerFunction('SetsNamespace.intersects(list<A>, list<A>): bool', (_ns: unknown, a: unknown[], b: unknown[]) => a.some((x) => b.some((y) => celEquals(x, y))));
}
