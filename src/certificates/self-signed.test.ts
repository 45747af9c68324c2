/** The shared certificate module: CA, serving and client certificates verified with node:crypto's X509Certificate. */
import { X509Certificate, createPrivateKey } from 'node:crypto';
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { alternativeNames, createCertificateAuthority, identityFromSubject, issueClientCertificate, issueServingCertificate } from './self-signed.js';

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
