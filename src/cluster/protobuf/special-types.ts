/**
 * The apimachinery types whose JSON is not their protobuf shape: Time, MicroTime, Duration, Quantity,
 * IntOrString, RawExtension and FieldsV1 — each rendered from its decoded proto fields as its Go
 * MarshalJSON writes it.
 */
import { rfc3339 } from '../registry/system-metadata.js';
import { ProtobufDecodeError } from './wire-format.js';
import { formatGoDurationNanos } from '../../apimachinery/go-duration.js';

const meta = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** Proto fields of a special type by number: varints as bigint, length-delimited fields as Buffer. */
export type SpecialFields = Map<number, bigint | Buffer>;

const int = (f: SpecialFields, n: number): bigint => {
  const v = f.get(n);
  return typeof v === 'bigint' ? BigInt.asIntN(64, v) : 0n;
};
const bytes = (f: SpecialFields, n: number): Buffer | undefined => {
  const v = f.get(n);
  return Buffer.isBuffer(v) ? v : undefined;
};

/** metav1.Time: whole seconds (protobuf nanos are dropped on decode), null when zero (empty message). */
function time(f: SpecialFields, empty: boolean): string | null {
  return empty ? null : rfc3339(Number(int(f, 1)) * 1000);
}

/** metav1.MicroTime: microsecond precision, `2006-01-02T15:04:05.000000Z`. */
function microTime(f: SpecialFields, empty: boolean): string | null {
  if (empty) return null;
  const micros = String(Math.floor(Number(int(f, 2)) / 1000)).padStart(6, '0');
  return rfc3339(Number(int(f, 1)) * 1000).replace(/Z$/, `.${micros}Z`);
}

/** RawExtension / FieldsV1: the embedded bytes are JSON (null when absent). */
function embeddedJson(f: SpecialFields, typeName: string): unknown {
  const raw = bytes(f, 1);
  if (raw === undefined || raw.length === 0) return null;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new ProtobufDecodeError(`json: error calling MarshalJSON for type *${typeName}: ${(err as Error).message}`);
  }
}

function intOrString(f: SpecialFields): number | string {
  return int(f, 1) === 1n ? (bytes(f, 3)?.toString('utf8') ?? '') : Number(BigInt.asIntN(32, int(f, 2)));
}

/** Renderers by full message name; `empty` is true for a zero-length message. */
export const specialTypes: Record<string, (fields: SpecialFields, empty: boolean) => unknown> = {
  [`${meta}.Time`]: time,
  [`${meta}.MicroTime`]: microTime,
  [`${meta}.Duration`]: (f) => formatGoDurationNanos(int(f, 1)),
  [`${meta}.FieldsV1`]: (f) => embeddedJson(f, 'v1.FieldsV1'),
  'k8s.io.apimachinery.pkg.runtime.RawExtension': (f) => embeddedJson(f, 'runtime.RawExtension'),
  'k8s.io.apimachinery.pkg.api.resource.Quantity': (f) => bytes(f, 1)?.toString('utf8') || '0',
  'k8s.io.apimachinery.pkg.util.intstr.IntOrString': intOrString,
};
