/** registerWebhooks wires the manager's conversion webhook into the CRDs of the kinds it converts. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BuiltinKinds, KindRegistry } from '../runtime/client/kinds.js';
import type { KubeObject } from '../runtime/client/object.js';
import { KindConversion } from '../runtime/webhook/conversion.js';
import { WebhookServer } from '../runtime/webhook/server.js';
import { startTestEnv, type TestEnv } from './test-env.js';
import { registerWebhooks } from './webhook-registration.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const crdFile = path.join(here, 'testdata', 'thermostats-crd.yaml');
const admissionManifests = path.join(here, 'testdata', 'webhook-manifests.yaml');

type ThermostatV1 = KubeObject & { spec?: { celsius?: number } };
type ThermostatV2 = KubeObject & { spec?: { fahrenheit?: number } };
const kinds = new KindRegistry();
const ThermostatV1Kind = kinds.register<ThermostatV1>({ group: 'example.com', version: 'v1', kind: 'Thermostat', plural: 'thermostats', namespaced: true });
const ThermostatV2Kind = kinds.register<ThermostatV2>({ group: 'example.com', version: 'v2', kind: 'Thermostat', plural: 'thermostats', namespaced: true });
const WidgetKind = kinds.register({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });

const thermostatConversion = new KindConversion(ThermostatV1Kind).spoke({
  spoke: ThermostatV2Kind,
  convertTo(spoke, hub) {
    if (spoke.spec?.fahrenheit !== undefined) hub.spec = { celsius: Math.round(((spoke.spec.fahrenheit - 32) * 5) / 9) };
  },
  convertFrom(hub, spoke) {
    if (hub.spec?.celsius !== undefined) spoke.spec = { fahrenheit: Math.round((hub.spec.celsius * 9) / 5 + 32) };
  },
});

type Crd = KubeObject & { spec: { conversion?: { strategy: string; webhook?: { clientConfig?: { url?: string; caBundle?: string }; conversionReviewVersions?: string[] } } } };

describe('registerWebhooks with a conversion webhook', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await startTestEnv({ crdPaths: [crdFile] });
    env.manager.webhookFor(ThermostatV1Kind).withConversion(thermostatConversion).complete();
    await env.startManager();
  });
  afterAll(async () => env?.stop());

  const crd = async (): Promise<Crd> => (await env.manager.apiReader().get(BuiltinKinds.CustomResourceDefinition, { name: 'thermostats.example.com' })) as Crd;

  it('a converted kind whose CRD is not installed is an error naming it, and nothing is written', async () => {
    const server = new WebhookServer();
    server.registerConversion(thermostatConversion);
    server.registerConversion(new KindConversion(WidgetKind));
    await server.start();
    try {
      expect(server.convertedKinds()).toEqual(['Thermostat.example.com', 'Widget.example.com']);
      await expect(registerWebhooks(env.manager.apiReader(), server, admissionManifests)).rejects.toThrow(
        'the webhook server converts Widget.example.com, but the cluster has no CustomResourceDefinition for it (install config/crd/bases first)',
      );
      expect((await crd()).spec.conversion).toEqual({ strategy: 'None' });
      expect(await env.manager.apiReader().list(BuiltinKinds.MutatingWebhookConfiguration)).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('with no manifests file (a project with only a conversion webhook), the CRD gets strategy Webhook at /convert with the server CA', async () => {
    const written = await registerWebhooks(env.manager.apiReader(), env.manager.webhookServer, []);
    expect(written.map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual(['CustomResourceDefinition/thermostats.example.com']);
    const conversion = (await crd()).spec.conversion!;
    expect(conversion).toEqual({
      strategy: 'Webhook',
      webhook: { clientConfig: { url: `https://127.0.0.1:${env.manager.webhookServer.port}/convert`, caBundle: Buffer.from(env.manager.webhookServer.caPem()).toString('base64') }, conversionReviewVersions: ['v1'] },
    });
  });

  it('the cluster then converts through the manager: created in v2 with kubectl, read in v1, and the reverse', async () => {
    const created = await env.kubectl(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'example.com/v2', kind: 'Thermostat', metadata: { name: 'hall', namespace: 'default' }, spec: { fahrenheit: 212 } }) });
    expect(created).toMatchObject({ code: 0, stderr: '' });
    const v1 = await env.kubectl(['get', 'thermostats.v1.example.com', 'hall', '-n', 'default', '-o', 'json']);
    expect(JSON.parse(v1.stdout)).toMatchObject({ apiVersion: 'example.com/v1', spec: { celsius: 100 } });
    const createdV1 = await env.kubectl(['create', '-f', '-'], { input: JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Thermostat', metadata: { name: 'porch', namespace: 'default' }, spec: { celsius: 0 } }) });
    expect(createdV1).toMatchObject({ code: 0, stderr: '' });
    const v2 = await env.kubectl(['get', 'thermostats.v2.example.com', 'porch', '-n', 'default', '-o', 'json']);
    expect(JSON.parse(v2.stdout)).toMatchObject({ apiVersion: 'example.com/v2', spec: { fahrenheit: 32 } });
  });

  it('with admission manifests too, both are registered; registering again keeps one conversion', async () => {
    const written = await registerWebhooks(env.manager.apiReader(), env.manager.webhookServer, admissionManifests);
    expect(written.map((o) => o.kind)).toEqual(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration', 'CustomResourceDefinition']);
    expect((await crd()).spec.conversion?.strategy).toBe('Webhook');
  });
});
