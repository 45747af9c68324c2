/** `--enable-http2` on the metrics and webhook servers: HTTP/1.1 only by default, HTTP/2 and HTTP/1.1 when enabled. */
import http2 from 'node:http2';
import https from 'node:https';
import tls from 'node:tls';
import { Registry } from 'prom-client';
import { KindRegistry } from '../client/kinds.js';
import { WebhookServer } from '../webhook/server.js';
import { MetricsServer } from './metrics-server.js';

const WidgetKind = new KindRegistry().register({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });
const review = JSON.stringify({ request: { uid: 'u1', operation: 'CREATE', object: { apiVersion: 'example.com/v1', kind: 'Widget' } } });

/** The protocol the server picks in ALPN when offered both, or the handshake error. */
function negotiated(port: number, offered: string[]): Promise<string> {
  return new Promise((resolve) => {
    const socket = tls.connect({ host: '127.0.0.1', port, rejectUnauthorized: false, ALPNProtocols: offered }, () => {
      resolve(String(socket.alpnProtocol));
      socket.destroy();
    });
    socket.on('error', (err) => resolve(`error: ${err.message}`));
  });
}

/** One request over HTTP/2 (a client that speaks only h2): status and body, or the error. */
function overHttp2(port: number, path: string, body?: string): Promise<{ status?: number; text?: string; error?: string }> {
  return new Promise((resolve) => {
    const session = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
    session.on('error', (err) => resolve({ error: err.message }));
    const req = session.request({ ':path': path, ':method': body === undefined ? 'GET' : 'POST', 'content-type': 'application/json' });
    let status: number | undefined;
    let text = '';
    req.on('response', (headers) => (status = Number(headers[':status'])));
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      session.close();
      resolve({ status, text });
    });
    req.on('error', (err) => resolve({ error: err.message }));
    req.end(body);
  });
}

/** One request over HTTP/1.1: status and body. */
function overHttp1(port: number, path: string, body?: string): Promise<{ status: number; text: string; protocol: string }> {
  return new Promise((resolve, reject) => {
    const req = https.request({ host: '127.0.0.1', port, path, method: body === undefined ? 'GET' : 'POST', rejectUnauthorized: false, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text, protocol: `HTTP/${res.httpVersion}` }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function startMetrics(enableHttp2?: boolean): Promise<MetricsServer> {
  const registry = new Registry();
  registry.registerMetric(new (await import('prom-client')).Counter({ name: 'secure_serving_test_total', help: 'a test counter', registers: [] }));
  const server = new MetricsServer({ bindAddress: '127.0.0.1:0', secureServing: true, filter: 'none', ...(enableHttp2 === undefined ? {} : { enableHttp2 }) }, registry, undefined);
  await server.start();
  return server;
}

async function startWebhooks(enableHttp2?: boolean): Promise<WebhookServer> {
  const server = new WebhookServer(enableHttp2 === undefined ? {} : { enableHttp2 });
  server.registerDefaulter(WidgetKind, { default: () => {} });
  await server.start();
  return server;
}

describe('the metrics server', () => {
  test('by default speaks HTTP/1.1 only: an HTTP/2-only client is refused in the TLS handshake', async () => {
    const server = await startMetrics();
    try {
      expect(await negotiated(server.port!, ['h2', 'http/1.1'])).toBe('http/1.1');
      expect(await negotiated(server.port!, ['h2'])).toMatch(/^error: .*no application protocol/i);
      expect((await overHttp2(server.port!, '/metrics')).error).toBeDefined();
      const answer = await overHttp1(server.port!, '/metrics');
      expect(answer).toMatchObject({ status: 200, protocol: 'HTTP/1.1' });
      expect(answer.text).toContain('secure_serving_test_total 0');
    } finally {
      await server.stop();
    }
  });

  test('with enableHttp2 serves HTTP/2 and still HTTP/1.1', async () => {
    const server = await startMetrics(true);
    try {
      expect(await negotiated(server.port!, ['h2', 'http/1.1'])).toBe('h2');
      const answer = await overHttp2(server.port!, '/metrics');
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('secure_serving_test_total 0');
      expect((await overHttp2(server.port!, '/other')).status).toBe(404);
      expect(await overHttp1(server.port!, '/metrics')).toMatchObject({ status: 200, protocol: 'HTTP/1.1' });
    } finally {
      await server.stop();
    }
  });

  test('stop() closes an open HTTP/2 session instead of waiting for it', async () => {
    const server = await startMetrics(true);
    const session = http2.connect(`https://127.0.0.1:${server.port}`, { rejectUnauthorized: false });
    session.on('error', () => {});
    await new Promise<void>((resolve) => session.once('connect', () => resolve()));
    const closed = new Promise<void>((resolve) => session.once('close', () => resolve()));
    await server.stop();
    await closed;
    expect(session.destroyed).toBe(true);
  });
});

describe('the webhook server', () => {
  test('by default speaks HTTP/1.1 only', async () => {
    const server = await startWebhooks();
    try {
      expect(await negotiated(server.port!, ['h2', 'http/1.1'])).toBe('http/1.1');
      expect((await overHttp2(server.port!, '/mutate-example-com-v1-widget', review)).error).toBeDefined();
      const answer = await overHttp1(server.port!, '/mutate-example-com-v1-widget', review);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text).response).toEqual({ uid: 'u1', allowed: true });
    } finally {
      await server.stop();
    }
  });

  test('with enableHttp2 answers reviews over HTTP/2 and HTTP/1.1', async () => {
    const server = await startWebhooks(true);
    try {
      const answer = await overHttp2(server.port!, '/mutate-example-com-v1-widget', review);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text!).response).toEqual({ uid: 'u1', allowed: true });
      expect((await overHttp1(server.port!, '/mutate-example-com-v1-widget', review)).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
