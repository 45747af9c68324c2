/**
 * Decodes a protobuf-encoded Kubernetes API message into the JSON its Go type marshals to, driven by the
 * generated descriptor tables: JSON names, inline embedded structs, omitempty, pointers (unset → absent or
 * null), maps, named slice types and the apimachinery special types.
 */
import {
  type DescriptorField,
  FIELD_INLINE,
  FIELD_OMITEMPTY,
  FIELD_POINTER,
  FIELD_REPEATED,
  kubernetesMessageSources,
  listMessages,
  messageFields,
} from './kubernetes-descriptors.generated.js';
import { type SpecialFields, specialTypes } from './special-types.js';
import { type RawField, ProtobufDecodeError, WIRE_BYTES, WIRE_FIXED32, WIRE_FIXED64, WIRE_VARINT, readFields, readVarint } from './wire-format.js';

type Json = unknown;
const listTypes = new Set(listMessages);
const shortName = (messageName: string) => messageName.slice(messageName.lastIndexOf('.') + 1);

/** True when the full message name is a Kubernetes API message this decoder knows. */
export function isKnownMessage(messageName: string): boolean {
  return messageName in kubernetesMessageSources;
}

const wireOfScalar: Record<string, number> = { double: WIRE_FIXED64, float: WIRE_FIXED32, string: WIRE_BYTES, bytes: WIRE_BYTES };

function expectedWire(type: string): number {
  return wireOfScalar[type] ?? (type in kubernetesMessageSources ? WIRE_BYTES : WIRE_VARINT);
}

/** A scalar field's JSON value from one wire occurrence. */
function scalar(type: string, f: RawField): Json {
  switch (type) {
    case 'string':
      return f.bytes!.toString('utf8');
    case 'bytes':
      return f.bytes!.toString('base64');
    case 'bool':
      return f.varint !== 0n;
    case 'double':
      return f.bytes!.readDoubleLE(0);
    case 'float':
      return f.bytes!.readFloatLE(0);
    case 'int32':
      return Number(BigInt.asIntN(32, f.varint!));
    case 'uint32':
      return Number(BigInt.asUintN(32, f.varint!));
    case 'sint32':
    case 'sint64':
      return Number((f.varint! >> 1n) ^ -(f.varint! & 1n));
    case 'uint64':
      return Number(f.varint!);
    default:
      return Number(BigInt.asIntN(64, f.varint!));
  }
}

/** Packed repeated scalars (one length-delimited run of varints or fixed words). */
function unpack(type: string, f: RawField): RawField[] {
  const out: RawField[] = [];
  const size = expectedWire(type) === WIRE_FIXED64 ? 8 : 4;
  for (let pos = 0; pos < f.bytes!.length; ) {
    if (expectedWire(type) === WIRE_VARINT) {
      const [varint, next] = readVarint(f.bytes!, pos);
      out.push({ number: f.number, wire: WIRE_VARINT, varint });
      pos = next;
    } else {
      if (pos + size > f.bytes!.length) throw new ProtobufDecodeError('unexpected EOF');
      out.push({ number: f.number, wire: expectedWire(type), bytes: f.bytes!.subarray(pos, pos + size) });
      pos += size;
    }
  }
  return out;
}

function zeroOf(type: string): Json {
  if (type === 'string' || type === 'bytes') return '';
  return type === 'bool' ? false : 0;
}

function isEmptyJson(value: Json): boolean {
  return value === '' || value === 0 || value === false || value === null || (Array.isArray(value) && value.length === 0);
}

/** One value of `type` (a message decodes recursively; a scalar reads the wire value). */
function valueOf(type: string, f: RawField | undefined): Json {
  if (type in kubernetesMessageSources) return decodeMessageJson(f?.bytes ?? Buffer.alloc(0), type);
  return f === undefined ? zeroOf(type) : scalar(type, f);
}

function mapEntry(valueType: string, f: RawField): [string, Json] {
  let key = '';
  let value: RawField | undefined;
  for (const e of readFields(f.bytes!, 'MapEntry')) {
    const wire = e.number === 1 ? WIRE_BYTES : expectedWire(valueType);
    if (e.number <= 2 && e.wire !== wire) throw new ProtobufDecodeError(`proto: wrong wireType = ${e.wire} for field ${e.number === 1 ? 'Key' : 'Value'}`);
    if (e.number === 1) key = e.bytes!.toString('utf8');
    if (e.number === 2) value = e;
  }
  return [key, valueOf(valueType, value)];
}

/** The JSON of one field (undefined: left out, as Go's encoder leaves it out). */
function fieldJson(field: DescriptorField, occurrences: RawField[]): Json | undefined {
  const [, , type, flags, mapValueType] = field;
  const omitempty = (flags & FIELD_OMITEMPTY) !== 0;
  const unset = omitempty ? undefined : null;
  if (type === 'map') {
    if (occurrences.length === 0) return unset;
    return Object.fromEntries(occurrences.map((f) => mapEntry(mapValueType!, f)));
  }
  if (flags & FIELD_REPEATED) {
    const values = occurrences.flatMap((f) => (f.wire === WIRE_BYTES && expectedWire(type) !== WIRE_BYTES ? unpack(type, f) : [f]));
    return values.length === 0 ? unset : values.map((f) => valueOf(type, f));
  }
  const last = occurrences[occurrences.length - 1];
  // a nil pointer, or a nil named slice (Verbs): absent on the wire
  if ((flags & FIELD_POINTER || listTypes.has(type)) && last === undefined) return unset;
  const value = valueOf(type, last);
  // Go's omitempty never leaves out a struct, and keeps a set pointer whatever it points to
  const struct = type in kubernetesMessageSources && !listTypes.has(type);
  if (omitempty && !(flags & FIELD_POINTER) && !struct && isEmptyJson(value)) return undefined;
  return value;
}

function checkWire(field: DescriptorField, f: RawField): void {
  const [, jsonName, type, flags, , goName] = field;
  const wire = type === 'map' ? WIRE_BYTES : expectedWire(type);
  const packed = flags & FIELD_REPEATED && f.wire === WIRE_BYTES;
  if (f.wire !== wire && !packed) {
    throw new ProtobufDecodeError(`proto: wrong wireType = ${f.wire} for field ${goName || jsonName[0]!.toUpperCase() + jsonName.slice(1)}`);
  }
}

const tables = new Map<string, Map<number, DescriptorField>>();

function fieldsByNumber(messageName: string, table: DescriptorField[]): Map<number, DescriptorField> {
  let byNumber = tables.get(messageName);
  if (!byNumber) tables.set(messageName, (byNumber = new Map(table.map((d) => [d[0], d]))));
  return byNumber;
}

/** Decodes one message of the named type (`k8s.io.api.core.v1.ConfigMap`) into its JSON value. */
export function decodeMessageJson(buf: Buffer, messageName: string): Json {
  const table = messageFields(messageName);
  if (!table) throw new ProtobufDecodeError(`no protobuf message ${messageName}`);
  const byNumber = new Map<number, RawField[]>();
  for (const f of readFields(buf, shortName(messageName))) {
    const field = fieldsByNumber(messageName, table).get(f.number);
    if (!field) continue; // unknown fields are skipped, as gogo's skipGenerated does
    checkWire(field, f);
    (byNumber.get(f.number) ?? byNumber.set(f.number, []).get(f.number)!).push(f);
  }
  const special = specialTypes[messageName];
  if (special) {
    const fields: SpecialFields = new Map([...byNumber].map(([n, fs]) => [n, fs[fs.length - 1]!.varint ?? fs[fs.length - 1]!.bytes!]));
    return special(fields, buf.length === 0);
  }
  if (listTypes.has(messageName)) return (byNumber.get(1) ?? []).map((f) => f.bytes!.toString('utf8'));
  const out: Record<string, Json> = {};
  for (const field of table) {
    const value = fieldJson(field, byNumber.get(field[0]) ?? []);
    if (value === undefined) continue;
    if (field[3] & FIELD_INLINE && value !== null && typeof value === 'object') Object.assign(out, value);
    else out[field[1]] = value;
  }
  return out;
}
