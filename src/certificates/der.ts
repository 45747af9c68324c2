/**
 * The few DER (ASN.1) encodings and reads an X.509 certificate needs: self-signed.ts builds its certificates
 * with these and node:crypto, so making the local cluster's certificates loads no ASN.1 library.
 */

/** One DER element: tag byte, definite length, contents. */
export function tlv(tag: number, contents: Uint8Array): Buffer {
  const length = contents.length;
  let header: number[];
  if (length < 0x80) header = [tag, length];
  else {
    const bytes: number[] = [];
    for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n % 256);
    header = [tag, 0x80 | bytes.length, ...bytes];
  }
  return Buffer.concat([Buffer.from(header), contents]);
}

export const sequence = (...items: Uint8Array[]): Buffer => tlv(0x30, Buffer.concat(items));
export const set = (...items: Uint8Array[]): Buffer => tlv(0x31, Buffer.concat(items));
export const octetString = (bytes: Uint8Array): Buffer => tlv(0x04, bytes);
export const boolean = (value: boolean): Buffer => tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
/** Context-specific tag `[n]`: constructed (EXPLICIT, or IMPLICIT of a constructed type) or primitive. */
export const contextTag = (n: number, contents: Uint8Array, constructed: boolean): Buffer => tlv((constructed ? 0xa0 : 0x80) | n, contents);

/** A non-negative INTEGER from big-endian magnitude bytes (leading zeros dropped, a 0x00 added before a high bit). */
export function unsignedInteger(magnitude: Uint8Array): Buffer {
  let start = 0;
  while (start < magnitude.length - 1 && magnitude[start] === 0) start++;
  const bytes = Buffer.from(magnitude.subarray(start));
  return tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
}

export const smallInteger = (value: number): Buffer => unsignedInteger(Buffer.from([value]));

/** An OBJECT IDENTIFIER from its dotted text. */
export function objectIdentifier(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  if (arcs.length < 2 || arcs.some((a) => !Number.isSafeInteger(a) || a < 0)) throw new Error(`not an object identifier: ${dotted}`);
  const bytes: number[] = [arcs[0]! * 40 + arcs[1]!];
  for (const arc of arcs.slice(2)) {
    const base128: number[] = [arc % 128];
    for (let n = Math.floor(arc / 128); n > 0; n = Math.floor(n / 128)) base128.unshift(0x80 | n % 128);
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** A BIT STRING of whole bytes (no unused bits). */
export const bitString = (bytes: Uint8Array): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), bytes]));

/** A named-bit BIT STRING (KeyUsage): bit 0 is the first byte's high bit; trailing zero bits are left out, as DER requires. */
export function namedBits(bits: number[]): Buffer {
  const highest = Math.max(...bits);
  const bytes = Buffer.alloc(Math.floor(highest / 8) + 1);
  for (const bit of bits) bytes[bit >> 3]! |= 0x80 >> (bit & 7);
  return tlv(0x03, Buffer.concat([Buffer.from([7 - (highest & 7)]), bytes]));
}

/** UTCTime up to 2049, GeneralizedTime from 2050 (RFC 5280 4.1.2.5), second precision. */
export function time(date: Date): Buffer {
  const iso = date.toISOString();
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  const year = date.getUTCFullYear();
  if (year < 1950 || year > 9999) throw new Error(`certificate time out of range: ${iso}`);
  return year < 2050 ? tlv(0x17, Buffer.from(digits.slice(2), 'latin1')) : tlv(0x18, Buffer.from(digits, 'latin1'));
}

/** A DER element read back: its tag, its contents, and the whole element's bytes. */
export interface Element {
  tag: number;
  contents: Buffer;
  raw: Buffer;
}

/** The elements one after another in `bytes` (the contents of a SEQUENCE or SET, say). */
export function elements(bytes: Buffer): Element[] {
  const found: Element[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + 2 > bytes.length) throw new Error('DER: truncated element');
    const tag = bytes[at]!;
    let length = bytes[at + 1]!;
    let header = 2;
    if (length & 0x80) {
      const count = length & 0x7f;
      if (count === 0 || count > 4 || at + 2 + count > bytes.length) throw new Error('DER: unsupported length');
      length = 0;
      for (let i = 0; i < count; i++) length = length * 256 + bytes[at + 2 + i]!;
      header = 2 + count;
    }
    const end = at + header + length;
    if (end > bytes.length) throw new Error('DER: element longer than its container');
    found.push({ tag, contents: bytes.subarray(at + header, end), raw: bytes.subarray(at, end) });
    at = end;
  }
  return found;
}

/** The dotted text of an OBJECT IDENTIFIER's contents. */
export function objectIdentifierText(contents: Buffer): string {
  const arcs: number[] = [];
  let value = 0;
  for (const byte of contents) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      arcs.push(value);
      value = 0;
    }
  }
  const first = arcs.shift() ?? 0;
  return [first < 80 ? Math.floor(first / 40) : 2, first < 80 ? first % 40 : first - 80, ...arcs].join('.');
}

/** PEM text of DER bytes (64 characters a line). */
export function pem(label: string, der: Uint8Array): string {
  const lines = Buffer.from(der).toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** The DER bytes of the first PEM block labelled `label`. */
export function fromPem(label: string, text: string): Buffer {
  const block = new RegExp(`-----BEGIN ${label}-----([^-]*)-----END ${label}-----`).exec(text);
  if (!block) throw new Error(`no ${label} PEM block`);
  return Buffer.from(block[1]!.replace(/\s+/g, ''), 'base64');
}
