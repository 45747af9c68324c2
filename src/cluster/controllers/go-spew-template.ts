/**
 * go-spew's `%#v` print of a pod template (spew.ConfigState{Indent: " ", SortKeys, DisableMethods,
 * SpewKeys}, as hashutil.DeepHashObject uses it) from the template's JSON: the JSON is first turned into
 * the Go value the deployment controller holds (1.32 struct layouts from pod-template-layout.generated.ts,
 * empty lists and maps nil as after a protobuf decode, quantities parsed as resource.ParseQuantity does),
 * then printed with spew's rules: `(type)` before every value that is not a slice element or map entry,
 * struct fields as `Name:value` separated by spaces, strings raw, nil as `<nil>`, map keys sorted.
 */
import { podTemplateLayout } from './pod-template-layout.generated.js';

export type GoTypeLayout =
  | { k: 'struct'; fields: Array<[goName: string, jsonName: string, type: string, embedded: number]> }
  | { k: 'ptr' | 'slice'; elem: string }
  | { k: 'array'; elem: string; len: number }
  | { k: 'map'; key: string; elem: string }
  | { k: 'bool' | 'int' | 'uint' | 'float32' | 'float64' | 'string' | 'interface' };

/** A Go value: struct → object by Go field name, nil → null, map → entries, scalars as they are. */
type GoValue = null | string | number | bigint | boolean | GoValue[] | { [goName: string]: GoValue } | Map<string, GoValue>;

const layouts = podTemplateLayout as Record<string, GoTypeLayout>;

function layoutOf(type: string): GoTypeLayout {
  const layout = layouts[type];
  if (!layout) throw new Error(`go-spew: no layout for Go type ${type}`);
  return layout;
}

// ---- JSON → Go value ----

function zero(type: string): GoValue {
  const layout = layoutOf(type);
  switch (layout.k) {
    case 'struct':
      return Object.fromEntries(layout.fields.map(([name, , fieldType]) => [name, zero(fieldType)]));
    case 'array':
      return Array.from({ length: layout.len }, () => zero(layout.elem));
    case 'bool':
      return false;
    case 'string':
      return '';
    case 'int':
    case 'uint':
    case 'float32':
    case 'float64':
      return 0;
    default:
      return null;
  }
}

function toGo(type: string, json: unknown): GoValue {
  if (json === undefined || json === null) return zero(type);
  const special = specialTypes[type];
  if (special) return special(json);
  const layout = layoutOf(type);
  switch (layout.k) {
    case 'struct': {
      const source = json as Record<string, unknown>;
      // an embedded struct without a JSON name is inlined (`json:",inline"`, e.g. Probe's ProbeHandler)
      const fieldJson = (jsonName: string, embedded: number): unknown => (jsonName ? source[jsonName] : embedded ? source : undefined);
      return Object.fromEntries(layout.fields.map(([name, jsonName, fieldType, embedded]) => [name, toGo(fieldType, fieldJson(jsonName, embedded))]));
    }
    case 'ptr':
      return { '*': toGo(layout.elem, json) };
    case 'slice':
      // a protobuf decode leaves an empty list nil
      return Array.isArray(json) && json.length > 0 ? json.map((item) => toGo(layout.elem, item)) : null;
    case 'array':
      return (json as unknown[]).map((item) => toGo(layout.elem, item));
    case 'map': {
      const entries = Object.entries(json as Record<string, unknown>);
      return entries.length > 0 ? new Map(entries.map(([k, v]) => [k, toGo(layout.elem, v)])) : null;
    }
    case 'bool':
      return Boolean(json);
    case 'string':
      return String(json);
    case 'int':
    case 'uint':
    case 'float32':
    case 'float64':
      return Number(json);
    default:
      return null;
  }
}

const specialTypes: Record<string, (json: unknown) => GoValue> = {
  'intstr.IntOrString': (json) => (typeof json === 'string' ? { Type: 1, IntVal: 0, StrVal: json } : { Type: 0, IntVal: Number(json), StrVal: '' }),
  'resource.Quantity': (json) => quantityValue(String(json)),
  // templates carry no timestamps (creationTimestamp: null): the zero time
  'v1.Time': () => zero('v1.Time'),
};

// ---- resource.Quantity as ParseQuantity leaves it after the server canonicalised it ----

const decimalSuffixes: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const binarySuffixes: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

/** The exact value of a quantity text as numerator / 10^denominatorDigits, and its format. */
function parseQuantityText(text: string): { numerator: bigint; decimals: number; format: 'DecimalSI' | 'BinarySI' | 'DecimalExponent' } | undefined {
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?\d+)?$/.exec(text.trim());
  if (!m || (m[2] === '' && !m[3])) return undefined;
  const sign = m[1] === '-' ? -1n : 1n;
  const fraction = m[3] ?? '';
  let numerator = BigInt((m[2] || '0') + fraction) * sign;
  let decimals = fraction.length;
  const suffix = m[4] ?? '';
  if (suffix in binarySuffixes) return { numerator: numerator * 2n ** BigInt(binarySuffixes[suffix]!), decimals, format: 'BinarySI' };
  const exponent = suffix in decimalSuffixes ? decimalSuffixes[suffix]! : Number(suffix.slice(1));
  if (exponent >= 0) numerator *= 10n ** BigInt(exponent);
  else decimals -= exponent;
  return { numerator, decimals, format: /^[eE]/.test(suffix) ? 'DecimalExponent' : 'DecimalSI' };
}

/** The canonical text the API server stores (Quantity.String()) for the common cases. */
function canonicalQuantity(text: string): string {
  const parsed = parseQuantityText(text);
  if (!parsed) return text;
  let { numerator } = parsed;
  const { decimals } = parsed;
  const { format } = parsed;
  const negative = numerator < 0n;
  if (negative) numerator = -numerator;
  const sign = negative ? '-' : '';
  if (numerator === 0n) return '0';
  const isInteger = numerator % 10n ** BigInt(decimals) === 0n;
  if (format === 'BinarySI' && isInteger && numerator / 10n ** BigInt(decimals) >= 1024n) {
    let value = numerator / 10n ** BigInt(decimals);
    let power = 0;
    while (power < 6 && value % 1024n === 0n) {
      value /= 1024n;
      power++;
    }
    return `${sign}${value}${['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'][power]}`;
  }
  // DecimalSI: the largest multiple-of-3 exponent (at least -9) leaving an integer mantissa
  let exponent = -decimals;
  while (exponent % 3 !== 0) {
    numerator *= 10n;
    exponent--;
  }
  while (exponent < -9) {
    numerator = (numerator + 9n) / 10n; // rounds up, as the server does below nano
    exponent++;
    while (exponent % 3 !== 0) {
      numerator = (numerator + 9n) / 10n;
      exponent++;
    }
  }
  while (exponent < 18 && numerator % 1000n === 0n) {
    numerator /= 1000n;
    exponent += 3;
  }
  const suffix = Object.entries(decimalSuffixes).find(([, e]) => e === exponent)![0];
  return `${sign}${numerator}${suffix}`;
}

function quantityValue(text: string): GoValue {
  const canonical = canonicalQuantity(text);
  const parsed = parseQuantityText(canonical);
  const amount = (value: bigint, scale: number): GoValue => ({ value, scale });
  const noDec = { Dec: null };
  if (!parsed) return { i: amount(0n, 0), d: noDec, s: '', Format: 'DecimalSI' };
  const m = /^([+-]?)(\d*)(?:\.(\d*))?(.*)$/.exec(canonical)!;
  const digits = m[2]!;
  const value = BigInt(digits) * (m[1] === '-' ? -1n : 1n);
  if (parsed.format === 'BinarySI') {
    const exponent = binarySuffixes[m[4]!]!;
    // fast path keeps the text only when it is canonical in the sense of ParseQuantity (value&7 != 0)
    const keep = exponent % 10 === 0 && (BigInt.asUintN(64, BigInt(digits)) & 7n) !== 0n;
    return { i: amount(value * 2n ** BigInt(exponent), 0), d: noDec, s: keep ? canonical : '', Format: 'BinarySI' };
  }
  const scale = decimalSuffixes[m[4]!] ?? Number(m[4]!.slice(1));
  const keep = scale % 3 === 0 && !digits.endsWith('000') && digits[0] !== '0';
  return { i: amount(value, scale), d: noDec, s: keep ? canonical : '', Format: parsed.format };
}

// ---- printing ----

function print(type: string, value: GoValue, showType: boolean): string {
  const layout = layoutOf(type);
  if (layout.k === 'ptr') {
    const target = value === null ? undefined : (value as Record<string, GoValue>)['*'];
    if (!showType) return target === undefined ? '<nil>' : `<*>${print(layout.elem, target, false)}`;
    return target === undefined ? `(${type})<nil>` : `(${type})${print(layout.elem, target, false)}`;
  }
  const head = showType ? `(${type})` : '';
  switch (layout.k) {
    case 'struct': {
      const fields = value as Record<string, GoValue>;
      return `${head}{${layout.fields.map(([name, , fieldType]) => `${name}:${print(fieldType, fields[name] ?? zero(fieldType), true)}`).join(' ')}}`;
    }
    case 'slice':
    case 'array':
      if (value === null) return `${head}<nil>`;
      return `${head}[${(value as GoValue[]).map((item) => print(layout.elem, item, false)).join(' ')}]`;
    case 'map': {
      if (value === null) return `${head}<nil>`;
      const entries = [...(value as Map<string, GoValue>).entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `${head}map[${entries.map(([k, v]) => `${print(layout.key, k, false)}:${print(layout.elem, v, false)}`).join(' ')}]`;
    }
    case 'interface':
      return `${head}<nil>`;
    default:
      return `${head}${String(value)}`;
  }
}

/** What DeepHashObject writes into the hasher for this pod template. */
export function spewPodTemplate(template: unknown): string {
  return print('v1.PodTemplateSpec', toGo('v1.PodTemplateSpec', template ?? {}), true);
}
