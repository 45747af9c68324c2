/**
 * A leader-elected manager stopped before its caches synced — a controller for a kind whose CRD is not
 * installed, so its informer never syncs — stops at once, without waiting out the grace period and failing with "failed
 * waiting for all runnables to end" (found running a made project's image against a cluster without its CRDs).
 */
import { startTestEnv, type TestEnv } from '../../testing/test-env.js';
import { defineKind } from '../client/kinds.js';

let env: TestEnv;
afterAll(async () => env?.stop());

test('stop() before the caches synced ends without the grace period and without an error', async () => {
  env = await startTestEnv({ authz: 'alwaysAllow', manager: { gracefulShutdownTimeoutMs: 20_000, leaderElection: { id: 'stop-before-sync', namespace: 'default' } } });
  const Widget = defineKind({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
  let reconciled = 0;
  env.manager.controllerFor(Widget).complete(async () => void reconciled++);
  // With leader election, start() returns once campaigning; the leader work (the controller's start,
  // waiting for its caches) goes on behind it.
  await env.manager.start();
  // The informer asks for widgets and is answered 404 (no such resource): it keeps retrying, never synced.
  const deadline = Date.now() + 10_000;
  while (!env.cluster.requestLog().some((r) => r.path.startsWith('/apis/example.com/v1/widgets'))) {
    if (Date.now() > deadline) throw new Error('the informer never asked for widgets');
    await new Promise((r) => setTimeout(r, 10));
  }
  const before = Date.now();
  await expect(env.manager.stop()).resolves.toBeUndefined();
  // Well inside the 20 s grace period (real time here only bounds a loaded machine).
  expect(Date.now() - before).toBeLessThan(10_000);
  expect(reconciled).toBe(0);
}, 60_000);
