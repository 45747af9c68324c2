/**
 * A manager serving webhooks is Ready only once its webhook server listens (kubebuilder's
 * `AddReadyzCheck("webhook", StartedChecker())`): the probe server starts first, and a pod reported Ready
 * before the webhook port is open sends the API server's admission calls to a refused connection.
 */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { startTestEnv, type TestEnv } from '../../testing/test-env.js';
import { BuiltinKinds } from '../client/kinds.js';

let env: TestEnv;
afterEach(async () => env?.stop());

async function readyz(port: number): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${port}/readyz`);
  return { status: res.status, text: await res.text() };
}

test('with webhooks registered, /readyz fails until the webhook server listens, then passes', async () => {
  env = await startTestEnv({ authz: 'alwaysAllow', manager: { probePort: 0 } });
  env.manager.webhookFor(BuiltinKinds.ConfigMap).withDefaulter({ default: async (_cm: ConfigMap) => {} }).complete();
  // The webhook server's start is held until the test lets it go.
  const server = env.manager.webhookServer;
  const realStart = server.start.bind(server);
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  server.start = async () => {
    await held;
    return realStart();
  };
  const starting = env.startManager();
  let before: { status: number; text: string } | undefined;
  for (let i = 0; i < 500 && before === undefined; i++) {
    if (env.manager.probePort) before = await readyz(env.manager.probePort);
    else await new Promise((resolve) => setImmediate(resolve));
  }
  expect(before).toEqual({ status: 500, text: expect.stringContaining('[-]webhook failed: webhook server not started\n') });
  release();
  await starting;
  const after = await readyz(env.manager.probePort!);
  expect(after.status).toBe(200);
  expect(after.text).toContain('[+]webhook ok\n');
});

test('without webhooks, /readyz has no webhook check', async () => {
  env = await startTestEnv({ authz: 'alwaysAllow', manager: { probePort: 0 } });
  await env.startManager();
  const ready = await readyz(env.manager.probePort!);
  expect(ready.status).toBe(200);
  expect(ready.text).not.toContain('webhook');
});
