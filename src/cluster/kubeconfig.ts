/**
 * Kubeconfig files for the local cluster: the admin identity, or any user/groups the test asks for
 * (a bearer token issued by the cluster), trusting the cluster's CA. Written with mode 0600.
 */
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';

export interface KubeconfigIdentity {
  user: string;
  token: string;
  namespace?: string;
}

export function kubeconfigText(server: string, caPem: string | undefined, id: KubeconfigIdentity): string {
  const cluster: Record<string, unknown> = { server };
  if (caPem) cluster['certificate-authority-data'] = Buffer.from(caPem, 'utf8').toString('base64');
  else cluster['insecure-skip-tls-verify'] = true;
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'kubeforge', cluster }],
    users: [{ name: id.user, user: { token: id.token } }],
    contexts: [{ name: 'kubeforge', context: { cluster: 'kubeforge', user: id.user, namespace: id.namespace ?? 'default' } }],
    'current-context': 'kubeforge',
    preferences: {},
  });
}

export function writeKubeconfigFile(path: string, text: string): void {
  writeFileSync(path, text, { mode: 0o600 });
}
