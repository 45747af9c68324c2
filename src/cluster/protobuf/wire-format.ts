/**
 * A minimal protobuf wire-format reader (varints, fixed and length-delimited fields) and a decoder
 * that maps fields to JSON names by a per-message table — enough for the request bodies kubectl
 * sends as `application/vnd.kubernetes.protobuf`.
 */

export type FieldType = 'string' | 'bytes' | 'bool' | 'int' | 'message' | 'stringMap' | 'bytesMap';

export interface FieldSpec {
  name: string;
  type: FieldType;
  repeated?: boolean;
  message?: MessageSpec;
}

export type MessageSpec = Record<number, FieldSpec>;

interface RawField {
  field: number;
  wire: number;
  varint?: bigint;
  bytes?: Buffer;
}

export class ProtobufDecodeError extends Error {}

function readVarint(buf: Buffer, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    if (pos >= buf.length) throw new ProtobufDecodeError('truncated varint');
    const b = buf[pos++]!;
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [result, pos];
    shift += 7n;
    if (shift > 70n) throw new ProtobufDecodeError('varint too long');
  }
}

export function readFields(buf: Buffer): RawField[] {
  const fields: RawField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [key, next] = readVarint(buf, pos);
    pos = next;
    const field = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [v, p] = readVarint(buf, pos);
      pos = p;
      fields.push({ field, wire, varint: v });
    } else if (wire === 2) {
      const [len, p] = readVarint(buf, pos);
      const end = p + Number(len);
      if (end > buf.length) throw new ProtobufDecodeError('truncated length-delimited field');
      fields.push({ field, wire, bytes: buf.subarray(p, end) });
      pos = end;
    } else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else throw new ProtobufDecodeError(`unsupported wire type ${wire}`);
  }
  return fields;
}

function mapEntry(bytes: Buffer): [string, Buffer] {
  let key = '';
  let value: Buffer = Buffer.alloc(0);
  for (const f of readFields(bytes)) {
    if (f.field === 1 && f.bytes) key = f.bytes.toString('utf8');
    if (f.field === 2 && f.bytes) value = f.bytes;
  }
  return [key, value];
}

export function decodeMessage(buf: Buffer, spec: MessageSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of readFields(buf)) {
    const s = spec[f.field];
    if (!s) continue;
    let value: unknown;
    switch (s.type) {
      case 'string':
        value = f.bytes?.toString('utf8') ?? '';
        // Go's omitempty: an empty string is not written to JSON
        if (value === '' && !s.repeated) continue;
        break;
      case 'bytes':
        value = (f.bytes ?? Buffer.alloc(0)).toString('base64');
        break;
      case 'bool':
        value = f.varint !== undefined && f.varint !== 0n;
        break;
      case 'int':
        value = f.varint !== undefined ? Number(BigInt.asIntN(64, f.varint)) : 0;
        break;
      case 'message':
        value = decodeMessage(f.bytes ?? Buffer.alloc(0), s.message ?? {});
        break;
      case 'stringMap':
      case 'bytesMap': {
        const [k, v] = mapEntry(f.bytes ?? Buffer.alloc(0));
        const map = (out[s.name] as Record<string, string> | undefined) ?? {};
        map[k] = s.type === 'stringMap' ? v.toString('utf8') : v.toString('base64');
        out[s.name] = map;
        continue;
      }
    }
    if (s.repeated) ((out[s.name] as unknown[] | undefined) ?? (out[s.name] = [])).push?.(value);
    else out[s.name] = value;
  }
  return out;
}
