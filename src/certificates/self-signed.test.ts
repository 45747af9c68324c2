/** The shared certificate module: CA, serving and client certificates verified with node:crypto's X509Certificate. */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { alternativeNames, createCertificateAuthority, identityFromSubject, issueClientCertificate, issueServingCertificate, loadCertificateAuthority } from './self-signed.js';

test('a CA signs a serving certificate for IPs and DNS names with serverAuth', async () => {
  const now = new Date('2026-11-22T10:00:00Z');
  const ca = await createCertificateAuthority('test-ca', { now });
  const serving = await issueServingCertificate(ca, 'server', ['127.0.0.1', '::1', 'localhost'], { now });
  const caCert = new X509Certificate(ca.certPem);
  const cert = new X509Certificate(serving.certPem);
  expect(caCert.ca).toBe(true);
  expect(cert.ca).toBe(false);
  expect(cert.checkIssued(caCert)).toBe(true);
  expect(cert.verify(caCert.publicKey)).toBe(true);
  expect(cert.subjectAltName).toBe('IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost');
  expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
  expect(cert.checkPrivateKey(createPrivateKey(serving.keyPem))).toBe(true);
  expect(new Date(cert.validFrom).toISOString()).toBe('2026-11-22T09:00:00.000Z');
  expect(new Date(cert.validTo).toISOString()).toBe('2027-11-22T10:00:00.000Z');
});

test('a client certificate carries CN = user and one O per group, with clientAuth', async () => {
  const ca = await createCertificateAuthority('test-ca');
  const client = await issueClientCertificate(ca, 'alice', ['dev', 'ops']);
  const cert = new X509Certificate(client.certPem);
  expect(cert.verify(new X509Certificate(ca.certPem).publicKey)).toBe(true);
  expect(cert.subject.split('\n').sort()).toEqual(['CN=alice', 'O=dev', 'O=ops']);
  expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.2']);
  expect(identityFromSubject({ CN: 'alice', O: ['dev', 'ops'] })).toEqual({ username: 'alice', groups: ['dev', 'ops'] });
  expect(identityFromSubject({ CN: 'bob', O: 'dev' })).toEqual({ username: 'bob', groups: ['dev'] });
  expect(identityFromSubject({ O: 'dev' })).toBeUndefined();
});

test('certificates of one CA get distinct serial numbers; names with DN specials are escaped', async () => {
  const ca = await createCertificateAuthority('test-ca');
  const a = new X509Certificate((await issueClientCertificate(ca, 'a')).certPem);
  const b = new X509Certificate((await issueClientCertificate(ca, 'a')).certPem);
  expect(a.serialNumber).not.toBe(b.serialNumber);
  const odd = new x509.X509Certificate((await issueClientCertificate(ca, 'system:serviceaccount:ns:sa', ['a,b', 'x=y'])).certPem);
  expect(odd.subjectName.getField('CN')).toEqual(['system:serviceaccount:ns:sa']);
  expect(odd.subjectName.getField('O')).toEqual(['a,b', 'x=y']);
});

test('bad input is refused with a clear error', async () => {
  const ca = await createCertificateAuthority('test-ca');
  await expect(issueServingCertificate(ca, 'server', [])).rejects.toThrow('at least one host name or IP is required');
  await expect(issueClientCertificate(ca, '')).rejects.toThrow('names must not be empty');
  expect(alternativeNames(['10.0.0.1', 'fd00::1', 'svc.ns.svc'])).toEqual([
    { type: 'ip', value: '10.0.0.1' },
    { type: 'ip', value: 'fd00::1' },
    { type: 'dns', value: 'svc.ns.svc' },
  ]);
});

test('a CA read back from its PEMs signs certificates the original CA certificate verifies, with its name and key id', async () => {
  const now = new Date('2024-01-15T10:00:00Z');
  const original = await createCertificateAuthority('kept-ca', { now });
  const kept = await loadCertificateAuthority(original.certPem, original.keyPem);
  expect(kept.subject).toBe('CN=kept-ca');
  expect(kept.subjectDer.equals(original.subjectDer)).toBe(true);
  expect(kept.keyIdentifier.equals(original.keyIdentifier)).toBe(true);
  const caCert = new X509Certificate(original.certPem);
  const served = new X509Certificate((await issueServingCertificate(kept, 'svc', ['10.0.0.1', 'fd00::1:2', 'svc.ns.svc'], { now })).certPem);
  expect(served.checkIssued(caCert)).toBe(true);
  expect(served.verify(caCert.publicKey)).toBe(true);
  expect(served.subjectAltName).toBe('IP Address:10.0.0.1, IP Address:FD00:0:0:0:0:0:1:2, DNS:svc.ns.svc');
  // @peculiar/x509 reads what node:crypto wrote: the key ids chain and the extensions are as Kubernetes' are
  const parsed = new x509.X509Certificate(served.toString());
  const caParsed = new x509.X509Certificate(original.certPem);
  expect(parsed.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId).toBe(caParsed.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId);
  expect(parsed.getExtension(x509.BasicConstraintsExtension)).toMatchObject({ ca: false, critical: true });
  expect(parsed.getExtension(x509.KeyUsagesExtension)).toMatchObject({ usages: x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, critical: true });
  expect(caParsed.getExtension(x509.KeyUsagesExtension)).toMatchObject({ usages: x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature, critical: true });
  expect(caParsed.getExtension(x509.BasicConstraintsExtension)).toMatchObject({ ca: true, critical: true });
  expect(caParsed.subject).toBe('CN=kept-ca');
  expect(await caParsed.verify({ signatureOnly: true })).toBe(true);
  await expect(loadCertificateAuthority('not a certificate', original.keyPem)).rejects.toThrow('no CERTIFICATE PEM block');
  await expect(issueServingCertificate(kept, 'svc', ['1.2.3'])).rejects.toThrow('certificate: not an IP address: 1.2.3');
});
