/**
 * The ConversionReview exchange on its own, against an HTTPS webhook answering what each test sets: the
 * v1 and v1beta1 review versions, the response checks and their texts, and the metadata the server keeps.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateServingCertificates } from '../tls/certificates.js';
import type { KubeObject } from '../store/object-store.js';
import { ConversionError, convertThroughWebhook } from './conversion-webhook.js';

let server: Server;
let caBundle: string;
let url: string;
/** Builds the webhook's answer from the review it received. */
let respond: (review: any) => unknown = () => ({});
const received: any[] = [];

beforeAll(async () => {
  const certs = await generateServingCertificates();
  caBundle = Buffer.from(certs.caCertPem).toString('base64');
  server = createServer({ cert: certs.serverCertPem, key: certs.serverKeyPem }, (req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      const review = JSON.parse(text);
      received.push(review);
      const answer = respond(review);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(typeof answer === 'string' ? answer : JSON.stringify(answer));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/convert`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

const crd = (reviewVersions: string[], clientConfig?: Record<string, unknown>): KubeObject =>
  ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', conversion: { strategy: 'Webhook', webhook: { clientConfig: clientConfig ?? { url, caBundle }, conversionReviewVersions: reviewVersions } } },
  }) as KubeObject;

const widget = (): KubeObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'default', uid: 'u-1', resourceVersion: '7', labels: { a: '1' }, finalizers: ['keep'] },
  spec: { size: 1 },
});

const settings = { resolve: undefined, timeoutMs: 2000 };
const success = (review: any, objects: unknown[]) => ({ apiVersion: review.apiVersion, kind: 'ConversionReview', response: { uid: review.request.uid, result: { status: 'Success' }, convertedObjects: objects } });
const converted = (review: any, patch: Record<string, any> = {}) => ({ ...review.request.objects[0], apiVersion: review.request.desiredAPIVersion, ...patch });

async function failure(reviewVersions = ['v1']): Promise<string> {
  try {
    await convertThroughWebhook(crd(reviewVersions), widget(), 'example.com/v2', settings);
  } catch (err) {
    expect(err).toBeInstanceOf(ConversionError);
    expect((err as ConversionError).status).toMatchObject({ code: 500, status: 'Failure' });
    expect((err as ConversionError).status.reason).toBeUndefined();
    return (err as Error).message;
  }
  throw new Error('the conversion succeeded');
}

test('an object already in the desired version is not sent', async () => {
  received.length = 0;
  const same = widget();
  expect(await convertThroughWebhook(crd(['v1']), same, 'example.com/v1', settings)).toBe(same);
  expect(received).toHaveLength(0);
});

test('the first review version the server knows is used: v1beta1 when listed first', async () => {
  received.length = 0;
  respond = (review) => ({ apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'ConversionReview', response: { uid: 'not checked for v1beta1', result: { status: 'Success' }, convertedObjects: [converted(review)] } });
  const out = await convertThroughWebhook(crd(['v1beta1', 'v1']), widget(), 'example.com/v2', settings);
  expect(out.apiVersion).toBe('example.com/v2');
  expect(received[0]).toMatchObject({ apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'ConversionReview', request: { desiredAPIVersion: 'example.com/v2' } });
});

test('the webhook may change labels and annotations; the rest of metadata is the original', async () => {
  respond = (review) => success(review, [converted(review, { metadata: { name: 'w', namespace: 'default', uid: 'u-1', labels: { b: '2' }, annotations: { note: 'x' }, finalizers: [], resourceVersion: '99' } })]);
  const out = await convertThroughWebhook(crd(['v1']), widget(), 'example.com/v2', settings);
  expect(out.metadata).toEqual({ name: 'w', namespace: 'default', uid: 'u-1', resourceVersion: '7', labels: { b: '2' }, annotations: { note: 'x' }, finalizers: ['keep'] });
});

test('responses the server does not accept', async () => {
  const gvk = 'example.com/v1, Kind=Widget';
  respond = (review) => ({ ...success(review, []), kind: 'AdmissionReview' });
  expect(await failure()).toBe(`conversion webhook for ${gvk} failed: expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1, Kind=AdmissionReview`);
  respond = () => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' });
  expect(await failure()).toBe(`conversion webhook for ${gvk} failed: no response provided`);
  respond = (review) => ({ ...success(review, []), response: { uid: review.request.uid, result: { status: 'Failure' } } });
  expect(await failure()).toBe(`conversion webhook for ${gvk} failed: response.result.status was 'Failure', not 'Success'`);
  respond = (review) => success(review, []);
  expect(await failure()).toBe(`conversion webhook for ${gvk} returned 0 objects, expected 1`);
  respond = (review) => success(review, [converted(review, { kind: 'Gadget' })]);
  expect(await failure()).toBe(`conversion webhook for ${gvk} returned invalid object at index 0: invalid kind (expected Widget, received Gadget)`);
  respond = (review) => success(review, [converted(review, { metadata: { ...review.request.objects[0].metadata, uid: 'u-2' } })]);
  expect(await failure()).toBe(`conversion webhook for ${gvk} returned invalid object: must have the same UID: u-1 != u-2`);
  respond = (review) => success(review, [converted(review, { metadata: { ...review.request.objects[0].metadata, namespace: 'other' } })]);
  expect(await failure()).toBe(`conversion webhook for ${gvk} returned invalid object: must have the same namespace: default != other`);
  respond = (review) => {
    const { metadata: _m, ...rest } = converted(review);
    return success(review, [{ ...rest, metadata: undefined }]);
  };
  expect(await failure()).toBe(`conversion webhook for ${gvk} returned invalid object: must have the same name: w != `);
  respond = (review) => success(review, [converted(review, { metadata: { ...review.request.objects[0].metadata, labels: { n: 1 } } })]);
  expect(await failure()).toBe(`conversion webhook for ${gvk} returned invalid metadata: metadata.labels[n] must be a string, but is number in converted object`);
  respond = () => 'not json';
  expect(await failure()).toMatch(new RegExp(`^conversion webhook for ${gvk} failed: the server responded with invalid JSON: `));
  expect(await failure(['v2'])).toBe('no supported conversion review versions');
});

test('a service reference that resolves nowhere is named by its in-cluster URL', async () => {
  const message = await convertThroughWebhook(crd(['v1'], { service: { name: 'conv', namespace: 'sys', path: '/convert', port: 8443 } }), widget(), 'example.com/v2', settings).catch((err: Error) => err.message);
  expect(message).toBe('conversion webhook for example.com/v1, Kind=Widget failed: Post "https://conv.sys.svc:8443/convert": service "conv" not found');
});
