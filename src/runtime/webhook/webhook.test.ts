/** The webhook server over HTTPS: defaulting patches, validation verdicts, conversion, and the patch diff. */
import https from 'node:https';
import type { KubeObject } from '../client/object.js';
import { KindRegistry } from '../client/kinds.js';
import { runDefaulter, type Defaulter } from './admission.js';
import { jsonPatchDiff } from './json-patch-diff.js';
import { WebhookServer } from './server.js';

interface Widget extends KubeObject {
  spec?: { size?: number; color?: string; tags?: string[] };
}
const WidgetKind = new KindRegistry().register<Widget>({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });

let server: WebhookServer;
let port: number;

beforeAll(async () => {
  server = new WebhookServer();
  server.registerDefaulter(WidgetKind, { default: (w) => void (w.spec = { size: 1, ...w.spec }) });
  server.registerValidator(WidgetKind, {
    validateCreate: (w) => {
      if ((w.spec?.size ?? 0) > 10) throw new Error('spec.size: Invalid value: 11: must be at most 10');
      return w.spec?.color ? [] : ['spec.color is unset; defaulting to none'];
    },
    validateUpdate: (oldW, newW) => {
      if (oldW.spec?.color !== newW.spec?.color) throw Object.assign(new Error('spec.color is immutable'), { code: 422, reason: 'Invalid' });
    },
  });
  server.registerConverter((obj, desired) => ({ ...obj, apiVersion: desired }));
  port = await server.start();
});
afterAll(async () => server.stop());

function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, path, method: 'POST', ca: server.caPem(), headers: { 'Content-Type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const review = (operation: string, object?: Widget, oldObject?: Widget) => ({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request: { uid: 'u-1', kind: { group: 'example.com', version: 'v1', kind: 'Widget' }, operation, object, oldObject },
});

const widget = (spec: Widget['spec']): Widget => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec });

describe('WebhookServer over HTTPS with its self-signed CA', () => {
  test('a defaulter answers with a JSON patch at kubebuilder’s mutate path', async () => {
    expect(server.paths()).toEqual(['/mutate-example-com-v1-widget', '/validate-example-com-v1-widget', '/convert']);
    const res = await post('/mutate-example-com-v1-widget', review('CREATE', widget({ color: 'red' })));
    expect(res.status).toBe(200);
    expect(res.body.response).toMatchObject({ uid: 'u-1', allowed: true, patchType: 'JSONPatch' });
    expect(JSON.parse(Buffer.from(res.body.response.patch, 'base64').toString())).toEqual([{ op: 'add', path: '/spec/size', value: 1 }]);
    const untouched = await post('/mutate-example-com-v1-widget', review('CREATE', widget({ size: 3 })));
    expect(untouched.body.response).toEqual({ uid: 'u-1', allowed: true });
  });

  test('a validator admits with warnings or denies with the thrown message', async () => {
    const ok = await post('/validate-example-com-v1-widget', review('CREATE', widget({ size: 2 })));
    expect(ok.body.response).toEqual({ uid: 'u-1', allowed: true, warnings: ['spec.color is unset; defaulting to none'] });
    const tooBig = await post('/validate-example-com-v1-widget', review('CREATE', widget({ size: 11, color: 'x' })));
    expect(tooBig.body.response).toEqual({ uid: 'u-1', allowed: false, status: { code: 403, reason: 'Forbidden', message: 'spec.size: Invalid value: 11: must be at most 10' } });
    const immutable = await post('/validate-example-com-v1-widget', review('UPDATE', widget({ color: 'b' }), widget({ color: 'a' })));
    // an error carrying a Kubernetes status keeps it, as controller-runtime does for apierrors
    expect(immutable.body.response.status).toEqual({ code: 422, reason: 'Invalid', message: 'spec.color is immutable' });
  });

  test('a converter answers a ConversionReview; unknown paths are 404 and bad bodies 400', async () => {
    const res = await post('/convert', { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'c-1', desiredAPIVersion: 'example.com/v2', objects: [widget({})] } });
    expect(res.body.response).toMatchObject({ uid: 'c-1', result: { status: 'Success' }, convertedObjects: [{ apiVersion: 'example.com/v2', kind: 'Widget' }] });
    expect((await post('/nope', review('CREATE'))).status).toBe(404);
    expect((await post('/convert', { nothing: true })).status).toBe(400);
  });
});

describe('runDefaulter warnings', () => {
  const warnIfUncolored: Defaulter<Widget> = {
    default: (w) => {
      if (w.spec?.color) return;
      w.spec = { ...w.spec, color: 'grey' };
      return ['spec.color was unset and is now grey'];
    },
  };
  const request = (object: Widget) => ({ uid: 'u-2', kind: { group: 'example.com', version: 'v1', kind: 'Widget' }, operation: 'CREATE' as const, object });

  test('warnings a defaulter returns go into the response next to its patch', async () => {
    const res = await runDefaulter(warnIfUncolored, request(widget({ size: 1 })));
    expect(res).toMatchObject({ allowed: true, patchType: 'JSONPatch', warnings: ['spec.color was unset and is now grey'] });
    expect(JSON.parse(Buffer.from(res.patch!, 'base64').toString())).toEqual([{ op: 'add', path: '/spec/color', value: 'grey' }]);
  });

  test('warnings without a change still reach the response; no warnings leave none', async () => {
    const onlyWarn: Defaulter<Widget> = { default: async () => ['just saying'] };
    expect(await runDefaulter(onlyWarn, request(widget({ size: 1 })))).toEqual({ uid: 'u-2', allowed: true, warnings: ['just saying'] });
    expect(await runDefaulter(warnIfUncolored, request(widget({ color: 'red' })))).toEqual({ uid: 'u-2', allowed: true });
  });
});

describe('jsonPatchDiff', () => {
  test('adds, removes and replaces with escaped keys; arrays are replaced whole', () => {
    expect(jsonPatchDiff({ a: 1, b: { 'x/y': 1, gone: true }, l: [1, 2] }, { a: 2, b: { 'x/y': 2, 'n~': 0 }, l: [1, 3] })).toEqual([
      { op: 'replace', path: '/a', value: 2 },
      { op: 'remove', path: '/b/gone' },
      { op: 'replace', path: '/b/x~1y', value: 2 },
      { op: 'add', path: '/b/n~0', value: 0 },
      { op: 'replace', path: '/l', value: [1, 3] },
    ]);
    expect(jsonPatchDiff({ a: [1] }, { a: [1] })).toEqual([]);
  });
});
