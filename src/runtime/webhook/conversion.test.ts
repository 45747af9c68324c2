/**
 * Hub-and-spoke conversion as controller-runtime's conversion webhook does it: spoke → hub, hub → spoke
 * and spoke → hub → spoke, the ConversionReview exchange (uid echoed, every object's apiVersion set,
 * `Failure` with the error's message), registered once per manager by the webhook builder and answered
 * over HTTPS by the manager's webhook server.
 */
import https from 'node:https';
import { Kubeconfig } from '../client/kubeconfig.js';
import pino from 'pino';
import { ManualClock } from '../../testing/manual-clock.js';
import { KindRegistry } from '../client/kinds.js';
import type { KubeObject } from '../client/object.js';
import { Manager } from '../manager/manager.js';
import { ConversionWebhook, KindConversion, type Convertible } from './conversion.js';

/** The book's CronJob: v1 (the hub) has a cron string; v2 a struct; v3 (a second spoke) a list of fields. */
interface CronJobV1 extends KubeObject {
  spec?: { schedule: string; suspend?: boolean };
}
interface CronSchedule {
  minute?: string;
  hour?: string;
  dayOfMonth?: string;
  month?: string;
  dayOfWeek?: string;
}
interface CronJobV2 extends KubeObject {
  spec?: { schedule: CronSchedule; suspend?: boolean };
}
interface CronJobV3 extends KubeObject {
  spec?: { cron: string[]; paused?: boolean };
}

const kinds = new KindRegistry();
const base = { group: 'batch.tutorial.kubebuilder.io', kind: 'CronJob', plural: 'cronjobs', namespaced: true };
const V1 = kinds.register<CronJobV1>({ ...base, version: 'v1' });
const V2 = kinds.register<CronJobV2>({ ...base, version: 'v2' });
const V3 = kinds.register<CronJobV3>({ ...base, version: 'v3' });

const v2Spoke: Convertible<CronJobV2, CronJobV1> = {
  spoke: V2,
  convertTo(spoke, hub) {
    if (!spoke.spec) return;
    const s = spoke.spec.schedule;
    hub.spec = { schedule: [s.minute, s.hour, s.dayOfMonth, s.month, s.dayOfWeek].map((p) => p ?? '*').join(' '), ...(spoke.spec.suspend !== undefined ? { suspend: spoke.spec.suspend } : {}) };
  },
  convertFrom(hub, spoke) {
    if (!hub.spec) return;
    const parts = hub.spec.schedule.split(' ');
    if (parts.length !== 5) throw new Error(`spec.schedule "${hub.spec.schedule}" is not five fields`);
    const [minute, hour, dayOfMonth, month, dayOfWeek] = parts;
    spoke.spec = { schedule: { minute, hour, dayOfMonth, month, dayOfWeek }, ...(hub.spec.suspend !== undefined ? { suspend: hub.spec.suspend } : {}) };
  },
};
const v3Spoke: Convertible<CronJobV3, CronJobV1> = {
  spoke: V3,
  convertTo: (spoke, hub) => void (spoke.spec && (hub.spec = { schedule: spoke.spec.cron.join(' '), ...(spoke.spec.paused !== undefined ? { suspend: spoke.spec.paused } : {}) })),
  convertFrom: (hub, spoke) => void (hub.spec && (spoke.spec = { cron: hub.spec.schedule.split(' '), ...(hub.spec.suspend !== undefined ? { paused: hub.spec.suspend } : {}) })),
};
const conversion = () => new KindConversion(V1).spoke(v2Spoke).spoke(v3Spoke);

const meta = { name: 'nightly', namespace: 'default', uid: 'a-1', resourceVersion: '7', labels: { team: 'a' } };
const v1Job: CronJobV1 = { apiVersion: 'batch.tutorial.kubebuilder.io/v1', kind: 'CronJob', metadata: meta, spec: { schedule: '0 3 * * 1', suspend: true } };
const v2Job: CronJobV2 = { apiVersion: 'batch.tutorial.kubebuilder.io/v2', kind: 'CronJob', metadata: meta, spec: { schedule: { minute: '0', hour: '3', dayOfMonth: '*', month: '*', dayOfWeek: '1' }, suspend: true } };
const v3Job: CronJobV3 = { apiVersion: 'batch.tutorial.kubebuilder.io/v3', kind: 'CronJob', metadata: meta, spec: { cron: ['0', '3', '*', '*', '1'], paused: true } };

describe('KindConversion (hub and spokes)', () => {
  test('hub → spoke and spoke → hub, metadata carried over, the source untouched', async () => {
    const c = conversion();
    const before = JSON.stringify(v1Job);
    expect(await c.convert(v1Job, 'batch.tutorial.kubebuilder.io/v2')).toEqual(v2Job);
    expect(JSON.stringify(v1Job)).toBe(before);
    expect(await c.convert(v2Job, 'batch.tutorial.kubebuilder.io/v1')).toEqual(v1Job);
  });

  test('spoke → spoke goes through the hub', async () => {
    const c = conversion();
    expect(await c.convert(v2Job, 'batch.tutorial.kubebuilder.io/v3')).toEqual(v3Job);
    expect(await c.convert(v3Job, 'batch.tutorial.kubebuilder.io/v2')).toEqual(v2Job);
  });

  test('the same version, an unknown version and a foreign spoke are errors', async () => {
    const c = conversion();
    await expect(c.convert(v2Job, 'batch.tutorial.kubebuilder.io/v2')).rejects.toThrow('conversion is not allowed between same type batch.tutorial.kubebuilder.io/v2, Kind=CronJob');
    await expect(c.convert(v2Job, 'batch.tutorial.kubebuilder.io/v9')).rejects.toThrow(
      'desired apiVersion batch.tutorial.kubebuilder.io/v9 is not a version of CronJob.batch.tutorial.kubebuilder.io (it converts between batch.tutorial.kubebuilder.io/v1, batch.tutorial.kubebuilder.io/v2, batch.tutorial.kubebuilder.io/v3)',
    );
    const other = kinds.register<KubeObject>({ ...base, kind: 'Job', version: 'v2' });
    expect(() => new KindConversion(V1).spoke({ spoke: other, convertTo() {}, convertFrom() {} })).toThrow('Job.batch.tutorial.kubebuilder.io v2 cannot be a spoke of CronJob.batch.tutorial.kubebuilder.io');
    expect(() => new KindConversion(V1).spoke({ spoke: V1, convertTo() {}, convertFrom() {} })).toThrow('is the hub');
  });
});

describe('ConversionWebhook (the ConversionReview exchange)', () => {
  const webhook = new ConversionWebhook();
  webhook.add(conversion());

  test('converts every object, echoes the uid and sets each apiVersion', async () => {
    const answer = await webhook.review({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'r-1', desiredAPIVersion: 'batch.tutorial.kubebuilder.io/v2', objects: [v1Job, v3Job] } });
    expect(answer).toEqual({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      response: { uid: 'r-1', convertedObjects: [v2Job, v2Job], result: { metadata: {}, status: 'Success' } },
    });
  });

  test('a failing object fails the whole response with its message; v1beta1 is answered in v1beta1', async () => {
    const bad = { ...v1Job, spec: { schedule: '@daily' } };
    const answer = await webhook.review({ apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'ConversionReview', request: { uid: 'r-2', desiredAPIVersion: 'batch.tutorial.kubebuilder.io/v2', objects: [v1Job, bad] } });
    expect(answer).toEqual({
      apiVersion: 'apiextensions.k8s.io/v1beta1',
      kind: 'ConversionReview',
      response: { uid: 'r-2', convertedObjects: [], result: { metadata: {}, status: 'Failure', message: 'spec.schedule "@daily" is not five fields' } },
    });
  });

  test('a kind without a registered conversion fails with its name', async () => {
    const answer = await webhook.convert({ uid: 'r-3', desiredAPIVersion: 'other.example.com/v2', objects: [{ apiVersion: 'other.example.com/v1', kind: 'Thing', metadata: { name: 't' } }] });
    expect(answer.result).toEqual({ metadata: {}, status: 'Failure', message: 'no conversion registered for Thing.other.example.com (other.example.com/v1)' });
  });
});

describe('the manager’s webhook server answers POST /convert over HTTPS', () => {
  const kubeConfig = new Kubeconfig([{ name: 'c', server: 'https://127.0.0.1:1' }], [{ name: 'u' }], [{ name: 'x', cluster: 'c', user: 'u' }], 'x');
  const mgr = new Manager({ kubeConfig, kinds, clock: new ManualClock(0), logger: pino({ level: 'silent' }) });
  let port = 0;

  beforeAll(async () => {
    // Two kinds with conversions and an admission webhook: /convert is registered once.
    const widgetV1 = kinds.register<KubeObject>({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
    const widgetV2 = kinds.register<KubeObject & { spec?: { size?: number } }>({ group: 'example.com', version: 'v2', kind: 'Widget', plural: 'widgets', namespaced: true });
    const widgets = new KindConversion(widgetV1).spoke({ spoke: widgetV2, convertTo: (s, h) => void Object.assign(h, { spec: s.spec }), convertFrom: (h, s) => void Object.assign(s, { spec: (h as { spec?: { size?: number } }).spec }) });
    expect(mgr.webhookFor(V1).withDefaulter({ default: () => {} }).withConversion(conversion()).complete()).toEqual(['/mutate-batch-tutorial-kubebuilder-io-v1-cronjob', '/convert']);
    expect(mgr.webhookFor(widgetV2).withConversion(widgets).complete()).toEqual(['/convert']);
    expect(() => mgr.webhookFor(widgetV1).withConversion(conversion())).toThrow('webhookFor(Widget.example.com).withConversion: the conversion is for CronJob.batch.tutorial.kubebuilder.io');
    expect(mgr.webhookServer.paths()).toEqual(['/mutate-batch-tutorial-kubebuilder-io-v1-cronjob', '/convert']);
    port = await mgr.webhookServer.start();
  });
  afterAll(async () => mgr.webhookServer.stop());

  function post(body: unknown): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const req = https.request({ host: '127.0.0.1', port, path: '/convert', method: 'POST', ca: mgr.webhookServer.caPem(), headers: { 'Content-Type': 'application/json' } }, (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text }));
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  }

  test('both kinds convert through the one handler', async () => {
    const res = await post({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'h-1', desiredAPIVersion: 'batch.tutorial.kubebuilder.io/v1', objects: [v2Job] } });
    expect(res).toEqual({ status: 200, body: { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: 'h-1', convertedObjects: [v1Job], result: { metadata: {}, status: 'Success' } } } });
    const widget = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 3 } };
    const res2 = await post({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'h-2', desiredAPIVersion: 'example.com/v2', objects: [widget] } });
    expect(res2.body.response).toEqual({ uid: 'h-2', convertedObjects: [{ ...widget, apiVersion: 'example.com/v2' }], result: { metadata: {}, status: 'Success' } });
  });

  test('a review of another kind or without its fields is a 400', async () => {
    expect(await post({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', request: { uid: 'x' } })).toMatchObject({ status: 400, body: expect.stringContaining('unsupported review admission.k8s.io/v1 AdmissionReview') });
    expect(await post({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', request: { uid: 'x' } })).toMatchObject({ status: 400, body: expect.stringContaining('conversion request needs uid, desiredAPIVersion and objects') });
  });
});
