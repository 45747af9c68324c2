/**
 * When pods cannot be created (here a validating admission webhook refuses them), the ReplicaSet
 * controller reports it as kube-controller-manager does: FailedCreate events with the server's message,
 * a ReplicaFailure condition on the ReplicaSet that the Deployment copies, retries with backoff on the
 * cluster clock, and the condition cleared once creations succeed.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { stringify } from 'yaml';
import { generateServingCertificates } from '../../src/cluster/tls/certificates.js';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;
let webhookServer: Server;

beforeAll(async () => {
  const certs = await generateServingCertificates();
  webhookServer = createServer({ cert: certs.serverCertPem, key: certs.serverKeyPem }, (req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const { uid, object } = JSON.parse(text).request;
      const allowed = object?.metadata?.labels?.deny !== 'true';
      const response = allowed ? { uid, allowed } : { uid, allowed, status: { code: 403, reason: 'Forbidden', message: 'pods labelled deny are not allowed' } };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response }));
    });
  });
  await new Promise<void>((r) => webhookServer.listen(0, '127.0.0.1', () => r()));
  const port = (webhookServer.address() as AddressInfo).port;
  await kubectl.ok(['create', '-f', '-'], JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'deny-pods' },
    webhooks: [{
      name: 'vpod.kubeforge.io', clientConfig: { url: `https://127.0.0.1:${port}/validate`, caBundle: Buffer.from(certs.caCertPem).toString('base64') },
      admissionReviewVersions: ['v1'], sideEffects: 'None', rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }],
    }],
  }));
});

afterAll(async () => {
  await new Promise((r) => webhookServer.close(r));
});

// state the tests check, read in-process (no kubectl start: kubectl's own output is checked where it is the point)
const getJson = (args: string[]): Promise<any> => suite.getJson(args);

test('refused pod creations: FailedCreate events, ReplicaFailure on the ReplicaSet and the Deployment, cleared after', async () => {
  await kubectl.ok(['apply', '-f', '-'], stringify({
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'denied' },
    spec: { replicas: 2, selector: { matchLabels: { app: 'denied' } }, template: { metadata: { labels: { app: 'denied', deny: 'true' } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } } },
  }));
  await suite.cluster.settle();
  const [rs] = (await getJson(['get', 'rs', '-l', 'app=denied'])).items;
  const failure = rs.status.conditions.find((c: any) => c.type === 'ReplicaFailure');
  expect(failure).toMatchObject({ status: 'True', reason: 'FailedCreate' });
  expect(failure.message).toContain('admission webhook "vpod.kubeforge.io" denied the request: pods labelled deny are not allowed');
  expect(rs.status.replicas).toBe(0);
  const events = (await getJson(['get', 'events', '--field-selector', `involvedObject.name=${rs.metadata.name},reason=FailedCreate`])).items;
  // slow start: the first batch is one pod; it failed, so nothing more was tried in that sync
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({ type: 'Warning', message: `Error creating: ${failure.message}`, source: { component: 'replicaset-controller' } });
  const d = await getJson(['get', 'deployment', 'denied']);
  expect(d.status.conditions.find((c: any) => c.type === 'ReplicaFailure')).toMatchObject({ status: 'True', reason: 'FailedCreate', message: failure.message });

  // the controller retries with backoff on the cluster clock: the same event is counted again
  const before = events[0].count;
  await suite.cluster.clock.advance(1000);
  const again = (await getJson(['get', 'events', '--field-selector', `involvedObject.name=${rs.metadata.name},reason=FailedCreate`])).items;
  expect(again[0].count).toBe(before + 1);

  await kubectl.ok(['delete', 'validatingwebhookconfiguration', 'deny-pods']);
  // the next retry comes within the backoff (1 s doubling per failure)
  await suite.cluster.clock.advance(30_000);
  const healed = await getJson(['get', 'rs', rs.metadata.name]);
  expect(healed.status.conditions).toBeUndefined();
  expect(healed.status).toMatchObject({ replicas: 2, readyReplicas: 2, availableReplicas: 2 });
  expect((await getJson(['get', 'deployment', 'denied'])).status.conditions.map((c: any) => c.type)).toEqual(['Available', 'Progressing']);
});
