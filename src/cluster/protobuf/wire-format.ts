/**
 * The protobuf wire format, read: a message's fields as varints, fixed 32/64-bit words and length-delimited
 * bytes, with the errors gogo-protobuf's generated Unmarshal gives for a malformed message.
 */

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_FIXED32 = 5;

export interface RawField {
  number: number;
  wire: number;
  /** The varint of wire type 0. */
  varint?: bigint;
  /** The payload of wire types 1, 2 and 5. */
  bytes?: Buffer;
}

/** A body that does not decode; the message is the one the real API server gives. */
export class ProtobufDecodeError extends Error {}

const unexpectedEOF = () => new ProtobufDecodeError('unexpected EOF');

export function readVarint(buf: Buffer, pos: number): [bigint, number] {
  let value = 0n;
  for (let shift = 0n; ; shift += 7n) {
    if (shift >= 64n) throw new ProtobufDecodeError('proto: integer overflow');
    if (pos >= buf.length) throw unexpectedEOF();
    const b = buf[pos++]!;
    value |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [BigInt.asUintN(64, value), pos];
  }
}

function take(buf: Buffer, start: number, length: number): Buffer {
  if (start + length > buf.length) throw unexpectedEOF();
  return buf.subarray(start, start + length);
}

/** The fields of one message, in wire order. `typeName` is the Go type named in errors (`ConfigMap`). */
export function readFields(buf: Buffer, typeName: string): RawField[] {
  const fields: RawField[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [key, afterKey] = readVarint(buf, pos);
    const number = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 4) throw new ProtobufDecodeError(`proto: ${typeName}: wiretype end group for non-group`);
    if (number <= 0) throw new ProtobufDecodeError(`proto: ${typeName}: illegal tag ${number} (wire type ${wire})`);
    if (wire === WIRE_VARINT) {
      const [varint, next] = readVarint(buf, afterKey);
      fields.push({ number, wire, varint });
      pos = next;
    } else if (wire === WIRE_BYTES) {
      const [length, start] = readVarint(buf, afterKey);
      if (BigInt.asIntN(64, length) < 0n) throw new ProtobufDecodeError('proto: negative length found during unmarshaling');
      fields.push({ number, wire, bytes: take(buf, start, Number(length)) });
      pos = start + Number(length);
    } else if (wire === WIRE_FIXED64 || wire === WIRE_FIXED32) {
      const size = wire === WIRE_FIXED64 ? 8 : 4;
      fields.push({ number, wire, bytes: take(buf, afterKey, size) });
      pos = afterKey + size;
    } else throw new ProtobufDecodeError(`proto: illegal wireType ${wire}`);
  }
  return fields;
}
