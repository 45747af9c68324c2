/** Kubernetes' CEL quantity library: resource quantities ("1.5Gi", "100m") with exact comparison and arithmetic. */
import type { Environment } from '@marcbachmann/cel-js';

const formatMessage = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const decimalSuffixes: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Record<string, number> = { Ki: 1, Mi: 2, Gi: 3, Ti: 4, Pi: 5, Ei: 6 };
const int64Max = 9223372036854775807n;
const int64Min = -9223372036854775808n;

/** An exact quantity: `num × 10^exp`. */
export class Quantity {
  constructor(
    readonly num: bigint,
    readonly exp: number,
    readonly text: string,
  ) {}

  /** Both quantities over a common power of ten. */
  private aligned(other: Quantity): [bigint, bigint, number] {
    const exp = Math.min(this.exp, other.exp);
    return [this.num * 10n ** BigInt(this.exp - exp), other.num * 10n ** BigInt(other.exp - exp), exp];
  }

  compare(other: Quantity): number {
    const [a, b] = this.aligned(other);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  plus(other: Quantity, sign: 1n | -1n): Quantity {
    const [a, b, exp] = this.aligned(other);
    const sum = a + sign * b;
    return new Quantity(sum, exp, `${sum}e${exp}`);
  }

  isInteger(): boolean {
    return this.exp >= 0 || this.num % 10n ** BigInt(-this.exp) === 0n;
  }

  asInteger(): bigint {
    if (!this.isInteger()) throw new Error('cannot convert value to integer');
    const v = this.exp >= 0 ? this.num * 10n ** BigInt(this.exp) : this.num / 10n ** BigInt(-this.exp);
    if (v > int64Max || v < int64Min) throw new Error('cannot convert value to integer');
    return v;
  }

  equals(other: unknown): boolean {
    return other instanceof Quantity && this.compare(other) === 0;
  }
}

/** Parses a quantity as resource.ParseQuantity does; throws its messages. */
export function parseQuantity(s: string): Quantity {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?([eEinumkKMGTP]*[-+]?[0-9]*)$/.exec(s);
  if (!m || `${m[2]}${m[3] ?? ''}` === '') throw new Error(formatMessage);
  const [, sign, whole = '', frac = '', suffix = ''] = m;
  let num = BigInt(`${whole}${frac}` || '0');
  let exp = -frac.length;
  if (suffix in binarySuffixes) num *= 1024n ** BigInt(binarySuffixes[suffix] as number);
  else if (suffix in decimalSuffixes) exp += decimalSuffixes[suffix] as number;
  else if (/^[eE][-+]?[0-9]+$/.test(suffix)) exp += Number(suffix.slice(1));
  else throw new Error("unable to parse quantity's suffix");
  if (sign === '-') num = -num;
  return new Quantity(num, exp, s);
}

const asQuantity = (v: Quantity | bigint): Quantity => (typeof v === 'bigint' ? new Quantity(v, 0, `${v}`) : v);

/** Registers quantity, isQuantity and the kubernetes.Quantity methods. */
export function registerQuantityLibrary(env: Environment): void {
  env
    .registerType('kubernetes.Quantity', Quantity)
    .registerFunction('quantity(string): kubernetes.Quantity', parseQuantity)
    .registerFunction('isQuantity(string): bool', (s: string) => {
      try {
        parseQuantity(s);
        return true;
      } catch {
        return false;
      }
    })
    .registerFunction('kubernetes.Quantity.sign(): int', (q: Quantity) => BigInt(q.num > 0n ? 1 : q.num < 0n ? -1 : 0))
    .registerFunction('kubernetes.Quantity.isInteger(): bool', (q: Quantity) => q.isInteger())
    .registerFunction('kubernetes.Quantity.asInteger(): int', (q: Quantity) => q.asInteger())
    .registerFunction('kubernetes.Quantity.asApproximateFloat(): double', (q: Quantity) => Number(q.num) * 10 ** q.exp)
    .registerFunction('kubernetes.Quantity.compareTo(kubernetes.Quantity): int', (a: Quantity, b: Quantity) => BigInt(a.compare(b)))
    .registerFunction('kubernetes.Quantity.isLessThan(kubernetes.Quantity): bool', (a: Quantity, b: Quantity) => a.compare(b) < 0)
    .registerFunction('kubernetes.Quantity.isGreaterThan(kubernetes.Quantity): bool', (a: Quantity, b: Quantity) => a.compare(b) > 0)
    .registerFunction('kubernetes.Quantity.add(kubernetes.Quantity): kubernetes.Quantity', (a: Quantity, b: Quantity) => a.plus(asQuantity(b), 1n))
    .registerFunction('kubernetes.Quantity.add(int): kubernetes.Quantity', (a: Quantity, b: bigint) => a.plus(asQuantity(b), 1n))
    .registerFunction('kubernetes.Quantity.sub(kubernetes.Quantity): kubernetes.Quantity', (a: Quantity, b: Quantity) => a.plus(asQuantity(b), -1n))
    .registerFunction('kubernetes.Quantity.sub(int): kubernetes.Quantity', (a: Quantity, b: bigint) => a.plus(asQuantity(b), -1n))
    .registerOperator('kubernetes.Quantity == kubernetes.Quantity', (a: Quantity, b: Quantity) => a.compare(b) === 0);
}
