/**
 * controller-runtime's SyncPeriod (`cache: { syncPeriodMs }`): a period of the manager's clock after the sync,
 * every cached object is handed to the handlers again as an update, so each is reconciled again; without it,
 * an unchanged object is reconciled once.
 */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { startTestEnv, type TestEnv } from '../../testing/test-env.js';
import { BuiltinKinds } from '../client/kinds.js';

const T0 = Date.parse('2024-01-15T10:00:00Z');
let env: TestEnv;
afterEach(async () => env?.stop());

async function reconcileCounts(syncPeriodMs: number | undefined): Promise<(at: number) => Promise<Record<string, number>>> {
  env = await startTestEnv({ authz: 'alwaysAllow', now: new Date(T0), manager: { cache: { ...(syncPeriodMs ? { syncPeriodMs } : {}) } } });
  for (const name of ['a', 'b']) await env.manager.apiReader().create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name } });
  const counts: Record<string, number> = {};
  env.manager.controllerFor(BuiltinKinds.ConfigMap).complete(async (req) => {
    if (req.namespace === 'default' && ['a', 'b'].includes(req.name)) counts[req.name] = (counts[req.name] ?? 0) + 1;
  });
  await env.startManager();
  await env.settle();
  return async (at) => {
    await env.advanceTo(new Date(T0 + at));
    return { ...counts };
  };
}

test('with syncPeriodMs every object is reconciled again each period of the manager clock', async () => {
  const countsAt = await reconcileCounts(60_000);
  expect(await countsAt(0)).toEqual({ a: 1, b: 1 });
  expect(await countsAt(59_000)).toEqual({ a: 1, b: 1 });
  expect(await countsAt(60_000)).toEqual({ a: 2, b: 2 });
  expect(await countsAt(120_000)).toEqual({ a: 3, b: 3 });
});

test('without it an unchanged object is reconciled once', async () => {
  const countsAt = await reconcileCounts(undefined);
  expect(await countsAt(0)).toEqual({ a: 1, b: 1 });
  expect(await countsAt(180_000)).toEqual({ a: 1, b: 1 });
});
