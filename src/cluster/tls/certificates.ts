/**
 * The local cluster's certificate authority and its serving certificate for 127.0.0.1, ::1 and
 * localhost (made by the shared src/certificates module, fast enough to do at every start); the CA
 * stays in memory to sign client certificates for users.
 */
import { type CertificateAuthority, createCertificateAuthority, issueServingCertificate } from '../../certificates/self-signed.js';

/** PEM texts the HTTPS server and the kubeconfig need, and the CA that signed them. */
export interface ServingCertificates {
  caCertPem: string;
  serverCertPem: string;
  serverKeyPem: string;
  authority: CertificateAuthority;
}

/** A fresh CA (valid 10 years), or the one a restarted cluster kept, and a serving certificate it signed (valid 1 year). */
export async function generateServingCertificates(now: Date = new Date(), kept?: CertificateAuthority): Promise<ServingCertificates> {
  const authority = kept ?? (await createCertificateAuthority('kubeforge-ca', { now }));
  const server = await issueServingCertificate(authority, 'kubeforge-apiserver', ['127.0.0.1', '::1', 'localhost'], { now });
  return { caCertPem: authority.certPem, serverCertPem: server.certPem, serverKeyPem: server.keyPem, authority };
}
