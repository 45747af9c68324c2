/** The DER encodings certificates are built from, checked byte for byte against X.690's rules. */
import { bitString, elements, fromPem, namedBits, objectIdentifier, objectIdentifierText, pem, sequence, time, tlv, unsignedInteger } from './der.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

test('lengths: short form below 128, long form with the fewest bytes above', () => {
  expect(hex(tlv(0x04, Buffer.alloc(3)))).toBe('0403000000');
  expect(hex(tlv(0x04, Buffer.alloc(127))).slice(0, 4)).toBe('047f');
  expect(hex(tlv(0x04, Buffer.alloc(128))).slice(0, 6)).toBe('048180');
  expect(hex(tlv(0x04, Buffer.alloc(300))).slice(0, 8)).toBe('0482012c');
});

test('integers are minimal and never negative', () => {
  expect(hex(unsignedInteger(Buffer.from([0, 0, 5])))).toBe('020105');
  expect(hex(unsignedInteger(Buffer.from([0x80])))).toBe('02020080');
  expect(hex(unsignedInteger(Buffer.from([0])))).toBe('020100');
});

test('object identifiers encode base 128 and read back', () => {
  expect(hex(objectIdentifier('1.2.840.10045.4.3.2'))).toBe('06082a8648ce3d040302');
  expect(hex(objectIdentifier('2.5.29.17'))).toBe('0603551d11');
  expect(objectIdentifierText(objectIdentifier('1.3.6.1.5.5.7.3.1').subarray(2))).toBe('1.3.6.1.5.5.7.3.1');
  expect(() => objectIdentifier('1')).toThrow('not an object identifier: 1');
});

test('bit strings: whole bytes, and named bits without trailing zeros', () => {
  expect(hex(bitString(Buffer.from([0xab])))).toBe('030200ab');
  // digitalSignature (0) and keyEncipherment (2): 101 then five unused bits
  expect(hex(namedBits([0, 2]))).toBe('030205a0');
  // digitalSignature, keyCertSign (5), cRLSign (6): one unused bit
  expect(hex(namedBits([0, 5, 6]))).toBe('03020186');
});

test('times: UTCTime before 2050, GeneralizedTime from 2050, second precision', () => {
  expect(time(new Date('2024-01-15T10:00:00.999Z')).toString('latin1', 2)).toBe('240115100000Z');
  expect(time(new Date('2024-01-15T10:00:00Z'))[0]).toBe(0x17);
  expect(time(new Date('2051-06-01T00:00:00Z'))[0]).toBe(0x18);
  expect(time(new Date('2051-06-01T00:00:00Z')).toString('latin1', 2)).toBe('20510601000000Z');
  expect(() => time(new Date('1949-12-31T23:59:59Z'))).toThrow('certificate time out of range');
});

test('elements reads back what was written; truncated input is refused', () => {
  const written = sequence(tlv(0x04, Buffer.from('ab')), tlv(0x04, Buffer.alloc(200)));
  const [outer] = elements(written);
  expect(outer!.tag).toBe(0x30);
  expect(elements(outer!.contents).map((e) => [e.tag, e.contents.length])).toEqual([
    [0x04, 2],
    [0x04, 200],
  ]);
  expect(() => elements(written.subarray(0, 10))).toThrow('DER: element longer than its container');
});

test('PEM: 64 characters a line, read back to the same bytes; a missing block is named', () => {
  const der = Buffer.from(Array.from({ length: 100 }, (_, i) => i));
  const text = pem('CERTIFICATE', der);
  expect(text.split('\n').map((l) => l.length)).toEqual([27, 64, 64, 8, 25, 0]);
  expect(fromPem('CERTIFICATE', text).equals(der)).toBe(true);
  expect(() => fromPem('PRIVATE KEY', text)).toThrow('no PRIVATE KEY PEM block');
});
