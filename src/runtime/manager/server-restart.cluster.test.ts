/**
 * A running manager across a restart of its API server (issue 13): the local cluster stops, a new, empty one
 * comes up on the same port, keeping the CA and admin token (as a kept data directory would: a real client
 * never re-reads its kubeconfig's CA), with a resourceVersion counter that starts again from the bottom.
 * The informer must notice the server went back in time, relist, reconcile every new object and send deletes
 * for the vanished ones; /readyz fails within 15 s of the lost watch; the lost connection is logged at warn
 * once per state change, not once per retry. Time is the manager's manual clock and the clusters' virtual ones.
 */
import { Writable } from 'node:stream';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import pino from 'pino';
import { startLocalCluster, type LocalCluster } from '../../cluster/index.js';
import { ManualClock } from '../../testing/manual-clock.js';
import { isNotFound } from '../client/api-error.js';
import { BuiltinKinds } from '../client/kinds.js';
import { Manager } from './manager.js';

const T0 = Date.parse('2024-01-15T10:00:00Z');
const NS = 'restart';
const OLD = 20;
const NEW = 100;

let first: LocalCluster;
let second: LocalCluster | undefined;
let manager: Manager;
const clock = new ManualClock(T0);
const reconciled = new Set<string>();
const goneSeen = new Set<string>();
const logLines: Array<{ level: number; msg: string; kind?: string; backoffMs?: number }> = [];

async function until(cond: () => boolean, what: string, realMs = 10_000): Promise<void> {
  const deadline = Date.now() + realMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function readyz(): Promise<number> {
  return (await fetch(`http://127.0.0.1:${manager.probePort}/readyz`)).status;
}

const configMap = (name: string): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: NS, name } });

beforeAll(async () => {
  first = await startLocalCluster({ authz: 'alwaysAllow', now: new Date(T0), clock: 'virtual' });
  const admin = new Manager({ kubeConfig: first.kubeconfigPath, clock, logger: pino({ level: 'silent' }) });
  await admin.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  for (let i = 0; i < OLD; i++) await admin.client.create(configMap(`old-${i}`));
  // Churn elsewhere lifts the first server's resourceVersion well above anything the second reaches.
  const churn = await admin.client.create<ConfigMap>({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name: 'churn' } });
  for (let i = 0; i < 300; i++) {
    churn.data = { i: String(i) };
    Object.assign(churn, await admin.client.update(churn));
  }
  admin.transport.close();

  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) if (line) logLines.push(JSON.parse(line));
      done();
    },
  });
  manager = new Manager({
    kubeConfig: first.kubeconfigPath,
    clock,
    probePort: 0,
    logger: pino({ level: 'info' }, sink),
    cache: { namespace: NS, stallTimeoutMs: 90_000, stallOnManagerClock: true, backoffInitialMs: 5, backoffMaxMs: 20 },
  });
  manager.controllerFor(BuiltinKinds.ConfigMap).complete(async (req) => {
    try {
      await manager.client.get(BuiltinKinds.ConfigMap, req);
      reconciled.add(req.name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      goneSeen.add(req.name);
    }
    return {};
  });
  await manager.start();
  await until(() => reconciled.size >= OLD, 'the first server\'s objects reconciled');
});

afterAll(async () => {
  await manager?.stop();
  await second?.stop();
});

test('a lost watch fails /readyz within 15 s and is warned once with its backoff, not once per retry', async () => {
  expect(await readyz()).toBe(200);
  await first.stop();
  const restartsOfConfigMaps = async (): Promise<number> => {
    const text = await manager.metrics.registry.getSingleMetricAsString('kubeforge_informer_watch_restarts_total');
    return [...text.matchAll(/kind="ConfigMap"[^}]*} (\d+)/g)].reduce((sum, m) => sum + Number(m[1]), 0);
  };
  // The informer notices at once (its watch hangs up, its re-connection is refused), in real time: the clock
  // has not moved. (Real time only bounds how long a loaded machine may take to run it.)
  const deadline = Date.now() + 10_000;
  while ((await restartsOfConfigMaps()) === 0) {
    if (Date.now() > deadline) throw new Error('the informer never noticed the lost watch');
    await new Promise((r) => setTimeout(r, 5));
  }

  // The watch is lost. Within 15 s of the manager's clock /readyz fails, while the informer keeps retrying.
  let failedAfter: number | undefined;
  for (let s = 1; s <= 20 && failedAfter === undefined; s++) {
    await clock.stepTo(T0 + s * 1000);
    await new Promise((r) => setTimeout(r, 20)); // a few real-time reconnect attempts (backoff 5–20 ms)
    if ((await readyz()) === 500) failedAfter = s;
  }
  expect(failedAfter).toBeDefined();
  expect(failedAfter!).toBeLessThanOrEqual(15);
  expect(await restartsOfConfigMaps()).toBeGreaterThan(3);
  // One warning for the lost connection (with its backoff), however many retries failed the same way.
  const warnings = logLines.filter((l) => l.level === 40 && l.kind === 'ConfigMap');
  expect(warnings.map((w) => `${w.msg}: ${JSON.stringify(w)}`)).toHaveLength(1);
  expect(warnings[0]!.backoffMs).toEqual(expect.any(Number));
});

test('a restarted, empty server: every new object is reconciled and the vanished ones get deletes', async () => {
  const port = Number(new URL(first.url).port);
  // A new server on the same port: empty, its resourceVersion counter far below the informer's last one.
  const now = clock.now();
  second = await startLocalCluster({ authz: 'alwaysAllow', now: new Date(now), clock: 'virtual', port, credentialsOf: first });
  const admin = new Manager({ kubeConfig: second.kubeconfigPath, clock, logger: pino({ level: 'silent' }) });
  await admin.client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  for (let i = 0; i < NEW; i++) await admin.client.create(configMap(`new-${i}`));
  admin.transport.close();

  // Within 30 s of virtual time every new object is reconciled and the vanished ones are gone from the cache.
  const cachedNames = async (): Promise<string[]> => (await manager.client.list<ConfigMap>(BuiltinKinds.ConfigMap, { namespace: NS })).map((c) => c.metadata!.name!);
  const newNames = Array.from({ length: NEW }, (_, i) => `new-${i}`);
  const oldNames = Array.from({ length: OLD }, (_, i) => `old-${i}`);
  const done = (): boolean => newNames.every((n) => reconciled.has(n)) && oldNames.every((n) => goneSeen.has(n));
  // Each virtual second gets up to 300 ms of real time for the relist and reconciles it allows (the work, not
  // the deadline: a loaded machine is slower, the virtual bound is the same).
  for (let s = 1; s <= 30 && !done(); s++) {
    await clock.stepTo(now + s * 1000);
    await second.clock.stepTo(new Date(now + s * 1000));
    await second.settle();
    await until(done, 'this second\'s work', 300).catch(() => undefined);
  }
  expect(newNames.filter((n) => !reconciled.has(n))).toEqual([]);
  expect(oldNames.filter((n) => !goneSeen.has(n))).toEqual([]);
  expect((await cachedNames()).filter((n) => n.startsWith('old-'))).toEqual([]);
  expect((await cachedNames()).filter((n) => n.startsWith('new-')).length).toBe(NEW);
  expect(await readyz()).toBe(200);
  // Said at warn why it relisted, and at info that the watch is back (after the failures warned once).
  const ofConfigMaps = logLines.filter((l) => l.kind === 'ConfigMap');
  expect(ofConfigMaps.filter((l) => l.level === 40 && /went back in time/.test(l.msg))).toHaveLength(1);
  expect(ofConfigMaps.filter((l) => l.level === 30 && l.msg === 'watch re-established')).toHaveLength(1);
});
