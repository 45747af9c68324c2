/**
 * A self-signed CA and a serving certificate for 127.0.0.1/localhost, so the webhook server can serve
 * HTTPS in local runs and tests without cert-manager (the CA goes into the configurations' caBundle).
 */
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

export interface WebhookCertificates {
  caPem: string;
  certPem: string;
  keyPem: string;
}

const ecdsa = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const signing = { name: 'ECDSA', hash: 'SHA-256' } as const;
const DAY = 24 * 3600 * 1000;

export async function selfSignedWebhookCertificates(hosts: string[] = ['127.0.0.1', 'localhost'], now = new Date()): Promise<WebhookCertificates> {
  const subtle = webcrypto.subtle;
  const caKeys = (await subtle.generateKey(ecdsa, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const notBefore = new Date(now.getTime() - 3600 * 1000);
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: 'CN=kubeforge-webhook-ca',
    notBefore,
    notAfter: new Date(now.getTime() + 3650 * DAY),
    signingAlgorithm: signing,
    keys: caKeys as never,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.digitalSignature, true)],
  });
  const keys = (await subtle.generateKey(ecdsa, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const names = hosts.map((h) => (/^[\d.]+$|:/.test(h) ? { type: 'ip' as const, value: h } : { type: 'dns' as const, value: h }));
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: 'CN=kubeforge-webhook',
    issuer: ca.subject,
    notBefore,
    notAfter: new Date(now.getTime() + 365 * DAY),
    signingAlgorithm: signing,
    publicKey: keys.publicKey as never,
    signingKey: caKeys.privateKey as never,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(names),
    ],
  });
  const keyDer = await subtle.exportKey('pkcs8', keys.privateKey);
  return { caPem: ca.toString('pem'), certPem: cert.toString('pem'), keyPem: x509.PemConverter.encode(keyDer, 'PRIVATE KEY') };
}
