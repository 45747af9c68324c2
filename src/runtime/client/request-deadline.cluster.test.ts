/**
 * Every request has a deadline: through a StallingProxy, a request that gets no answer fails at its
 * deadline on the clock (the transport's default, a client's own, a signal), is reset so its held bytes
 * never reach the server after the path heals, and a write fence refuses writes; an open watch is not cut
 * by the deadline, only its opening is bounded.
 */
import { readFileSync } from 'node:fs';
import { Kubeconfig } from './kubeconfig.js';
import type { ConfigMap } from 'kubernetes-types/core/v1.js';
import { startLocalCluster } from '../../cluster/index.js';
import { StallingProxy } from '../../testing/stalling-proxy.js';
import { isNotFound } from './api-error.js';
import { Client } from './client.js';
import { BuiltinKinds, defaultKindRegistry } from './kinds.js';
import { RequestAbortedError, RequestTimeoutError, Transport, DEFAULT_REQUEST_TIMEOUT_MS } from './transport.js';

type Cluster = Awaited<ReturnType<typeof startLocalCluster>>;
let cluster: Cluster;
let proxy: StallingProxy;
let transport: Transport;
let client: Client;
let direct: Client;
let directTransport: Transport;

const cm = (name: string): ConfigMap => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: 'default', name }, data: { k: 'v' } });

async function until(what: string, cond: () => boolean, maxMs = 5_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

/** Settles a promise's outcome without letting a rejection go unhandled. */
function outcome<T>(p: Promise<T>): { done: () => boolean; result: () => T | undefined; error: () => unknown } {
  let done = false;
  let result: T | undefined;
  let error: unknown;
  p.then(
    (r) => ((done = true), (result = r)),
    (e: unknown) => ((done = true), (error = e)),
  );
  return { done: () => done, result: () => result, error: () => error };
}

beforeEach(async () => {
  cluster = await startLocalCluster({ authz: 'alwaysAllow', now: '2024-01-15T10:00:00Z' });
  proxy = new StallingProxy({ host: '127.0.0.1', port: Number(new URL(cluster.url).port) });
  await proxy.start(new URL(cluster.url).protocol === 'https:' ? 'https' : 'http');
  const kc = Kubeconfig.fromString(readFileSync(cluster.kubeconfigPath, 'utf8').split(cluster.url).join(proxy.url));
  transport = new Transport(kc, { requestTimeoutMs: 5_000, timeoutClock: cluster.clock });
  client = new Client(transport, defaultKindRegistry);
  const directKc = Kubeconfig.fromFile(cluster.kubeconfigPath);
  directTransport = new Transport(directKc);
  direct = new Client(directTransport, defaultKindRegistry);
});

afterEach(async () => {
  proxy.heal();
  transport.close();
  directTransport.close();
  await proxy.stop();
  await cluster.stop();
});

test('the default deadline is the API server request timeout (60 s)', () => {
  const kc = Kubeconfig.fromFile(cluster.kubeconfigPath);
  const t = new Transport(kc);
  expect(DEFAULT_REQUEST_TIMEOUT_MS).toBe(60_000);
  expect(t.requestTimeoutMs).toBe(60_000);
  t.close();
});

test('a stalled write fails at its deadline and never lands after the path heals', async () => {
  await client.get(BuiltinKinds.Namespace, { name: 'default' }); // a warm keep-alive connection
  proxy.stall();
  const write = outcome(client.create(cm('held-write')));
  await until('the write to be on the wire', () => proxy.heldBytes() > 0);
  await cluster.clock.advance(4_999);
  expect(write.done()).toBe(false);
  await cluster.clock.advance(1);
  await until('the write to fail', write.done);
  expect(write.error()).toBeInstanceOf(RequestTimeoutError);
  expect(String(write.error())).toContain('POST /api/v1/namespaces/default/configmaps: no answer within 5000 ms (context deadline exceeded)');
  await until('the reset to drop the held bytes', () => proxy.bytesDropped() > 0);
  proxy.heal();
  // The reset request's bytes were dropped with it: the object is never created.
  const probe = outcome(direct.get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'held-write' }));
  await until('the read', probe.done);
  expect(isNotFound(probe.error())).toBe(true);
  expect(transport.pending()).toBe(0);
});

test("a client's own deadline and an abort signal", async () => {
  proxy.stall();
  const quick = outcome(client.withRequestOptions({ timeoutMs: 1_000 }).get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'x' }));
  const abort = new AbortController();
  const aborted = outcome(client.withRequestOptions({ signal: abort.signal, timeoutMs: 0 }).get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'y' }));
  await cluster.clock.advance(1_000);
  await until('the 1 s request to fail', quick.done);
  expect(quick.error()).toBeInstanceOf(RequestTimeoutError);
  expect(aborted.done()).toBe(false);
  await cluster.clock.advance(60_000);
  expect(aborted.done()).toBe(false); // no deadline for this one
  abort.abort(new Error('caller gave up'));
  await until('the aborted request to fail', aborted.done);
  expect(aborted.error()).toBeInstanceOf(RequestAbortedError);
  expect(String(aborted.error())).toContain('caller gave up');
});

test('abortInFlight resets every request; a write fence refuses writes but not reads or exempt writes', async () => {
  proxy.stall();
  const a = outcome(client.get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'a' }));
  const b = outcome(client.create(cm('b')));
  await until('both requests to be sent', () => transport.pending() === 2);
  expect(transport.abortInFlight('leader election lost')).toBe(2);
  await until('both to fail', () => a.done() && b.done());
  expect(String(a.error())).toContain('leader election lost');
  expect(b.error()).toBeInstanceOf(RequestAbortedError);
  proxy.heal();

  transport.fenceWrites('leader election lost');
  await expect(client.create(cm('fenced'))).rejects.toThrow('POST /api/v1/namespaces/default/configmaps: leader election lost');
  await expect(client.get(BuiltinKinds.Namespace, { name: 'default' })).resolves.toMatchObject({ metadata: { name: 'default' } });
  // A review stores nothing: the metrics filter's TokenReviews pass the fence.
  await expect(transport.request('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'x' } } })).resolves.toMatchObject({ kind: 'TokenReview' });
  await expect(client.withRequestOptions({ ignoreFence: true }).create(cm('exempt'))).resolves.toMatchObject({ metadata: { name: 'exempt' } });
  transport.fenceWrites(undefined);
  await expect(client.create(cm('after'))).resolves.toMatchObject({ metadata: { name: 'after' } });
  await expect(direct.get(BuiltinKinds.ConfigMap, { namespace: 'default', name: 'b' })).rejects.toMatchObject({ code: 404 });
});

test('a watch is bounded while it opens, not once it is open', async () => {
  const open = await transport.stream('/api/v1/namespaces/default/configmaps', { watch: true });
  await cluster.clock.advance(10_000);
  expect(open.response.destroyed).toBe(false);
  const events: string[] = [];
  open.response.on('data', (chunk: Buffer) => events.push(chunk.toString()));
  await direct.create(cm('seen'));
  await until('the event', () => events.join('').includes('"seen"'));
  open.abort();

  proxy.stall();
  const opening = outcome(transport.stream('/api/v1/namespaces/default/configmaps', { watch: true }));
  await until('the watch request to be sent', () => proxy.heldBytes() > 0);
  await cluster.clock.advance(5_000);
  await until('the opening to fail', opening.done);
  expect(opening.error()).toBeInstanceOf(RequestTimeoutError);
});
