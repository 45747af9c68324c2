/** A controller reconciling objects end to end on startTestEnv: cluster + manager on one virtual clock. */
import type { ConfigMap, Secret } from 'kubernetes-types/core/v1.js';
import { BuiltinKinds } from '../runtime/client/kinds.js';
import { isNotFound } from '../runtime/client/api-error.js';
import type { Request } from '../runtime/client/object.js';
import { setControllerReference } from '../runtime/helpers/owner-references.js';
import { everyObjectOf } from '../runtime/source/ticker.js';
import { enqueueRequestForObject } from '../runtime/handler/handler.js';
import { newPredicate } from '../runtime/predicate/predicate.js';
import { startTestEnv, type TestEnv } from './test-env.js';

const T0 = '2024-01-15T10:00:00Z';

let env: TestEnv;
const reconciles: Array<{ name: string; at: string }> = [];
let failFlakyOnce = true;
let tickerSeen: Array<{ name: string; at: string }> = [];

beforeAll(async () => {
  env = await startTestEnv({ now: T0, authz: 'alwaysAllow', manager: { probePort: 0, metrics: { bindAddress: '127.0.0.1:0' } } });
  const client = env.client;
  const clock = env.manager.clock;
  env.manager
    .controllerFor(BuiltinKinds.ConfigMap)
    .owns(BuiltinKinds.Secret)
    .withEventFilter(newPredicate((o) => o.metadata?.namespace === 'mirror' || o.metadata?.namespace === 'default'))
    .complete(async (req: Request) => {
      if (req.namespace !== 'mirror') return;
      reconciles.push({ name: req.name, at: new Date(clock.now()).toISOString() });
      if (req.name === 'flaky' && failFlakyOnce) {
        failFlakyOnce = false;
        throw new Error('transient failure');
      }
      let cm: ConfigMap;
      try {
        cm = await client.get(BuiltinKinds.ConfigMap, req);
      } catch (err) {
        if (isNotFound(err)) return;
        throw err;
      }
      try {
        await client.get(BuiltinKinds.Secret, req);
      } catch (err) {
        if (!isNotFound(err)) throw err;
        const secret: Secret = { apiVersion: 'v1', kind: 'Secret', metadata: { namespace: req.namespace, name: req.name }, stringData: cm.data ?? {} };
        setControllerReference(cm, secret);
        await client.create(secret);
      }
      return cm.metadata?.labels?.poll === 'yes' ? { requeueAfter: 60_000 } : {};
    });
  env.manager
    .controllerFor(BuiltinKinds.Namespace)
    .named('namespace-ticker')
    .withPredicates(newPredicate(() => false))
    .watches(everyObjectOf(BuiltinKinds.Namespace, 300_000), enqueueRequestForObject())
    .complete(async (req: Request) => void tickerSeen.push({ name: req.name, at: new Date(clock.now()).toISOString() }));
  await env.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'mirror' } });
  await env.startManager();
});

afterAll(async () => {
  await env?.stop();
});

const names = () => reconciles.map((r) => r.name);

describe('startTestEnv: a controller end to end', () => {
  test('creates the owned object for a new primary object, observed after settle()', async () => {
    reconciles.length = 0;
    await env.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'mirror', name: 'a' }, data: { k: 'v' } });
    await env.settle();
    const secret = await env.manager.apiReader().get(BuiltinKinds.Secret, { namespace: 'mirror', name: 'a' });
    expect(secret.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'ConfigMap', name: 'a', controller: true });
    // One reconcile for the ConfigMap, one for the owned Secret's creation event.
    expect(names()).toEqual(['a', 'a']);
  });

  test('deleting the owned object reconciles the owner, which recreates it', async () => {
    reconciles.length = 0;
    await env.client.delete({ apiVersion: 'v1', kind: 'Secret', metadata: { namespace: 'mirror', name: 'a' } });
    await env.settle();
    expect(names()[0]).toBe('a');
    await expect(env.manager.apiReader().get(BuiltinKinds.Secret, { namespace: 'mirror', name: 'a' })).resolves.toBeDefined();
  });

  test('requeueAfter fires on the virtual clock, exactly when due', async () => {
    await env.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'mirror', name: 'polled', labels: { poll: 'yes' } } });
    await env.settle();
    reconciles.length = 0;
    const start = env.manager.clock.now();
    await env.stepTo(new Date(start + 59_000));
    expect(names()).toEqual([]);
    await env.stepTo(new Date(start + 121_000));
    expect(reconciles.filter((r) => r.name === 'polled').map((r) => r.at)).toEqual([new Date(start + 60_000).toISOString(), new Date(start + 120_000).toISOString()]);
  });

  test('an error is retried after the fixed 1 s test backoff', async () => {
    reconciles.length = 0;
    await env.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'mirror', name: 'flaky' } });
    await env.settle();
    expect(names()).toEqual(['flaky']);
    const failedAt = env.manager.clock.now();
    await env.advanceTo(new Date(failedAt + 1000));
    expect(names().filter((n) => n === 'flaky').length).toBeGreaterThanOrEqual(2);
    await expect(env.manager.apiReader().get(BuiltinKinds.Secret, { namespace: 'mirror', name: 'flaky' })).resolves.toBeDefined();
  });

  test('stopManager then startManager re-lists: every object gets an initial reconcile', async () => {
    await env.stopManager();
    reconciles.length = 0;
    await env.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'mirror', name: 'while-stopped' } });
    await env.settle();
    expect(reconciles).toEqual([]);
    await env.startManager();
    // kube-root-ca.crt is the cluster's own ConfigMap in every namespace.
    expect(new Set(names())).toEqual(new Set(['kube-root-ca.crt', 'a', 'polled', 'flaky', 'while-stopped']));
  });

  test('a ticker source reconciles every object of a kind each interval', async () => {
    tickerSeen = [];
    const now = env.manager.clock.now();
    await env.stepTo(new Date(now + 600_000));
    const ticks = new Set(tickerSeen.map((t) => t.at));
    expect(ticks.size).toBe(2);
    expect(tickerSeen.filter((t) => t.name === 'mirror').length).toBe(2);
  });

  test('/readyz passes once the caches are synced and the metrics server serves the registry', async () => {
    const base = `http://127.0.0.1:${env.manager.probePort}`;
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.text()).toContain('[+]informers ok');
    expect(await (await fetch(env.manager.metricsUrl()!)).text()).toContain('controller_runtime_reconcile_time_seconds_bucket');
  });

  test('real kubectl sees what the controller made, and metrics use controller-runtime names', async () => {
    const out = await env.kubectl(['get', 'secrets', '-n', 'mirror', '-o', 'name']);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain('secret/a');
    const text = await env.manager.metrics.registry.metrics();
    expect(text).toMatch(/controller_runtime_reconcile_total\{controller="configmap",result="success"\} \d+/);
    expect(text).toMatch(/controller_runtime_reconcile_errors_total\{controller="configmap"\} [1-9]/);
    expect(text).toContain('workqueue_adds_total{name="configmap",controller="configmap"}');
  });
});
