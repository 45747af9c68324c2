/**
 * Chaos: while 500 ConfigMaps are created, updated and deleted, the server ends watches (every second, and
 * all at once at times), answers lists and watches with 500 and 429, and compacts its history (410 on resume). Afterwards
 * every object's final state has been reconciled, deleted objects were seen as gone, and no key was ever
 * reconciled by two workers at once.
 */
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { startTestEnv, type TestEnv } from '../../testing/test-env.js';
import { isNotFound } from '../client/api-error.js';
import { BuiltinKinds } from '../client/kinds.js';
import { newPredicate } from '../predicate/predicate.js';

const OBJECTS = 500;
const NS = 'chaos';

let env: TestEnv;
afterAll(async () => env?.stop());

test('every change is reconciled, nothing twice at once, nothing missed', async () => {
  env = await startTestEnv({
    authz: 'alwaysAllow',
    manager: { cache: { watchTimeoutSeconds: 1, backoffInitialMs: 5, backoffMaxMs: 100 } },
    settle: { maxIdleWaitMs: 60_000 },
  });
  const observed = new Map<string, string>();
  const active = new Set<string>();
  let overlaps = 0;
  let reconciles = 0;
  env.manager
    .controllerFor(BuiltinKinds.ConfigMap)
    .withEventFilter(newPredicate((o) => o.metadata?.namespace === NS))
    .withOptions({ maxConcurrentReconciles: 8 })
    .complete(async (req) => {
      if (active.has(req.name)) overlaps++;
      active.add(req.name);
      reconciles++;
      try {
        await new Promise((r) => setImmediate(r));
        const cm = await env.client.get<ConfigMap>(BuiltinKinds.ConfigMap, req);
        observed.set(req.name, cm.data?.v ?? '');
      } catch (err) {
        if (!isNotFound(err)) throw err;
        observed.set(req.name, 'gone');
      } finally {
        active.delete(req.name);
      }
    });
  await env.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  await env.startManager();

  const admin = env.manager.apiReader();
  const cluster = env.cluster;
  const expected = new Map<string, string>();
  const name = (i: number) => `obj-${i}`;
  let batch = 0;
  let removeFault = (): void => {};
  const replaceFault = (remove: () => void) => {
    removeFault();
    removeFault = remove;
  };
  const inBatches = async (count: number, op: (i: number) => Promise<unknown>) => {
    for (let start = 0; start < count; start += 25, batch++) {
      // Every 4th batch: end every watch and fail re-watches with 500 while the batch is written, then
      // compact the history — the informer's resume is answered 410 and only a relist can catch up.
      const hold = batch % 4 === 1 ? cluster.injectFault({ verb: 'watch', resource: 'configmaps', status: 500 }) : undefined;
      if (hold) cluster.internals.watches.closeAll();
      await Promise.all(Array.from({ length: Math.min(25, count - start) }, (_, k) => op(start + k)));
      if (hold) {
        cluster.compactHistory();
        hold();
      }
      // Short outages only: a fault is replaced, never stacked, so the informer is down for a moment at a
      // time (an object created and deleted entirely inside an outage is, rightly, never reconciled).
      if (batch % 5 === 2) replaceFault(cluster.injectFault({ verb: 'list', resource: 'configmaps', status: 429, times: 1 }));
      if (batch % 7 === 3) {
        replaceFault(cluster.injectFault({ verb: 'watch', resource: 'configmaps', status: 429, times: 1 }));
        cluster.internals.watches.closeAll();
      }
    }
  };

  await inBatches(OBJECTS, async (i) => {
    await admin.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS, name: name(i) }, data: { v: '1' } });
    expected.set(name(i), '1');
  });
  for (let round = 2; round <= 3; round++) {
    await inBatches(OBJECTS, async (i) => {
      if (i % 3 === round % 3) return;
      await admin.patch<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS, name: name(i) } }, { data: { v: String(round) } });
      expected.set(name(i), String(round));
    });
  }
  await inBatches(OBJECTS, async (i) => {
    if (i % 5 !== 0) return;
    await admin.delete({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS, name: name(i) } });
    expected.set(name(i), 'gone');
  });
  await env.settle();

  const wrong = [...expected].filter(([n, v]) => observed.get(n) !== v).map(([n, v]) => `${n}: expected ${v}, observed ${observed.get(n)}`);
  expect(wrong).toEqual([]);
  expect(overlaps).toBe(0);
  expect(reconciles).toBeGreaterThanOrEqual(OBJECTS);
  const metrics = await env.manager.metrics.registry.metrics();
  expect(metrics).toMatch(/kubeforge_informer_relists_total\{kind="ConfigMap"\} [1-9]/);
}, 120_000);
