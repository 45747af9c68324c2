/**
 * /readyz follows watch health on the virtual clock: when a watch delivers no event or bookmark for the
 * stall timeout (measured on the manager's clock), the informer drops it and readiness fails; while the
 * re-watch is refused it stays failed; once the re-watch opens, /readyz passes again and the informer
 * resumes from its resourceVersion (a change made in between is delivered).
 */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { startTestEnv, type TestEnv } from '../../testing/test-env.js';
import { BuiltinKinds } from '../client/kinds.js';

const T0 = Date.parse('2024-01-15T10:00:00Z');
let env: TestEnv;
const seen: string[] = [];

beforeAll(async () => {
  env = await startTestEnv({
    authz: 'alwaysAllow',
    now: new Date(T0),
    manager: { probePort: 0, cache: { stallTimeoutMs: 90_000, stallOnManagerClock: true, backoffInitialMs: 5, backoffMaxMs: 20 } },
  });
  env.manager.controllerFor(BuiltinKinds.ConfigMap).complete(async (req) => void seen.push(req.name));
  await env.startManager();
});
afterAll(async () => env?.stop());

async function readyz(): Promise<{ status: number; text: string }> {
  const res = await fetch(`http://127.0.0.1:${env.manager.probePort}/readyz`);
  return { status: res.status, text: await res.text() };
}

const stalls = async (): Promise<string> => {
  const metric = (await env.manager.metrics.registry.getSingleMetricAsString('kubeforge_informer_stalls_total')).split('\n').find((l) => l.startsWith('kubeforge_informer_stalls_total{'));
  return metric ?? 'none';
};

test('a stalled watch fails /readyz until the re-watch opens', async () => {
  expect(await readyz()).toEqual({ status: 200, text: '[+]informers ok\nreadyz check passed\n' });

  // The server keeps the open watch silent and refuses new ones. Meanwhile the clock steps without the
  // env's settle hook: settling waits for every watch to be up, which is exactly what cannot happen here.
  const refuse = env.cluster.injectFault({ verb: 'watch', resource: 'configmaps', status: 500 });
  env.cluster.clock.setSettleHook(undefined);
  // 89 s of silence: not yet a stall.
  await env.cluster.clock.stepTo(new Date(T0 + 89_000));
  expect((await readyz()).status).toBe(200);
  // 90 s: the informer gives up on the watch; the re-watch is refused.
  await env.cluster.clock.stepTo(new Date(T0 + 90_000));
  expect(await readyz()).toEqual({ status: 500, text: '[-]informers failed: caches not synced or watch down\nreadyz check failed\n' });
  expect(await stalls()).toBe('kubeforge_informer_stalls_total{kind="ConfigMap"} 1');

  // A change while the watch is down, then the server takes watches again.
  await env.manager.apiReader().create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'while-stalled' } });
  expect((await readyz()).status).toBe(500);
  refuse();
  env.cluster.clock.setSettleHook(() => env.settle());
  await env.settle();
  expect((await readyz()).status).toBe(200);
  expect(seen).toContain('while-stalled');
});

test('a watch that keeps delivering never stalls, however far the clock moves', async () => {
  const before = await stalls();
  // An event every minute of virtual time keeps the watch alive past several stall timeouts.
  for (let minute = 1; minute <= 4; minute++) {
    await env.manager.apiReader().create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: `tick-${minute}` } });
    await env.settle(); // delivered now, before the clock moves on
    await env.stepTo(new Date(T0 + 90_000 + minute * 60_000));
    expect((await readyz()).status).toBe(200);
  }
  expect(await stalls()).toBe(before);
});
