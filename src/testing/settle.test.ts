/** settle() is bounded: a controller that keeps re-triggering itself fails with a dump, not a hang. */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { BuiltinKinds } from '../runtime/client/kinds.js';
import { newPredicate } from '../runtime/predicate/predicate.js';
import { startTestEnv, type TestEnv } from './test-env.js';

let env: TestEnv;
afterAll(async () => env?.stop());

test('a livelock fails settle() with a dump of the manager state', async () => {
  env = await startTestEnv({ authz: 'alwaysAllow', settle: { maxRounds: 20, maxIdleWaitMs: 1500 } });
  env.manager
    .controllerFor(BuiltinKinds.ConfigMap)
    .withEventFilter(newPredicate((o) => o.metadata?.name === 'ping-pong'))
    .complete(async (req) => {
      // Every reconcile writes, every write is an event, every event a reconcile: it never settles.
      const cm = await env.manager.apiReader().get<ConfigMap>(BuiltinKinds.ConfigMap, req);
      await env.client.patch(cm, { data: { n: String(Number(cm.data?.n ?? '0') + 1) } });
    });
  await env.startManager();
  await env.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'ping-pong' } });
  const failure = await env.settle().then(
    () => undefined,
    (err: Error) => err.message,
  );
  expect(failure).toMatch(/^settle: /);
  expect(failure).toContain('controller configmap:');
  expect(failure).toContain('informer ConfigMap: synced=true');
  expect(failure).toContain('recent activity:');
  await env.stopManager();
  await env.settle();
});

test('a bad crdPaths entry fails startTestEnv with the path named, and leaves nothing running', async () => {
  await expect(startTestEnv({ crdPaths: ['/nonexistent/crds'] })).rejects.toThrow('startTestEnv: crdPaths entry /nonexistent/crds does not exist');
});
