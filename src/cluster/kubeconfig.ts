/**
 * Kubeconfig files for the local cluster: the admin identity, or any user/groups the test asks for
 * (a bearer token issued by the cluster, or a client certificate signed by the cluster's CA),
 * trusting the cluster's CA; further identities become extra users and contexts. Written with mode 0600.
 */
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';

export interface KubeconfigIdentity {
  user: string;
  /** Bearer token (one of token / clientCertificate is required). */
  token?: string;
  /** PEM client certificate and key (CN = user, O = groups). */
  clientCertificate?: { certPem: string; keyPem: string };
  namespace?: string;
}

const base64 = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');

function credentials(id: KubeconfigIdentity): Record<string, string> {
  if (id.clientCertificate) return { 'client-certificate-data': base64(id.clientCertificate.certPem), 'client-key-data': base64(id.clientCertificate.keyPem) };
  if (id.token) return { token: id.token };
  throw new Error(`kubeconfig user ${JSON.stringify(id.user)}: needs a token or a client certificate`);
}

/** Name of the context of an extra identity (the first identity's context is `kubeforge`). */
export const contextNameFor = (user: string): string => `kubeforge-${user}`;

/**
 * A kubeconfig whose current context `kubeforge` is `id`; each of `others` gets its own user entry
 * and a context named `kubeforge-<user>`.
 */
export function kubeconfigText(server: string, caPem: string | undefined, id: KubeconfigIdentity, others: KubeconfigIdentity[] = []): string {
  const cluster: Record<string, unknown> = { server };
  if (caPem) cluster['certificate-authority-data'] = base64(caPem);
  else cluster['insecure-skip-tls-verify'] = true;
  const all = [id, ...others];
  const names = all.map((i) => i.user);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate) throw new Error(`kubeconfig: user ${JSON.stringify(duplicate)} appears twice`);
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'kubeforge', cluster }],
    users: all.map((i) => ({ name: i.user, user: credentials(i) })),
    contexts: all.map((i, n) => ({ name: n === 0 ? 'kubeforge' : contextNameFor(i.user), context: { cluster: 'kubeforge', user: i.user, namespace: i.namespace ?? 'default' } })),
    'current-context': 'kubeforge',
    preferences: {},
  });
}

export function writeKubeconfigFile(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
}
