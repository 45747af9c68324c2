/** The manager's webhook server under startTestEnv, and registering a project's webhook configurations. */
import https from 'node:https';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BuiltinKinds, KindRegistry } from '../runtime/client/kinds.js';
import { startTestEnv, type TestEnv } from './test-env.js';
import { registerWebhooks } from './webhook-registration.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const manifests = path.join(here, 'testdata', 'webhook-manifests.yaml');
const WidgetKind = new KindRegistry().register({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({ authz: 'alwaysAllow' });
  env.manager.webhookServer.registerDefaulter(WidgetKind, { default: () => {} });
  env.manager.webhookServer.registerValidator(WidgetKind, {});
  await env.startManager();
});
afterAll(async () => env?.stop());

function postReview(url: string, ca: string): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const req = https.request(url, { method: 'POST', ca, headers: { 'Content-Type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve(text));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ request: { uid: 'x', operation: 'CREATE', object: { apiVersion: 'example.com/v1', kind: 'Widget' } } }));
  });
}

test('startManager starts the webhook server over HTTPS with a self-signed CA', async () => {
  const port = env.manager.webhookServer.port!;
  const answer = await postReview(`https://127.0.0.1:${port}/mutate-example-com-v1-widget`, env.manager.webhookServer.caPem());
  expect(JSON.parse(answer).response).toEqual({ uid: 'x', allowed: true });
});

test('configurations are registered with the url and caBundle of the running server', async () => {
  const created = await registerWebhooks(env.manager.apiReader(), env.manager.webhookServer, manifests);
  const port = env.manager.webhookServer.port!;
  expect(created.map((c) => c.kind)).toEqual(['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration']);
  const mutating = await env.manager.apiReader().get(BuiltinKinds.MutatingWebhookConfiguration, { name: 'mutating-webhook-configuration' });
  const clientConfig = (mutating as unknown as { webhooks: Array<{ clientConfig: { url: string; caBundle: string } }> }).webhooks[0]!.clientConfig;
  expect(clientConfig.url).toBe(`https://127.0.0.1:${port}/mutate-example-com-v1-widget`);
  const answer = await postReview(clientConfig.url, Buffer.from(clientConfig.caBundle, 'base64').toString());
  expect(JSON.parse(answer).response).toEqual({ uid: 'x', allowed: true });
});

test('registering again (a restarted run-local) replaces the configurations in place', async () => {
  const again = await registerWebhooks(env.manager.apiReader(), env.manager.webhookServer, manifests);
  expect(again.map((c) => c.metadata?.name)).toEqual(['mutating-webhook-configuration', 'validating-webhook-configuration']);
  const listed = await env.manager.apiReader().list(BuiltinKinds.ValidatingWebhookConfiguration);
  expect(listed.map((c) => c.metadata?.name)).toEqual(['validating-webhook-configuration']);
});

test('a manifest file without webhook configurations is an error naming the file and `make manifests`', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kubeforge-webhooks-'));
  try {
    const empty = path.join(dir, 'manifests.yaml');
    writeFileSync(empty, '# no webhooks yet\n');
    await expect(registerWebhooks(env.manager.apiReader(), env.manager.webhookServer, empty)).rejects.toThrow(`${empty}: no MutatingWebhookConfiguration or ValidatingWebhookConfiguration found (run \`make manifests\`)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("several projects' manifests on one manager: same-named configurations are merged, every webhook kept", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kubeforge-webhooks-'));
  try {
    // a second project whose configurations carry kubebuilder's same default names
    const other = path.join(dir, 'manifests.yaml');
    writeFileSync(other, readFileSync(manifests, 'utf8').replaceAll('widget', 'gadget').replaceAll('widgets', 'gadgets'));
    const created = await registerWebhooks(env.manager.apiReader(), env.manager.webhookServer, [manifests, other]);
    expect(created.map((c) => c.metadata?.name)).toEqual(['mutating-webhook-configuration', 'validating-webhook-configuration']);
    const mutating = (await env.manager.apiReader().get(BuiltinKinds.MutatingWebhookConfiguration, { name: 'mutating-webhook-configuration' })) as unknown as { webhooks: Array<{ name: string; clientConfig: { url: string } }> };
    const port = env.manager.webhookServer.port!;
    expect(mutating.webhooks.map((w) => w.clientConfig.url)).toEqual([`https://127.0.0.1:${port}/mutate-example-com-v1-widget`, `https://127.0.0.1:${port}/mutate-example-com-v1-gadget`]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
