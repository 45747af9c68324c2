/**
 * Generates the local cluster's certificate authority and its serving certificate for 127.0.0.1,
 * ::1 and localhost (ECDSA P-256 through WebCrypto, fast enough to do at every start).
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type KeyPair = webcrypto.CryptoKeyPair;

/** PEM texts the HTTPS server and the kubeconfig need. */
export interface ServingCertificates {
  caCertPem: string;
  serverCertPem: string;
  serverKeyPem: string;
}

const ecdsa = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const signing = { name: 'ECDSA', hash: 'SHA-256' } as const;

async function exportKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  const der = await webcrypto.subtle.exportKey('pkcs8', key);
  return x509.PemConverter.encode(der, 'PRIVATE KEY');
}

/** A fresh CA (valid 10 years) and a serving certificate it signed (valid 1 year). */
export async function generateServingCertificates(now: Date = new Date()): Promise<ServingCertificates> {
  const subtle = webcrypto.subtle;
  const caKeys = (await subtle.generateKey(ecdsa, true, ['sign', 'verify'])) as KeyPair;
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=kubeforge-ca',
    notBefore,
    notAfter: new Date(now.getTime() + 10 * 365 * 24 * 3600 * 1000),
    signingAlgorithm: signing,
    keys: caKeys as never,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey as never),
    ],
  });
  const serverKeys = (await subtle.generateKey(ecdsa, true, ['sign', 'verify'])) as KeyPair;
  const server = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: 'CN=kubeforge-apiserver',
    issuer: ca.subject,
    notBefore,
    notAfter: new Date(now.getTime() + 365 * 24 * 3600 * 1000),
    signingAlgorithm: signing,
    publicKey: serverKeys.publicKey as never,
    signingKey: caKeys.privateKey as never,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension([
        { type: 'ip', value: '127.0.0.1' },
        { type: 'ip', value: '::1' },
        { type: 'dns', value: 'localhost' },
      ]),
      await x509.AuthorityKeyIdentifierExtension.create(caKeys.publicKey as never),
    ],
  });
  return { caCertPem: ca.toString('pem'), serverCertPem: server.toString('pem'), serverKeyPem: await exportKeyPem(serverKeys.privateKey) };
}
