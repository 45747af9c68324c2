/**
 * Admission webhooks also see the writes the built-in controllers make in-process (§7.1): the Job
 * controller's pods are mutated by a MutatingWebhookConfiguration and refused by a validating one,
 * with the controller's identity in the AdmissionReview, exactly as kube-controller-manager's are.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateServingCertificates } from '../../src/cluster/tls/certificates.js';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite({ pods: 'inert' });
const kubectl = suite.kubectl;
let webhookServer: Server;
const reviews: Array<Record<string, any>> = [];

beforeAll(async () => {
  const certs = await generateServingCertificates();
  const caBundle = Buffer.from(certs.caCertPem).toString('base64');
  webhookServer = createServer({ cert: certs.serverCertPem, key: certs.serverKeyPem }, (req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const review = JSON.parse(text);
      reviews.push({ path: req.url?.split('?')[0], ...review.request });
      const { uid, object } = review.request;
      let response: Record<string, unknown> = { uid, allowed: true };
      if (req.url?.startsWith('/mutate')) {
        const patch = [{ op: 'add', path: '/metadata/labels/sidecar', value: 'injected' }];
        response = { uid, allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(patch)).toString('base64') };
      } else if (req.url?.startsWith('/validate-delete') && review.request.oldObject?.metadata?.labels?.keep === 'true') {
        response = { uid, allowed: false, status: { code: 403, reason: 'Forbidden', message: 'kept' } };
      } else if (req.url?.startsWith('/validate') && object?.metadata?.labels?.deny === 'true') {
        response = { uid, allowed: false, status: { code: 403, reason: 'Forbidden', message: 'pods labelled deny are not allowed' } };
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
    });
  });
  await new Promise<void>((r) => webhookServer.listen(0, '127.0.0.1', () => r()));
  const port = (webhookServer.address() as AddressInfo).port;
  const rules = [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }];
  const common = { admissionReviewVersions: ['v1'], sideEffects: 'None', rules };
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'pods-m' },
    webhooks: [{ name: 'mpod.kubeforge.io', clientConfig: { url: `https://127.0.0.1:${port}/mutate`, caBundle }, ...common }],
  }));
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'pods-v' },
    webhooks: [{ name: 'vpod.kubeforge.io', clientConfig: { url: `https://127.0.0.1:${port}/validate`, caBundle }, ...common }],
  }));
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'cm-delete' },
    webhooks: [{
      name: 'vcmdelete.kubeforge.io', clientConfig: { url: `https://127.0.0.1:${port}/validate-delete`, caBundle },
      admissionReviewVersions: ['v1'], sideEffects: 'None', rules: [{ operations: ['DELETE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    }],
  }));
});

afterAll(async () => {
  await new Promise((r) => webhookServer.close(r));
});

const job = (name: string, labels: Record<string, string>) =>
  JSON.stringify({
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name },
    spec: { template: { metadata: { labels }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox' }] } } },
  });

test("the Job controller's pods go through the mutating and validating webhooks under its own identity", async () => {
  await kubectl.ok(['create', '-f', '-'], job('ok', { app: 'ok' }));
  await suite.cluster.settle();
  const pods = JSON.parse(await kubectl.ok(['get', 'pods', '-l', 'job-name=ok', '-o', 'json'])).items;
  expect(pods).toHaveLength(1);
  expect(pods[0].metadata.labels).toMatchObject({ app: 'ok', sidecar: 'injected' });
  const seen = reviews.filter((r) => r.object?.metadata?.labels?.app === 'ok');
  expect(seen.map((r) => r.path)).toEqual(['/mutate', '/validate']);
  expect(seen[0]!.userInfo.username).toBe('system:serviceaccount:kube-system:job-controller');
  expect(seen[0]!.operation).toBe('CREATE');
  expect(seen[1]!.object.metadata.labels.sidecar).toBe('injected');
  // one logged create, under the controller's identity
  const creates = suite.cluster.requestLog().filter((e) => e.verb === 'create' && e.resource === 'pods' && e.namespace === 'default');
  expect(creates.map((e) => [e.user, e.code])).toEqual([['system:serviceaccount:kube-system:job-controller', 201]]);
});

test("a validating webhook's denial stops the controller's pod, which it retries on the cluster clock", async () => {
  await kubectl.ok(['create', '-f', '-'], job('denied', { deny: 'true' }));
  await suite.cluster.settle();
  expect(await kubectl.ok(['get', 'pods', '-l', 'job-name=denied', '-o', 'name'])).toBe('');
  const denials = () => suite.cluster.requestLog().filter((e) => e.resource === 'pods' && e.verb === 'create' && e.code === 403);
  expect(denials().length).toBe(1);
  expect(denials()[0]!.user).toBe('system:serviceaccount:kube-system:job-controller');
  await suite.cluster.clock.advance(1000);
  await suite.cluster.settle();
  expect(denials().length).toBe(2);
  expect(await kubectl.ok(['get', 'pods', '-l', 'job-name=denied', '-o', 'name'])).toBe('');
});

test("the garbage collector's deletes go through the webhooks too: a denied dependent stays", async () => {
  await kubectl.ok(['create', 'configmap', 'owner']);
  const uid = (await kubectl.ok(['get', 'configmap', 'owner', '-o', 'jsonpath={.metadata.uid}'])).trim();
  const child = (name: string, labels: Record<string, string>) =>
    JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, labels, ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid }] } });
  await kubectl.ok(['create', '-f', '-'], child('child-free', { keep: 'false' }));
  await kubectl.ok(['create', '-f', '-'], child('child-kept', { keep: 'true' }));
  await kubectl.ok(['delete', 'configmap', 'owner', '--cascade=background']);
  await suite.cluster.settle();
  expect((await kubectl.ok(['get', 'configmaps', '-o', 'name'])).split('\n')).toEqual(expect.arrayContaining(['configmap/child-kept']));
  expect(await kubectl.ok(['get', 'configmaps', '-o', 'name'])).not.toContain('child-free');
  const gcDeletes = reviews.filter((r) => r.operation === 'DELETE' && r.userInfo.username === 'system:serviceaccount:kube-system:generic-garbage-collector');
  expect(gcDeletes.map((r) => r.name).sort()).toEqual(['child-free', 'child-kept']);
  const refused = suite.cluster.requestLog().filter((e) => e.verb === 'delete' && e.name === 'child-kept');
  expect(refused.map((e) => [e.user, e.code])).toEqual([['system:serviceaccount:kube-system:generic-garbage-collector', 403]]);
});
