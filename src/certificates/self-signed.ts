/**
 * Self-signed certificate authorities and the certificates they sign (serving certificates for
 * hosts/IPs, client certificates for users with CN = user and O = groups, as Kubernetes reads them):
 * ECDSA P-256 through WebCrypto, no disk, no global state. The certificates are DER built here (der.ts)
 * and signed with node:crypto, so a cluster or webhook server starting with TLS loads no ASN.1 library.
 * CertificateSigningRequests are read and signed with @peculiar/x509, loaded on first use (x509-module.ts).
 */
import { createHash, KeyObject, randomBytes, sign, webcrypto, X509Certificate } from 'node:crypto';
import { bitString, boolean, contextTag, elements, fromPem, namedBits, objectIdentifier, objectIdentifierText, octetString, pem, sequence, set, smallInteger, time, tlv, unsignedInteger } from './der.js';

type KeyPair = webcrypto.CryptoKeyPair;

const ecdsa = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

/** A CA able to sign further certificates (its private key stays in memory, never written out). */
export interface CertificateAuthority {
  certPem: string;
  /** PKCS#8 PEM of the CA key (for callers that persist the CA; signing uses `signingKey`). */
  keyPem: string;
  /** The subject as text (`CN=…, O=…`), as @peculiar/x509 reads and writes names. */
  readonly subject: string;
  /** The subject's DER bytes: the issuer name of every certificate this CA signs, byte for byte. */
  readonly subjectDer: Buffer;
  /** The CA certificate's subject key identifier: the authority key identifier of what it signs. */
  readonly keyIdentifier: Buffer;
  readonly signingKey: webcrypto.CryptoKey;
  readonly publicKey: webcrypto.CryptoKey;
}

/** A signed leaf certificate and its PKCS#8 private key, both PEM. */
export interface IssuedCertificate {
  certPem: string;
  keyPem: string;
}

export interface ValidityOptions {
  /** Issue time (default now); certificates are valid from one hour before it. */
  now?: Date;
  /** Days of validity (CA default 3650, leaf default 365). */
  validDays?: number;
}

/** PEM as @peculiar/x509 wrote it (no newline after the END line). */
const pemText = (label: string, der: Uint8Array): string => pem(label, der).trimEnd();

async function exportKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  return pemText('PRIVATE KEY', new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', key)));
}

const newKeys = async (): Promise<KeyPair> => (await webcrypto.subtle.generateKey(ecdsa, true, ['sign', 'verify'])) as KeyPair;

/** A random positive 128-bit serial number, so certificates of one CA never share one. */
const serialNumber = (): Buffer => Buffer.concat([Buffer.from([1]), randomBytes(15)]);

/** Escapes the characters RFC 4514 reserves in a distinguished name's attribute value. */
function escapeDnValue(value: string): string {
  if (value === '') throw new Error('certificate subject: names must not be empty');
  return value.replace(/[\\,+"<>;=]/g, (c) => `\\${c}`).replace(/^[ #]/, (c) => `\\${c}`).replace(/ $/, '\\ ');
}

const nameOids = { CN: '2.5.4.3', O: '2.5.4.10' } as const;
const namesOfOids: Record<string, string> = { '2.5.4.3': 'CN', '2.5.4.10': 'O', '2.5.4.11': 'OU', '2.5.4.6': 'C', '2.5.4.7': 'L', '2.5.4.8': 'ST' };

/** A Name of one attribute per RDN, in the given order; PrintableString where the value allows it, else UTF8String (as @peculiar/x509). */
function encodeName(attributes: Array<[type: keyof typeof nameOids, value: string]>): { der: Buffer; text: string } {
  const der = sequence(
    ...attributes.map(([type, value]) => {
      if (value === '') throw new Error('certificate subject: names must not be empty');
      const printable = /^[A-Za-z0-9 '()+,\-./:=?]*$/.test(value);
      return set(sequence(objectIdentifier(nameOids[type]), tlv(printable ? 0x13 : 0x0c, Buffer.from(value, 'utf8'))));
    }),
  );
  return { der, text: attributes.map(([type, value]) => `${type}=${escapeDnValue(value)}`).join(', ') };
}

/** The text of a DER Name (each RDN's attributes, types by their short names or dotted OIDs). */
function nameText(der: Buffer): string {
  const [name] = elements(der);
  return elements(name!.contents)
    .flatMap((rdn) => elements(rdn.contents))
    .map((attribute) => {
      const [type, value] = elements(attribute.contents);
      const oid = objectIdentifierText(type!.contents);
      return `${namesOfOids[oid] ?? oid}=${escapeDnValue(value!.contents.toString('utf8'))}`;
    })
    .join(', ');
}

/** Subject alternative names: IPv4/IPv6 literals as IP entries, everything else as DNS names. */
export function alternativeNames(hosts: string[]): Array<{ type: 'ip' | 'dns'; value: string }> {
  return hosts.map((h) => (/^[\d.]+$|:/.test(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h }));
}

/** The 4 or 16 bytes of an IP literal. */
function ipBytes(ip: string): Buffer {
  if (!ip.includes(':')) {
    const parts = ip.split('.').map(Number);
    if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) throw new Error(`certificate: not an IP address: ${ip}`);
    return Buffer.from(parts);
  }
  const [head = '', tail = '', extra] = ip.split('::');
  if (extra !== undefined) throw new Error(`certificate: not an IP address: ${ip}`);
  const groups = (text: string): number[] => (text === '' ? [] : text.split(':').map((g) => (/^[0-9a-fA-F]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const first = groups(head);
  const last = ip.includes('::') ? groups(tail) : [];
  const words = ip.includes('::') ? [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last] : first;
  if (words.length !== 8 || words.some((w) => Number.isNaN(w))) throw new Error(`certificate: not an IP address: ${ip}`);
  const bytes = Buffer.alloc(16);
  words.forEach((w, i) => bytes.writeUInt16BE(w, i * 2));
  return bytes;
}

function validity(options: ValidityOptions, defaultDays: number): { notBefore: Date; notAfter: Date } {
  const now = options.now ?? new Date();
  return { notBefore: new Date(now.getTime() - HOUR), notAfter: new Date(now.getTime() + (options.validDays ?? defaultDays) * DAY) };
}

const ecdsaWithSha256 = sequence(objectIdentifier('1.2.840.10045.4.3.2'));
const keyUsageBits = { digitalSignature: 0, keyEncipherment: 2, keyCertSign: 5, cRLSign: 6 } as const;

/** One Extension: its OID, critical flag when set, and the DER value wrapped in an OCTET STRING. */
const extension = (oid: string, critical: boolean, value: Buffer): Buffer => sequence(objectIdentifier(oid), ...(critical ? [boolean(true)] : []), octetString(value));
const basicConstraints = (ca: boolean): Buffer => extension('2.5.29.19', true, ca ? sequence(boolean(true)) : sequence());
const keyUsage = (...bits: Array<keyof typeof keyUsageBits>): Buffer => extension('2.5.29.15', true, namedBits(bits.map((b) => keyUsageBits[b])));

/** The subjectPublicKey bits of a SubjectPublicKeyInfo and their SHA-1: the key identifier (RFC 5280 4.2.1.2, method 1). */
function keyIdentifierOf(spki: Buffer): Buffer {
  const [info] = elements(spki);
  const [, subjectPublicKey] = elements(info!.contents);
  return createHash('sha1').update(subjectPublicKey!.contents.subarray(1)).digest();
}

interface CertificateFields {
  subject: Buffer;
  issuer: Buffer;
  publicKey: webcrypto.CryptoKey;
  signingKey: webcrypto.CryptoKey;
  validity: { notBefore: Date; notAfter: Date };
  extensions: (spki: Buffer) => Buffer[];
}

/** A v3 certificate signed with ECDSA-SHA256, as PEM, and its SubjectPublicKeyInfo. */
async function signCertificate(fields: CertificateFields): Promise<{ pem: string; spki: Buffer }> {
  const spki = Buffer.from(await webcrypto.subtle.exportKey('spki', fields.publicKey));
  const tbs = sequence(
    contextTag(0, smallInteger(2), true),
    unsignedInteger(serialNumber()),
    ecdsaWithSha256,
    fields.issuer,
    sequence(time(fields.validity.notBefore), time(fields.validity.notAfter)),
    fields.subject,
    spki,
    contextTag(3, sequence(...fields.extensions(spki)), true),
  );
  const signature = sign('sha256', tbs, { key: KeyObject.from(fields.signingKey), dsaEncoding: 'der' });
  return { pem: pemText('CERTIFICATE', sequence(tbs, ecdsaWithSha256, bitString(signature))), spki };
}

/** A fresh self-signed CA named `CN=<commonName>`. */
export async function createCertificateAuthority(commonName: string, options: ValidityOptions = {}): Promise<CertificateAuthority> {
  const name = encodeName([['CN', commonName]]);
  const keys = await newKeys();
  let keyIdentifier: Buffer = Buffer.alloc(0);
  const cert = await signCertificate({
    subject: name.der,
    issuer: name.der,
    publicKey: keys.publicKey,
    signingKey: keys.privateKey,
    validity: validity(options, 3650),
    extensions: (spki) => {
      keyIdentifier = keyIdentifierOf(spki);
      return [basicConstraints(true), keyUsage('digitalSignature', 'keyCertSign', 'cRLSign'), extension('2.5.29.14', false, octetString(keyIdentifier))];
    },
  });
  return { certPem: cert.pem, keyPem: await exportKeyPem(keys.privateKey), subject: name.text, subjectDer: name.der, keyIdentifier, signingKey: keys.privateKey, publicKey: keys.publicKey };
}

/** A CA kept from before (its certificate and PKCS#8 key, both PEM), able to sign again. */
export async function loadCertificateAuthority(certPem: string, keyPem: string): Promise<CertificateAuthority> {
  const der = fromPem('CERTIFICATE', certPem);
  const [certificate] = elements(der);
  const [tbs] = elements(certificate!.contents);
  const fields = elements(tbs!.contents);
  // version [0] is present in every v3 certificate; serial, signature, issuer, validity, subject, spki follow
  const offset = fields[0]!.tag === 0xa0 ? 1 : 0;
  const subjectDer = Buffer.from(fields[offset + 4]!.raw);
  const spki = Buffer.from(fields[offset + 5]!.raw);
  const extensions = fields.find((f) => f.tag === 0xa3);
  const subjectKeyId = extensions
    ? elements(elements(extensions.contents)[0]!.contents)
        .map((e) => elements(e.contents))
        .find(([oid]) => objectIdentifierText(oid!.contents) === '2.5.29.14')
    : undefined;
  const keyIdentifier = subjectKeyId ? Buffer.from(elements(subjectKeyId.at(-1)!.contents)[0]!.contents) : keyIdentifierOf(spki);
  const signingKey = await webcrypto.subtle.importKey('pkcs8', fromPem('PRIVATE KEY', keyPem), ecdsa, true, ['sign']);
  const publicKey = await webcrypto.subtle.importKey('spki', spki, ecdsa, true, ['verify']);
  new X509Certificate(der); // refuses what is no certificate before anything is signed with it
  return { certPem, keyPem, subject: nameText(subjectDer), subjectDer, keyIdentifier, signingKey, publicKey };
}

async function issue(ca: CertificateAuthority, subject: Buffer, usage: 'serverAuth' | 'clientAuth', extra: Buffer[], options: ValidityOptions): Promise<IssuedCertificate> {
  const keys = await newKeys();
  const cert = await signCertificate({
    subject,
    issuer: ca.subjectDer,
    publicKey: keys.publicKey,
    signingKey: ca.signingKey,
    validity: validity(options, 365),
    extensions: () => [
      basicConstraints(false),
      keyUsage('digitalSignature', 'keyEncipherment'),
      extension('2.5.29.37', false, sequence(objectIdentifier(usage === 'serverAuth' ? '1.3.6.1.5.5.7.3.1' : '1.3.6.1.5.5.7.3.2'))),
      ...extra,
      extension('2.5.29.35', false, sequence(contextTag(0, ca.keyIdentifier, false))),
    ],
  });
  return { certPem: cert.pem, keyPem: await exportKeyPem(keys.privateKey) };
}

/** A serving certificate for `hosts` (IP literals and DNS names), signed by `ca`. */
export async function issueServingCertificate(ca: CertificateAuthority, commonName: string, hosts: string[], options: ValidityOptions = {}): Promise<IssuedCertificate> {
  if (hosts.length === 0) throw new Error('issueServingCertificate: at least one host name or IP is required');
  const names = alternativeNames(hosts).map((n) => (n.type === 'ip' ? contextTag(7, ipBytes(n.value), false) : contextTag(2, Buffer.from(n.value, 'latin1'), false)));
  return issue(ca, encodeName([['CN', commonName]]).der, 'serverAuth', [extension('2.5.29.17', false, sequence(...names))], options);
}

/**
 * A client certificate for `user` in `groups`, signed by `ca`: the subject is `CN=<user>` with one
 * `O=<group>` per group, which is how the Kubernetes x509 authenticator reads user name and groups.
 */
export async function issueClientCertificate(ca: CertificateAuthority, user: string, groups: string[] = [], options: ValidityOptions = {}): Promise<IssuedCertificate> {
  const subject = encodeName([...groups.map((g): ['O', string] => ['O', g]), ['CN', user]]);
  return issue(ca, subject.der, 'clientAuth', [], options);
}

/** User name and groups from a verified client certificate's subject (CN and every O). */
export function identityFromSubject(subject: { CN?: string | string[]; O?: string | string[] }): { username: string; groups: string[] } | undefined {
  const cn = Array.isArray(subject.CN) ? subject.CN[0] : subject.CN;
  if (!cn) return undefined;
  const o = subject.O === undefined ? [] : Array.isArray(subject.O) ? subject.O : [subject.O];
  return { username: cn, groups: [...o] };
}
