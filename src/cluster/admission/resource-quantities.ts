/**
 * Resource quantities for LimitRanger and ResourceQuota: parsing (exact, as resource.ParseQuantity),
 * sums, comparison and the canonical text Kubernetes prints (`1500m`, `2Gi`, `2k`), and resource lists
 * (`{cpu: '1', memory: '1Gi'}`) added up and printed as the quota messages do (`pods=1,requests.cpu=500m`).
 */
import { Quantity, parseQuantity } from '../crd/cel/quantity-library.js';

export { Quantity };

export type ResourceList = Record<string, string>;

const zero = new Quantity(0n, 0, '0');
const binaryUnits: Array<[string, bigint]> = [['Ei', 1024n ** 6n], ['Pi', 1024n ** 5n], ['Ti', 1024n ** 4n], ['Gi', 1024n ** 3n], ['Mi', 1024n ** 2n], ['Ki', 1024n]];
const decimalUnits: Array<[string, number]> = [['E', 18], ['P', 15], ['T', 12], ['G', 9], ['M', 6], ['k', 3], ['', 0], ['m', -3], ['u', -6], ['n', -9]];

/** A quantity from its JSON form (a string or a number); undefined when it does not parse. */
export function quantityOf(value: unknown): Quantity | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? parseQuantity(String(value)) : undefined;
  if (typeof value !== 'string') return undefined;
  try {
    return parseQuantity(value);
  } catch {
    return undefined;
  }
}

export function addQuantities(a: Quantity, b: Quantity): Quantity {
  const sum = a.plus(b, 1n);
  return withFormatOf(sum, a, b);
}

export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  return withFormatOf(a.plus(b, -1n), a, b);
}

/** Carries the binary format over when either side was binary (as Quantity.Add keeps the receiver's format). */
function withFormatOf(q: Quantity, a: Quantity, b: Quantity): Quantity {
  const binary = isBinary(a) || (isZeroQuantity(a) && isBinary(b));
  return new Quantity(q.num, q.exp, binary ? 'Ki' : '');
}

const isBinary = (q: Quantity): boolean => /[KMGTPE]i$/.test(q.text);

export function isZeroQuantity(q: Quantity): boolean {
  return q.num === 0n;
}

export function maxQuantity(a: Quantity, b: Quantity): Quantity {
  return a.compare(b) >= 0 ? a : b;
}

/** The integer value of `q × 10^shift`, or undefined when it is not an integer. */
function scaled(q: Quantity, shift: number): bigint | undefined {
  const exp = q.exp - shift;
  if (exp >= 0) return q.num * 10n ** BigInt(exp);
  const div = 10n ** BigInt(-exp);
  return q.num % div === 0n ? q.num / div : undefined;
}

/** The canonical text of a quantity (Quantity.String()): binary suffixes for binary quantities, else decimal. */
export function formatQuantity(q: Quantity): string {
  if (q.num === 0n) return '0';
  if (isBinary(q)) {
    const whole = scaled(q, 0);
    if (whole !== undefined) {
      const abs = whole < 0n ? -whole : whole;
      if (abs < 1024n) return `${whole}`;
      for (const [suffix, unit] of binaryUnits) if (whole % unit === 0n) return `${whole / unit}${suffix}`;
    }
  }
  for (const [suffix, shift] of decimalUnits) {
    const v = scaled(q, shift);
    if (v !== undefined) return `${v}${suffix}`;
  }
  // finer than nano: round up to nano, as Kubernetes does
  const nanos = q.num * 10n ** BigInt(q.exp + 9 >= 0 ? q.exp + 9 : 0);
  return `${nanos}n`;
}

/** The canonical text of a JSON quantity (unchanged when it does not parse). */
export function canonicalQuantity(value: unknown): string {
  const q = quantityOf(value);
  return q ? formatQuantity(q) : String(value);
}

export function quantityFrom(list: ResourceList | undefined, key: string): Quantity | undefined {
  const v = list?.[key];
  return v === undefined ? undefined : quantityOf(v);
}

/** Sum of two resource lists, key by key. */
export function addLists(a: Record<string, Quantity>, b: Record<string, Quantity>): Record<string, Quantity> {
  const out: Record<string, Quantity> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = out[k] ? addQuantities(out[k], v) : v;
  return out;
}

export function zeroQuantity(): Quantity {
  return zero;
}

/** `a=1,b=2` with keys sorted, as the quota messages print resource lists. */
export function printResourceList(list: Record<string, Quantity>): string {
  return Object.keys(list)
    .sort()
    .map((k) => `${k}=${formatQuantity(list[k]!)}`)
    .join(',');
}
