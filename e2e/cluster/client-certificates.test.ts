/**
 * Client-certificate authentication, as kube-apiserver's x509 authenticator: certificates the cluster
 * CA signs authenticate as CN with groups O (seen by `kubectl auth whoami`, RBAC and client-node); a
 * certificate from another CA is refused with 401; kubeconfig contexts hold such users.
 */
import { request } from 'node:https';
import * as k8s from '@kubernetes/client-node';
import { startLocalCluster } from '../../src/cluster/index.js';
import { createCertificateAuthority, issueClientCertificate } from '../../src/certificates/self-signed.js';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite({ certificateUsers: [{ user: 'carol', groups: ['qa'] }] });
const admin = suite.kubectl;

test('kubectl auth whoami shows CN as the user and every O as a group', async () => {
  const alice = await suite.kubectlWithCertificate('alice', ['dev', 'ops']);
  const review = JSON.parse(await alice.ok(['auth', 'whoami', '-o', 'json']));
  expect(review.kind).toBe('SelfSubjectReview');
  expect(review.status.userInfo.username).toBe('alice');
  expect([...review.status.userInfo.groups].sort()).toEqual(['dev', 'ops', 'system:authenticated']);
  // the identity is the certificate's: no token in this kubeconfig
  expect(await alice.ok(['config', 'view', '--raw', '-o', 'jsonpath={.users[0].user}'])).not.toContain('token');
});

test('the admin kubeconfig holds a context for each certificate user', async () => {
  const contexts = (await admin.ok(['config', 'get-contexts', '-o', 'name'])).trim().split('\n').sort();
  expect(contexts).toEqual(['kubeforge', 'kubeforge-carol']);
  const whoami = await admin.ok(['--context', 'kubeforge-carol', 'auth', 'whoami']);
  expect(whoami).toMatch(/Username\s+carol/);
  expect(whoami).toMatch(/Groups\s+\[qa system:authenticated\]/);
  // the default context is still the admin
  expect(await admin.ok(['auth', 'whoami'])).toMatch(/Username\s+kubeforge-admin/);
});

test('RBAC applies to the certificate identity through its groups', async () => {
  await admin.ok(['create', 'rolebinding', 'dev-view', '--clusterrole=view', '--group=dev', '--namespace=default']);
  await admin.ok(['create', 'configmap', 'shared', '--from-literal=a=1']);
  const bob = await suite.kubectlWithCertificate('bob', ['dev']);
  expect(await bob.ok(['get', 'configmap', 'shared', '-o', 'name'])).toBe('configmap/shared\n');
  const refused = await bob.run(['create', 'configmap', 'mine']);
  expect(refused.code).not.toBe(0);
  expect(refused.stderr).toContain('configmaps is forbidden: User "bob" cannot create resource "configmaps" in API group "" in the namespace "default"');
  expect((await admin.ok(['auth', 'can-i', 'list', 'configmaps', '--as=bob', '--as-group=dev'])).trim()).toBe('yes');
});

test('client-node authenticates with the certificate from the kubeconfig', async () => {
  const path = await suite.cluster.writeCertificateKubeconfig(`${suite.cluster.kubeconfigPath}-dana`, { user: 'dana', groups: ['dev'] });
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(path);
  const review = await kc.makeApiClient(k8s.AuthenticationV1Api).createSelfSubjectReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } });
  expect(review.status?.userInfo?.username).toBe('dana');
  expect(review.status?.userInfo?.groups).toEqual(['dev', 'system:authenticated']);
  const list = await kc.makeApiClient(k8s.CoreV1Api).listNamespacedConfigMap({ namespace: 'default' });
  expect(list.items.map((c) => c.metadata?.name)).toContain('shared');
});

test('a certificate signed by another CA is refused with 401, even for a known user name', async () => {
  const stranger = await createCertificateAuthority('someone-else');
  const forged = await issueClientCertificate(stranger, 'kubeforge-admin', ['system:masters']);
  const reply = await new Promise<{ code: number; body: any }>((resolve, reject) => {
    const { url, caCertPem } = suite.cluster;
    const { hostname, port } = new URL(url);
    const req = request({ host: hostname, port, path: '/api/v1/namespaces', ca: caCertPem, cert: forged.certPem, key: forged.keyPem }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ code: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
  expect(reply.code).toBe(401);
  expect(reply.body.reason).toBe('Unauthorized');
});

test('issuing a client certificate needs TLS', async () => {
  const plain = await startLocalCluster({ tls: false });
  try {
    await expect(plain.issueClientCertificate('x')).rejects.toThrow('plain HTTP (tls: false)');
  } finally {
    await plain.stop();
  }
});
