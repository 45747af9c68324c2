/**
 * A resourceVersion newer than the store's, as a 1.32 server answers it: gets and cache-served lists
 * wait up to 3 s on the cluster's (virtual) clock for the store to catch up, then 504 Timeout with the
 * ResourceVersionTooLarge cause; etcd-served lists (limit, Exact) refuse at once; WatchList waits and
 * ends with an ERROR event; a plain watch from a future resourceVersion sends only the events after it.
 */
import { useClusterSuite } from './cluster-suite.js';

// the built-in controllers' start-up writes are done; node leases still renew every 10 s of cluster time, so the
// resourceVersions waited for are far ahead of anything the store reaches while the clock steps
const suite = useClusterSuite({ settled: true });
const kubectl = suite.kubectl;
const call = (method: string, path: string, body?: unknown) => suite.call(method, path, body);

const cms = '/api/v1/namespaces/default/configmaps';
const current = (): number => suite.cluster.internals.store.resourceVersion;

/** Resolves once the server holds an unanswered request for `path` (it is parked, not finished). */
async function parked(path: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (suite.cluster.requestLog().some((e) => e.path === path && e.code === 0)) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`no parked request for ${path}`);
}

/** True when `p` has settled after the event loop has had a few turns. */
async function isSettled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true), () => (done = true));
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  return done;
}

const tooLarge = (rv: number, cur: number) => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: `Timeout: Too large resource version: ${rv}, current: ${cur}`,
  reason: 'Timeout',
  details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
  code: 504,
});

test('a list from a future resourceVersion waits 3 s of cluster time, then answers 504 ResourceVersionTooLarge', async () => {
  const future = current() + 1000;
  const start = suite.cluster.clock.now();
  const reply = call('GET', `${cms}?resourceVersion=${future}`);
  await parked(cms);
  await suite.cluster.settle(); // a parked read is not work: settle() returns while it waits
  expect(await isSettled(reply)).toBe(false);
  await suite.cluster.clock.advance(2999);
  expect(await isSettled(reply)).toBe(false);
  const cur = current();
  await suite.cluster.clock.advance(1);
  const r = await reply;
  expect(r.code).toBe(504);
  expect(JSON.parse(r.text)).toEqual(tooLarge(future, cur));
  expect(suite.cluster.clock.now() - start).toBe(3000);
});

test('a waiting list and get are answered as soon as the store reaches their resourceVersion', async () => {
  const target = current() + 1;
  const list = call('GET', `${cms}?resourceVersion=${target}`);
  const get = call('GET', `/api/v1/namespaces/default/configmaps/arrives?resourceVersion=${target}`);
  await parked(cms);
  await parked(`${cms}/arrives`);
  expect(await isSettled(list)).toBe(false);
  const created = await call('POST', cms, { metadata: { name: 'arrives' }, data: { a: '1' } });
  expect(created.code).toBe(201);
  const [l, g] = await Promise.all([list, get]);
  expect(l.code).toBe(200);
  expect(JSON.parse(l.text).items.map((i: any) => i.metadata.name)).toContain('arrives');
  expect(Number(JSON.parse(l.text).metadata.resourceVersion)).toBeGreaterThanOrEqual(target);
  expect(g.code).toBe(200);
  expect(JSON.parse(g.text).data).toEqual({ a: '1' });
});

test('lists served by etcd in a real server (limit, Exact) refuse a future resourceVersion at once', async () => {
  const future = current() + 10;
  const limited = await call('GET', `${cms}?limit=500&resourceVersion=${future}`);
  expect(limited.code).toBe(504);
  expect(JSON.parse(limited.text).message).toBe(`Timeout: Too large resource version: ${future}, current: ${current()}`);
  const exact = await call('GET', `${cms}?resourceVersionMatch=Exact&resourceVersion=${future}`);
  expect(exact.code).toBe(504);
  // "0" and unset mean "any": never wait
  expect((await call('GET', `${cms}?limit=500&resourceVersion=0`)).code).toBe(200);
});

test('kubectl sees the 504 after the clock passes 3 s, retrying as Retry-After asks (client-go: 10 retries)', async () => {
  // a real server sends `Retry-After: 1` with this 504 (its Status has retryAfterSeconds 1), and client-go
  // retries 5xx answers that carry it: each retry parks again until the clock passes 3 s more
  const future = current() + 1000;
  const answered = () => suite.cluster.requestLog().filter((e) => e.path === cms && e.code === 504).length;
  let done = false;
  const run = kubectl.run(['get', '--raw', `${cms}?resourceVersion=${future}`]).finally(() => (done = true));
  let steps = 0;
  while (!done) {
    if (suite.cluster.requestLog().some((e) => e.path === cms && e.code === 0)) {
      const before = answered();
      await suite.cluster.clock.advance(3000);
      steps++;
      while (answered() === before) await new Promise((r) => setTimeout(r, 5));
    } else await new Promise((r) => setTimeout(r, 5));
  }
  const r = await run;
  expect(r.code).not.toBe(0);
  expect(steps).toBe(11);
  expect(r.stderr).toContain(`Error from server (Timeout): Timeout: Too large resource version: ${future}, current: ${current()}`);
}, 60_000);

test('WatchList (sendInitialEvents) from a future resourceVersion waits, then ends with an ERROR event', async () => {
  const future = current() + 1000;
  const path = `${cms}?watch=true&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=${future}&timeoutSeconds=30`;
  const reply = call('GET', path);
  await parked(cms);
  await suite.cluster.clock.advance(3000);
  const r = await reply;
  expect(r.code).toBe(200);
  const lines = r.text.trim().split('\n').map((l) => JSON.parse(l));
  expect(lines).toEqual([{ type: 'ERROR', object: tooLarge(future, current()) }]);
});

test('a plain watch from a future resourceVersion starts at once and skips events up to it', async () => {
  const from = current() + 2;
  const path = `${cms}?watch=true&resourceVersion=${from}&timeoutSeconds=30`;
  const watching = suite.watch(path);
  await parked(cms);
  for (const name of ['w1', 'w2', 'w3']) expect((await call('POST', cms, { metadata: { name } })).code).toBe(201);
  const { events, close } = await watching;
  while (events.length === 0) await new Promise((r) => setImmediate(r));
  close();
  expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual([['ADDED', 'w3']]);
  expect(Number(events[0].object.metadata.resourceVersion)).toBe(from + 1);
});
