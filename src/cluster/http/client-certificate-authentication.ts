/**
 * The x509 client-certificate authenticator: a TLS client certificate that chains to the cluster's CA
 * authenticates as user CN with groups O (plus system:authenticated), as kube-apiserver's
 * --client-ca-file does; a certificate that does not chain is refused (401) unless a token succeeds.
 */
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { identityFromSubject } from '../../certificates/self-signed.js';
import type { UserInfo } from './authentication.js';

/** undefined = no client certificate; null = a certificate the cluster's CA did not sign (or without a CN). */
export function authenticateClientCertificate(socket: Socket): UserInfo | undefined | null {
  const tls = socket as Partial<TLSSocket>;
  if (typeof tls.getPeerCertificate !== 'function') return undefined;
  const peer = tls.getPeerCertificate();
  if (!peer || Object.keys(peer).length === 0) return undefined;
  if (!tls.authorized) return null;
  const identity = identityFromSubject(peer.subject as { CN?: string | string[]; O?: string | string[] });
  if (!identity) return null;
  const groups = identity.groups.includes('system:authenticated') ? identity.groups : [...identity.groups, 'system:authenticated'];
  return { username: identity.username, groups };
}

/** Client certificate first, then bearer token, as kube-apiserver's union authenticator orders them. */
export function combineAuthentication(byCertificate: UserInfo | undefined | null, byToken: UserInfo | undefined | null): UserInfo | undefined | null {
  if (byCertificate) return byCertificate;
  if (byToken) return byToken;
  if (byCertificate === null || byToken === null) return null;
  return undefined;
}
