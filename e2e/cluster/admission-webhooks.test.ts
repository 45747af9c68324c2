/**
 * Admission webhooks over HTTPS, verified with caBundle: a mutating webhook's JSON patch is applied,
 * a validating webhook denies with its message, object selectors and failurePolicy are honoured.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateServingCertificates } from '../../src/cluster/tls/certificates.js';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;
let webhookServer: Server;
let caBundle: string;
let port: number;
const reviews: Array<Record<string, any>> = [];

beforeAll(async () => {
  const certs = await generateServingCertificates();
  caBundle = Buffer.from(certs.caCertPem).toString('base64');
  webhookServer = createServer({ cert: certs.serverCertPem, key: certs.serverKeyPem }, (req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const review = JSON.parse(text);
      reviews.push(review.request);
      const { uid, object } = review.request;
      let response: Record<string, unknown> = { uid, allowed: true };
      if (req.url?.startsWith('/mutate')) {
        const patch = [{ op: 'add', path: '/metadata/labels', value: { ...(object.metadata.labels ?? {}), mutated: 'yes' } }];
        response = { uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
      } else if (req.url?.startsWith('/validate') && object?.data?.forbidden) {
        response = { uid, allowed: false, status: { code: 403, reason: 'Forbidden', message: 'data.forbidden is not allowed' } };
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
    });
  });
  await new Promise<void>((r) => webhookServer.listen(0, '127.0.0.1', () => r()));
  port = (webhookServer.address() as AddressInfo).port;
  const rules = [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }];
  const common = { admissionReviewVersions: ['v1'], sideEffects: 'None', objectSelector: { matchLabels: { checked: 'true' } } };
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'm' },
    webhooks: [{ name: 'mcm.kubeforge.io', clientConfig: { url: `https://127.0.0.1:${port}/mutate`, caBundle }, rules, ...common }],
  }));
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'v' },
    webhooks: [{ name: 'vcm.kubeforge.io', clientConfig: { url: `https://127.0.0.1:${port}/validate`, caBundle }, rules, ...common }],
  }));
});

afterAll(async () => {
  await new Promise((r) => webhookServer.close(r));
});

const cm = (name: string, labels: Record<string, string>, data: Record<string, string> = {}): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels }, data });

test('a mutating webhook patches matching objects; validating webhooks see the mutated object', async () => {
  await kubectl.ok(['apply', '-f', '-'], cm('a', { checked: 'true' }));
  expect(JSON.parse(await kubectl.ok(['get', 'cm', 'a', '-o', 'json'])).metadata.labels).toEqual({ checked: 'true', mutated: 'yes' });
  const validated = reviews.filter((r) => r.name === 'a' && r.operation === 'CREATE');
  expect(validated.length).toBe(2);
  expect(validated[1]!.object.metadata.labels.mutated).toBe('yes');
  expect(validated[0]).toMatchObject({ kind: { group: '', version: 'v1', kind: 'ConfigMap' }, resource: { resource: 'configmaps' }, namespace: 'default', userInfo: { username: 'kubeforge-admin' } });
});

test('objects outside the object selector are not sent to the webhooks', async () => {
  const before = reviews.length;
  await kubectl.ok(['apply', '-f', '-'], cm('b', { checked: 'false' }));
  expect(reviews.length).toBe(before);
  expect(JSON.parse(await kubectl.ok(['get', 'cm', 'b', '-o', 'json'])).metadata.labels).toEqual({ checked: 'false' });
});

test('a validating webhook denial is the request error, and nothing is stored', async () => {
  const r = await kubectl.run(['apply', '-f', '-'], cm('c', { checked: 'true' }, { forbidden: 'x' }));
  expect(r.stderr).toContain('admission webhook "vcm.kubeforge.io" denied the request: data.forbidden is not allowed');
  expect((await kubectl.run(['get', 'cm', 'c'])).code).toBe(1);
  const update = await kubectl.run(['patch', 'cm', 'a', '--type=merge', '-p', '{"data":{"forbidden":"y"}}']);
  expect(update.stderr).toContain('denied the request: data.forbidden is not allowed');
});

test('an unreachable webhook fails the request with failurePolicy Fail, and is skipped with Ignore', async () => {
  const broken = { name: 'down.kubeforge.io', clientConfig: { url: 'https://127.0.0.1:1/down', caBundle }, admissionReviewVersions: ['v1'], sideEffects: 'None', rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['secrets'] }] };
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'down' }, webhooks: [broken] }));
  const r = await kubectl.run(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } }));
  expect(r.stderr).toContain('Internal error occurred: failed calling webhook "down.kubeforge.io": failed to call webhook: Post "https://127.0.0.1:1/down"');
  await kubectl.ok(['patch', 'validatingwebhookconfiguration', 'down', '--type=json', '-p', '[{"op":"replace","path":"/webhooks/0/failurePolicy","value":"Ignore"}]']);
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's1' } }));
});

test('a service reference resolves to the Service targetPort on 127.0.0.1', async () => {
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'webhook-service' }, spec: { ports: [{ port: 443, targetPort: port }] } }));
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'svc' },
    webhooks: [{
      name: 'vsvc.kubeforge.io', clientConfig: { service: { name: 'webhook-service', namespace: 'default', path: '/validate' }, caBundle },
      admissionReviewVersions: ['v1'], sideEffects: 'None', rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    }],
  }));
  const r = await kubectl.run(['create', '-f', '-'], cm('d', {}, { forbidden: 'z' }));
  expect(r.stderr).toContain('admission webhook "vsvc.kubeforge.io" denied the request: data.forbidden is not allowed');
});
