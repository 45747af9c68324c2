/**
 * The local cluster's cert-manager stand-in (`startLocalCluster({ certManager: true })`): the
 * cert-manager.io CRDs are served; a kubebuilder config/certmanager's self-signed Issuer becomes Ready
 * and its Certificate for `<svc>.<ns>.svc` gets a kubernetes.io/tls Secret (tls.crt, tls.key, ca.crt)
 * and Ready=True; a webhook configuration annotated `cert-manager.io/inject-ca-from` gets that CA as
 * its caBundle, so the API server calls a webhook process serving the issued certificate through its
 * Service and verifies it; a `ca` issuer signs with its Secret's key pair; unsupported issuers and
 * missing issuers are Ready=False with a message saying why.
 */
import { X509Certificate } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { useClusterSuite } from './cluster-suite.js';

const imageDir = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'process-image');
const suite = useClusterSuite({ images: { 'example.com/hello:v1': imageDir }, certManager: true });
const kubectl = suite.kubectl;

const until = suite.until.bind(suite);
// state the tests check, read in-process (no kubectl start: kubectl's own output is checked where it is the point)
const getJson = (...args: string[]): Promise<any> => suite.getJson(['get', ...args]);
/** A poll: the Secret once it exists (read in-process, no kubectl start a poll), else undefined. */
const secretOnceIssued = (name: string, namespace = 'default') => async (): Promise<any> => {
  const r = await suite.call('GET', `/api/v1/namespaces/${namespace}/secrets/${name}`);
  return r.code === 200 ? JSON.parse(r.text) : undefined;
};
const apply = (yaml: string): Promise<string> => kubectl.ok(['apply', '-f', '-'], yaml);
const ready = (o: any): any => (o.status?.conditions ?? []).find((c: any) => c.type === 'Ready');

test('kubectl sees the cert-manager.io kinds', async () => {
  const resources = await kubectl.ok(['api-resources', '--api-group=cert-manager.io', '-o', 'name']);
  expect(resources.split('\n').filter(Boolean).sort()).toEqual(['certificates.cert-manager.io', 'clusterissuers.cert-manager.io', 'issuers.cert-manager.io']);
});

test("config/certmanager's self-signed Issuer and Certificate give the webhook Secret, and the injected CA lets the API server call the webhook through its Service", async () => {
  await kubectl.ok(['create', 'namespace', 'project-system']);
  await apply(`apiVersion: cert-manager.io/v1
kind: Issuer
metadata: {name: project-selfsigned-issuer, namespace: project-system}
spec: {selfSigned: {}}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: project-serving-cert, namespace: project-system}
spec:
  dnsNames: [project-webhook-service.project-system.svc, project-webhook-service.project-system.svc.cluster.local]
  issuerRef: {kind: Issuer, name: project-selfsigned-issuer}
  secretName: webhook-server-cert
`);
  const certificate = await until('the Certificate ready', async () => {
    const c = await getJson('certificate', 'project-serving-cert', '-n', 'project-system');
    return ready(c)?.status === 'True' ? c : undefined;
  });
  expect(ready(certificate)).toMatchObject({ reason: 'Ready', message: 'Certificate is up to date and has not expired' });
  expect(ready(await getJson('issuer', 'project-selfsigned-issuer', '-n', 'project-system'))).toMatchObject({ status: 'True', reason: 'IsReady' });
  const secret = await getJson('secret', 'webhook-server-cert', '-n', 'project-system');
  expect(secret.type).toBe('kubernetes.io/tls');
  expect(Object.keys(secret.data).sort()).toEqual(['ca.crt', 'tls.crt', 'tls.key']);
  expect(secret.metadata.annotations).toMatchObject({ 'cert-manager.io/certificate-name': 'project-serving-cert', 'cert-manager.io/issuer-name': 'project-selfsigned-issuer', 'cert-manager.io/issuer-kind': 'Issuer' });
  const leaf = new X509Certificate(Buffer.from(secret.data['tls.crt'], 'base64'));
  const ca = new X509Certificate(Buffer.from(secret.data['ca.crt'], 'base64'));
  expect(leaf.subjectAltName).toBe('DNS:project-webhook-service.project-system.svc, DNS:project-webhook-service.project-system.svc.cluster.local');
  expect(leaf.verify(ca.publicKey)).toBe(true);
  // `kubectl get certificate` prints the CRD's columns
  expect(await kubectl.ok(['get', 'certificates', '-n', 'project-system'])).toMatch(/^NAME\s+READY\s+SECRET\s+AGE\nproject-serving-cert\s+True\s+webhook-server-cert\s+/);

  // the webhook process serves the issued certificate (env from the Secret), behind the Service the certificate names
  const fromSecret = (name: string, key: string) => ({ name, valueFrom: { secretKeyRef: { name: 'webhook-server-cert', key } } });
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'hook', namespace: 'project-system', labels: { app: 'hook' } },
    spec: { containers: [{ name: 'app', image: 'example.com/hello:v1', env: [{ name: 'MODE', value: 'webhook' }, fromSecret('TLS_CERT', 'tls.crt'), fromSecret('TLS_KEY', 'tls.key')], ports: [{ name: 'https', containerPort: 9443 }], readinessProbe: { tcpSocket: { port: 9443 }, periodSeconds: 1 } }] },
  }));
  await kubectl.ok(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'project-webhook-service', namespace: 'project-system' }, spec: { selector: { app: 'hook' }, ports: [{ port: 443, targetPort: 'https' }] } }));
  await until('the webhook ready', async () => {
    await suite.cluster.clock.advance(1_000);
    return (await getJson('pod', 'hook', '-n', 'project-system')).status.containerStatuses?.[0]?.ready;
  });
  await apply(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: project-validating-webhook-configuration
  annotations: {cert-manager.io/inject-ca-from: project-system/project-serving-cert}
webhooks:
- name: deny.kubeforge.io
  clientConfig: {service: {namespace: project-system, name: project-webhook-service, path: /validate}}
  rules: [{operations: [CREATE], apiGroups: [""], apiVersions: [v1], resources: [configmaps]}]
  namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: project-system}}
  sideEffects: None
  admissionReviewVersions: [v1]
  failurePolicy: Fail
`);
  const injected = await until('the CA injected', async () => (await getJson('validatingwebhookconfiguration', 'project-validating-webhook-configuration')).webhooks[0].clientConfig.caBundle);
  expect(injected).toBe(secret.data['ca.crt']);
  await kubectl.ok(['create', 'configmap', 'welcome', '-n', 'project-system']);
  const denied = await kubectl.run(['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'unwelcome', namespace: 'project-system', labels: { deny: 'yes' } } }));
  expect(denied.code).not.toBe(0);
  expect(denied.stderr).toContain('admission webhook "deny.kubeforge.io" denied the request: hook says no');
  expect(await kubectl.ok(['logs', 'hook', '-n', 'project-system'])).toContain('reviewed CREATE welcome: allowed');

  // a deleted Secret is issued again, and the new CA injected again
  await kubectl.ok(['delete', 'secret', 'webhook-server-cert', '-n', 'project-system']);
  const reissued = await until('the Secret issued again', secretOnceIssued('webhook-server-cert', 'project-system'));
  expect(reissued.data['ca.crt']).not.toBe(secret.data['ca.crt']);
  await until('the new CA injected', async () => (await getJson('validatingwebhookconfiguration', 'project-validating-webhook-configuration')).webhooks[0].clientConfig.caBundle === reissued.data['ca.crt']);
  await kubectl.ok(['delete', 'validatingwebhookconfiguration', 'project-validating-webhook-configuration']);
});

test('a ca Issuer signs with its Secret; a missing or unsupported issuer leaves the Certificate Ready=False saying why', async () => {
  await apply(`apiVersion: cert-manager.io/v1
kind: Issuer
metadata: {name: root, namespace: default}
spec: {selfSigned: {}}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: root-ca, namespace: default}
spec: {isCA: true, commonName: root-ca, issuerRef: {name: root}, secretName: root-ca}
---
apiVersion: cert-manager.io/v1
kind: Issuer
metadata: {name: from-ca, namespace: default}
spec: {ca: {secretName: root-ca}}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: leaf, namespace: default}
spec: {dnsNames: [leaf.default.svc], issuerRef: {name: from-ca}, secretName: leaf-tls}
---
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: orphan, namespace: default}
spec: {dnsNames: [orphan.default.svc], issuerRef: {name: nowhere}, secretName: orphan-tls}
---
apiVersion: cert-manager.io/v1
kind: ClusterIssuer
metadata: {name: letsencrypt}
spec: {acme: {server: "https://acme-v02.api.letsencrypt.org/directory"}}
`);
  const leaf = await until('the leaf issued', secretOnceIssued('leaf-tls'));
  const root = await getJson('secret', 'root-ca');
  expect(root.data['ca.crt']).toBe(root.data['tls.crt']);
  expect(leaf.data['ca.crt']).toBe(root.data['tls.crt']);
  expect(new X509Certificate(Buffer.from(leaf.data['tls.crt'], 'base64')).verify(new X509Certificate(Buffer.from(root.data['tls.crt'], 'base64')).publicKey)).toBe(true);
  expect(ready(await getJson('issuer', 'from-ca'))).toMatchObject({ status: 'True', reason: 'KeyPairVerified', message: 'Signing CA verified' });
  expect(ready(await getJson('certificate', 'orphan'))).toMatchObject({ status: 'False', message: 'Referenced "Issuer" not found: issuer.cert-manager.io "nowhere" not found' });
  expect(ready(await getJson('clusterissuer', 'letsencrypt'))).toMatchObject({ status: 'False', message: expect.stringContaining('selfSigned and ca issuers only (this ClusterIssuer has acme)') });
});
