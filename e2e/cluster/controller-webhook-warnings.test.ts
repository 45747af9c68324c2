/**
 * Admission webhook warnings: a client's write gets them as Warning headers (kubectl prints them);
 * a built-in controller's write has no client, so, as kube-controller-manager logs them, they are kept
 * on the write's request log entry (and in the entry of a client's write, too).
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateServingCertificates } from '../../src/cluster/tls/certificates.js';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite({ pods: 'inert' });
const kubectl = suite.kubectl;
let webhookServer: Server;

beforeAll(async () => {
  const certs = await generateServingCertificates();
  webhookServer = createServer({ cert: certs.serverCertPem, key: certs.serverKeyPem }, (req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const review = JSON.parse(text);
      const name = review.request.object?.metadata?.generateName ?? review.request.object?.metadata?.name;
      const warnings = [`${req.url?.startsWith('/mutate') ? 'mutating' : 'validating'} webhook saw ${review.request.operation} ${name}`];
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true, warnings } }));
    });
  });
  await new Promise<void>((r) => webhookServer.listen(0, '127.0.0.1', () => r()));
  const port = (webhookServer.address() as AddressInfo).port;
  const caBundle = Buffer.from(certs.caCertPem).toString('base64');
  const common = { admissionReviewVersions: ['v1'], sideEffects: 'None', rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }] };
  for (const [kind, path] of [['MutatingWebhookConfiguration', 'mutate'], ['ValidatingWebhookConfiguration', 'validate']] as const) {
    await kubectl.ok(['create', '-f', '-'], JSON.stringify({
      apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name: `pods-${path}` },
      webhooks: [{ name: `${path}.pods.kubeforge.io`, clientConfig: { url: `https://127.0.0.1:${port}/${path}`, caBundle }, ...common }],
    }));
  }
});

afterAll(() => new Promise((r) => webhookServer.close(r)));

test("a client's write: kubectl prints the warnings, and the request log keeps them", async () => {
  const r = await kubectl.run(['run', 'direct', '--image=busybox', '--restart=Never']);
  expect(r.code).toBe(0);
  expect(r.stderr).toContain('Warning: mutating webhook saw CREATE direct');
  expect(r.stderr).toContain('Warning: validating webhook saw CREATE direct');
  const entry = suite.cluster.requestLog().find((e) => e.method === 'POST' && e.resource === 'pods' && e.user === 'kubeforge-admin');
  expect(entry?.warnings).toEqual(['mutating webhook saw CREATE direct', 'validating webhook saw CREATE direct']);
});

test("a built-in controller's write: the webhooks' warnings are on its request log entry", async () => {
  await kubectl.ok(['create', 'job', 'work', '--image=busybox']);
  await suite.cluster.settle();
  const creates = suite.cluster.requestLog().filter((e) => e.method === 'POST' && e.resource === 'pods' && e.user === 'system:serviceaccount:kube-system:job-controller');
  expect(creates).toHaveLength(1);
  expect(creates[0]!.code).toBe(201);
  expect(creates[0]!.warnings).toEqual(['mutating webhook saw CREATE work-', 'validating webhook saw CREATE work-']);
  // writes without webhooks carry none
  const jobStatus = suite.cluster.requestLog().filter((e) => e.user === 'system:serviceaccount:kube-system:job-controller' && e.resource === 'jobs');
  expect(jobStatus.length).toBeGreaterThan(0);
  expect(jobStatus.every((e) => e.warnings === undefined)).toBe(true);
});
