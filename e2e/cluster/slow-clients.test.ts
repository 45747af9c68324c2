/**
 * Slow and half-open clients are timed out as kube-apiserver 1.32 times them out: a non-long-running
 * request that has not completed after 60 s (on the cluster's clock, or the `timeout` query parameter
 * when shorter) gets 504 "Timeout: request did not complete within the allotted timeout"; a client that
 * never finishes its headers (or its TLS handshake) is disconnected after the read-header timeout
 * (32 s; 0.3 s here, on the wall clock) without a response, as Go's server does. A client stuck sending
 * its body does not keep settle() waiting.
 */
import { connect as tlsConnect } from 'node:tls';
import { connect as netConnect } from 'node:net';
import { request as httpsRequest } from 'node:https';
import { type RawReply, useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite({ readHeaderTimeoutSeconds: 0.3 });
const cms = '/api/v1/namespaces/default/configmaps';

const timeoutStatus = {
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Timeout: request did not complete within the allotted timeout', reason: 'Timeout', details: {}, code: 504,
};

/** Starts a POST whose body never ends; resolves with the reply once the server answers. */
function stalledBody(path: string): { reply: Promise<RawReply>; abort: () => void } {
  const options = suite.adminRequestOptions(path, 'POST', { 'Content-Type': 'application/json', 'Content-Length': '1000' });
  let abort = (): void => {};
  const reply = new Promise<RawReply>((resolve, reject) => {
    const req = httpsRequest(options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ code: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.write('{"metadata":');
    abort = () => req.destroy();
  });
  return { reply, abort };
}

/** Resolves once the server has taken the headers of a request to `path` (its entry is in the request log). */
async function arrived(path: string): Promise<void> {
  const seen = () => suite.cluster.requestLog().some((e) => e.method === 'POST' && `${e.path}` === path.split('?')[0] && e.code === 0);
  for (let i = 0; i < 2_000 && !seen(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(seen()).toBe(true);
}

test('a body that stops arriving: 504 after 60 s on the cluster clock, and settle() does not wait for it', async () => {
  const { reply } = stalledBody(cms);
  let answered = false;
  void reply.then(() => (answered = true), () => (answered = true));
  await arrived(cms);
  await suite.cluster.settle();
  await suite.cluster.clock.advance(59_000);
  await new Promise((r) => setImmediate(r));
  expect(answered).toBe(false);
  await suite.cluster.clock.advance(1_000);
  const r = await reply;
  expect(r.code).toBe(504);
  expect(JSON.parse(r.text)).toEqual(timeoutStatus);
});

test('?timeout=5s shortens the deadline; a longer one is capped at 60 s; a bad one is 400', async () => {
  const short = stalledBody(`${cms}?timeout=5s`);
  await arrived(cms);
  await suite.cluster.clock.advance(5_000);
  expect((await short.reply).code).toBe(504);
  const long = stalledBody(`${cms}?timeout=10m`);
  await arrived(cms);
  await suite.cluster.clock.advance(59_999);
  const early = await Promise.race([long.reply.then(() => 'answered'), new Promise((r) => setImmediate(() => r('pending')))]);
  expect(early).toBe('pending');
  await suite.cluster.clock.advance(1);
  expect(JSON.parse((await long.reply).text)).toEqual(timeoutStatus);
  const bad = await suite.call('GET', `${cms}?timeout=soon`);
  expect(bad.code).toBe(400);
  expect(JSON.parse(bad.text).message).toBe('invalid timeout specified in the request URL - time: invalid duration "soon"');
  // time.ParseDuration's other error texts, as the API server passes them on
  const unitless = await suite.call('GET', `${cms}?timeout=5`);
  expect([unitless.code, JSON.parse(unitless.text).message]).toEqual([400, 'invalid timeout specified in the request URL - time: missing unit in duration "5"']);
  const days = await suite.call('GET', `${cms}?timeout=1d`);
  expect([days.code, JSON.parse(days.text).message]).toEqual([400, 'invalid timeout specified in the request URL - time: unknown unit "d" in duration "1d"']);
});

test('watches are long-running: no 504 after 60 s', async () => {
  const watch = await suite.watch(`${cms}?watch=true&timeoutSeconds=600`);
  await suite.cluster.clock.advance(120_000);
  await suite.call('POST', cms, { metadata: { name: 'after-two-minutes' } });
  await suite.cluster.settle();
  const names = () => watch.events.map((e) => e.object?.metadata?.name);
  for (let i = 0; i < 400 && !names().includes('after-two-minutes'); i++) await new Promise((r) => setTimeout(r, 5));
  expect(names()).toContain('after-two-minutes');
  expect(watch.res.complete).toBe(false);
  watch.close();
});

test('a TLS client that never sends its request headers is disconnected without a response', async () => {
  const url = new URL(suite.cluster.url);
  const started = Date.now();
  const socket = tlsConnect({ host: url.hostname, port: Number(url.port), ca: suite.cluster.caCertPem, servername: 'localhost' });
  let received = '';
  socket.on('data', (c: Buffer) => (received += c.toString('utf8')));
  socket.write('GET /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n');
  const closedAt = await new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
  expect(received).toBe('');
  expect(closedAt - started).toBeGreaterThanOrEqual(250);
});

test('a client that connects and never starts its TLS handshake is disconnected', async () => {
  const url = new URL(suite.cluster.url);
  const socket = netConnect({ host: url.hostname, port: Number(url.port) });
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.on('close', () => resolve()));
  expect(socket.destroyed).toBe(true);
});

test('request headers up to 1 MiB are read (Go\'s MaxHeaderBytes), not refused at Node\'s 16 KiB', async () => {
  const r = await suite.call('GET', `${cms}`, undefined, { 'X-Padding': 'p'.repeat(64 * 1024) });
  expect(r.code).toBe(200);
});
