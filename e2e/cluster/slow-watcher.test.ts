/**
 * A watcher that stops reading (socket back-pressure) is cut off once its unread output passes the
 * bound, as the watch cache does with unresponsive watchers: the stream ends cleanly, the client
 * resumes from its last resourceVersion, and a watcher that keeps reading is not affected.
 */
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite({ settled: true });

const cms = '/api/v1/namespaces/default/configmaps';

async function call(method: string, path: string, body: unknown, contentType = 'application/json'): Promise<number> {
  return (await suite.call(method, path, body, { 'Content-Type': contentType })).code;
}

const watch = (fromRv: string) => suite.watch(`${cms}?watch=true&resourceVersion=${fromRv}&timeoutSeconds=120`);

test('a watcher that stops reading is ended after a bounded buffer; a reading watcher gets every event', async () => {
  const hub = suite.cluster.internals.watches;
  hub.maxBufferedBytes = 1024 * 1024;
  expect(await call('POST', cms, { metadata: { name: 'big' }, data: { v: '' } })).toBe(201);
  const from = String(suite.cluster.internals.store.resourceVersion);
  const baseline = hub.size;
  const stuck = await watch(from);
  const healthy = await watch(from);
  expect(hub.size).toBe(baseline + 2);
  stuck.res.pause(); // stop reading: TCP and then the server's buffers fill

  const updates = 600;
  const payload = 'x'.repeat(64 * 1024);
  for (let i = 0; i < updates && hub.size === baseline + 2; i++) {
    const patch = { data: { v: `${i}-${payload}` } };
    expect(await call('PATCH', `${cms}/big`, patch, 'application/merge-patch+json')).toBe(200);
  }
  // the stuck watcher was cut off long before the writer stopped; the healthy one is still open
  expect(hub.slowWatchersClosed).toBe(1);
  expect(hub.size).toBe(baseline + 1);

  for (let i = 0; i < 3; i++) expect(await call('PATCH', `${cms}/big`, { data: { v: `after-${i}` } }, 'application/merge-patch+json')).toBe(200);
  const last = String(suite.cluster.internals.store.resourceVersion);

  // the stuck client reads again: it gets what was buffered, then the end of the stream
  stuck.res.resume();
  await stuck.ended;
  const seen = stuck.events.map((e) => e.object.metadata.resourceVersion as string);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen).not.toContain(last);

  // ... and re-watches from its last resourceVersion without losing an event
  const resumed = await watch(seen[seen.length - 1]!);
  while (!resumed.events.some((e) => e.object.metadata.resourceVersion === last)) await new Promise((r) => setImmediate(r));
  const all = [...seen, ...resumed.events.map((e) => e.object.metadata.resourceVersion as string)].map(Number);
  expect(all).toEqual(Array.from({ length: all.length }, (_, i) => Number(from) + 1 + i));
  resumed.close();

  while (!healthy.events.some((e) => e.object.metadata.resourceVersion === last)) await new Promise((r) => setImmediate(r));
  expect(healthy.events.map((e) => Number(e.object.metadata.resourceVersion))).toEqual(all);
  healthy.close();
});
