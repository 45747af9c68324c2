/**
 * Self-signed certificate authorities and the certificates they sign (serving certificates for
 * hosts/IPs, client certificates for users with CN = user and O = groups, as Kubernetes reads them):
 * ECDSA P-256 through WebCrypto, no disk, no global state beyond the crypto provider.
 * @peculiar/x509 (with reflect-metadata, tsyringe and the asn1 schemas: ~0.1 CPU-s per jest test file, which
 * loads it afresh in each file's vm context) is imported at the first certificate made or read, so the
 * runtime's importers that never serve TLS (most unit tests, a manager without webhooks) do not pay for it.
 */
import { randomBytes, webcrypto } from 'node:crypto';
import type * as X509 from '@peculiar/x509';

let x509Module: Promise<typeof X509> | undefined;

/** @peculiar/x509, loaded once, with WebCrypto as its crypto provider. */
export function loadX509(): Promise<typeof X509> {
  x509Module ??= import('reflect-metadata').then(async () => {
    const x509 = await import('@peculiar/x509');
    x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
    return x509;
  });
  return x509Module;
}

type KeyPair = webcrypto.CryptoKeyPair;

const ecdsa = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const signing = { name: 'ECDSA', hash: 'SHA-256' } as const;
const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

/** A CA able to sign further certificates (its private key stays in memory, never written out). */
export interface CertificateAuthority {
  certPem: string;
  /** PKCS#8 PEM of the CA key (for callers that persist the CA; signing uses `signingKey`). */
  keyPem: string;
  readonly subject: string;
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

async function exportKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return (await loadX509()).PemConverter.encode(der, 'PRIVATE KEY');
}

const newKeys = async (): Promise<KeyPair> => (await webcrypto.subtle.generateKey(ecdsa, true, ['sign', 'verify'])) as KeyPair;

/** A random positive 128-bit serial number, so certificates of one CA never share one. */
const serialNumber = (): string => `01${randomBytes(15).toString('hex')}`;

/** Escapes the characters RFC 4514 reserves in a distinguished name's attribute value. */
function escapeDnValue(value: string): string {
  if (value === '') throw new Error('certificate subject: names must not be empty');
  return value.replace(/[\\,+"<>;=]/g, (c) => `\\${c}`).replace(/^[ #]/, (c) => `\\${c}`).replace(/ $/, '\\ ');
}

/** Subject alternative names: IPv4/IPv6 literals as IP entries, everything else as DNS names. */
export function alternativeNames(hosts: string[]): Array<{ type: 'ip' | 'dns'; value: string }> {
  return hosts.map((h) => (/^[\d.]+$|:/.test(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h }));
}

function validity(options: ValidityOptions, defaultDays: number): { notBefore: Date; notAfter: Date } {
  const now = options.now ?? new Date();
  return { notBefore: new Date(now.getTime() - HOUR), notAfter: new Date(now.getTime() + (options.validDays ?? defaultDays) * DAY) };
}

/** A fresh self-signed CA named `CN=<commonName>`. */
export async function createCertificateAuthority(commonName: string, options: ValidityOptions = {}): Promise<CertificateAuthority> {
  const x509 = await loadX509();
  const keys = await newKeys();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: `CN=${escapeDnValue(commonName)}`,
    ...validity(options, 3650),
    signingAlgorithm: signing,
    keys: keys as never,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey as never),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await exportKeyPem(keys.privateKey), subject: cert.subject, signingKey: keys.privateKey, publicKey: keys.publicKey };
}

/** A CA kept from before (its certificate and PKCS#8 key, both PEM), able to sign again. */
export async function loadCertificateAuthority(certPem: string, keyPem: string): Promise<CertificateAuthority> {
  const x509 = await loadX509();
  const cert = new x509.X509Certificate(certPem);
  const signingKey = await webcrypto.subtle.importKey('pkcs8', x509.PemConverter.decode(keyPem)[0]!, ecdsa, true, ['sign']);
  const publicKey = await cert.publicKey.export(ecdsa, ['verify'], webcrypto as never);
  return { certPem, keyPem, subject: cert.subject, signingKey, publicKey: publicKey as unknown as webcrypto.CryptoKey };
}

async function issue(ca: CertificateAuthority, subject: string, usage: 'serverAuth' | 'clientAuth', extra: (x509: typeof X509) => X509.Extension[], options: ValidityOptions): Promise<IssuedCertificate> {
  const x509 = await loadX509();
  const keys = await newKeys();
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject,
    issuer: ca.subject,
    ...validity(options, 365),
    signingAlgorithm: signing,
    publicKey: keys.publicKey as never,
    signingKey: ca.signingKey as never,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage[usage]]),
      ...extra(x509),
      await x509.AuthorityKeyIdentifierExtension.create(ca.publicKey as never),
    ],
  });
  return { certPem: cert.toString('pem'), keyPem: await exportKeyPem(keys.privateKey) };
}

/** A serving certificate for `hosts` (IP literals and DNS names), signed by `ca`. */
export async function issueServingCertificate(ca: CertificateAuthority, commonName: string, hosts: string[], options: ValidityOptions = {}): Promise<IssuedCertificate> {
  if (hosts.length === 0) throw new Error('issueServingCertificate: at least one host name or IP is required');
  return issue(ca, `CN=${escapeDnValue(commonName)}`, 'serverAuth', (x509) => [new x509.SubjectAlternativeNameExtension(alternativeNames(hosts))], options);
}

/**
 * A client certificate for `user` in `groups`, signed by `ca`: the subject is `CN=<user>` with one
 * `O=<group>` per group, which is how the Kubernetes x509 authenticator reads user name and groups.
 */
export async function issueClientCertificate(ca: CertificateAuthority, user: string, groups: string[] = [], options: ValidityOptions = {}): Promise<IssuedCertificate> {
  const subject = [...groups.map((g) => `O=${escapeDnValue(g)}`), `CN=${escapeDnValue(user)}`].join(', ');
  return issue(ca, subject, 'clientAuth', () => [], options);
}

/** User name and groups from a verified client certificate's subject (CN and every O). */
export function identityFromSubject(subject: { CN?: string | string[]; O?: string | string[] }): { username: string; groups: string[] } | undefined {
  const cn = Array.isArray(subject.CN) ? subject.CN[0] : subject.CN;
  if (!cn) return undefined;
  const o = subject.O === undefined ? [] : Array.isArray(subject.O) ? subject.O : [subject.O];
  return { username: cn, groups: [...o] };
}
