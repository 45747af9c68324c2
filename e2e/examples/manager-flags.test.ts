/**
 * The manager flags every made project's cmd/main.ts and cmd/run-local.ts parse with kubeforge/runtime's
 * `parseManagerFlags` (src/runtime/manager/manager-flags.ts) and their effect on the servers they configure:
 * --metrics-cert-path with --metrics-cert-name/--metrics-cert-key (the served certificate is the one in the
 * named files), the same for the webhook server, --enable-http2 (HTTP/1.1 only unless given), --webhook-port,
 * controller-runtime's zap flags, the one line a bind failure prints, naming the flag and the port, and the
 * values of a project's own flags (`addManagerFlags`) as `parseManagerFlags` returns them.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tls from 'node:tls';
import { Registry } from 'prom-client';
import { createCertificateAuthority, issueServingCertificate } from '../../src/certificates/self-signed.js';
import { MetricsServer } from '../../src/runtime/manager/metrics-server.js';
import { KindRegistry } from '../../src/runtime/client/kinds.js';
import { WebhookServer } from '../../src/runtime/webhook/server.js';
import { BindError } from '../../src/runtime/manager/bind-address.js';
import { addManagerFlags, managerUsage, parseManagerFlags, startFailureMessage, type ManagerFlags } from '../../src/runtime/manager/manager-flags.js';

const usage = managerUsage();
const parseFlags = (argv: string[]): ReturnType<typeof parseManagerFlags> => parseManagerFlags(argv, { leaderElectionId: 'project-leader.tutorial.kubebuilder.io' });

const WidgetKind = new KindRegistry().register({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });

let dir = '';
let caPem = '';
let servingPem = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kubeforge-flags-'));
  const ca = await createCertificateAuthority('flags-test-ca');
  const serving = await issueServingCertificate(ca, 'flags-test', ['127.0.0.1']);
  caPem = ca.certPem;
  servingPem = serving.certPem;
  writeFileSync(join(dir, 'metrics-server.pem'), serving.certPem);
  writeFileSync(join(dir, 'metrics-server-key.pem'), serving.keyPem);
  writeFileSync(join(dir, 'ca.crt'), ca.certPem);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function flags(argv: string[]): ManagerFlags {
  const parsed = parseFlags(argv);
  if (parsed === 'help') throw new Error('unexpected --help');
  return parsed;
}

/** The served certificate's SHA-256 fingerprint and the protocol picked when a client offers h2 and http/1.1. */
function handshake(port: number): Promise<{ fingerprint: string; protocol: string }> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host: '127.0.0.1', port, ca: caPem, ALPNProtocols: ['h2', 'http/1.1'] }, () => {
      resolve({ fingerprint: socket.getPeerX509Certificate()!.fingerprint256, protocol: String(socket.alpnProtocol) });
      socket.destroy();
    });
    socket.on('error', reject);
  });
}

async function servedByMetrics(parsed: ManagerFlags): Promise<{ fingerprint: string; protocol: string }> {
  const server = new MetricsServer({ ...parsed.options.metrics!, bindAddress: '127.0.0.1:0', filter: 'none' }, new Registry(), undefined);
  await server.start();
  try {
    return await handshake(server.port!);
  } finally {
    await server.stop();
  }
}

async function servedByWebhooks(parsed: ManagerFlags): Promise<{ fingerprint: string; protocol: string }> {
  const server = new WebhookServer({ ...parsed.options.webhook, port: 0 });
  server.registerValidator(WidgetKind, {});
  await server.start();
  try {
    return await handshake(server.port!);
  } finally {
    await server.stop();
  }
}

const named = ['--metrics-cert-name', 'metrics-server.pem', '--metrics-cert-key', 'metrics-server-key.pem'];

test('--help lists the certificate file and HTTP/2 flags', () => {
  for (const flag of ['--metrics-cert-name', '--metrics-cert-key', '--webhook-cert-name', '--webhook-cert-key', '--enable-http2']) expect(usage).toContain(flag);
});

test('the metrics server serves the certificate in the files --metrics-cert-name and --metrics-cert-key name', async () => {
  const parsed = flags(['--metrics-bind-address=:8443', '--metrics-cert-path', dir, ...named]);
  expect(parsed.options.metrics!.certificates!.certPem).toBe(servingPem);
  const served = await servedByMetrics(parsed);
  expect(served.fingerprint).toBe(new X509Certificate(servingPem).fingerprint256);
});

test('the webhook server serves the certificate in the files --webhook-cert-name and --webhook-cert-key name', async () => {
  const parsed = flags(['--webhook-cert-path', dir, '--webhook-cert-name=metrics-server.pem', '--webhook-cert-key=metrics-server-key.pem']);
  expect(parsed.options.webhook!.certificates!.caPem).toBe(caPem);
  expect((await servedByWebhooks(parsed)).fingerprint).toBe(new X509Certificate(servingPem).fingerprint256);
});

test('the default file names are tls.crt and tls.key: a folder without them is an error naming the flag and the file', () => {
  expect(() => flags(['--metrics-cert-path', dir])).toThrow(`--metrics-cert-path: cannot read ${join(dir, 'tls.crt')}`);
  expect(() => flags(['--metrics-cert-path', dir, '--metrics-cert-name', 'metrics-server.pem'])).toThrow(`--metrics-cert-path: cannot read ${join(dir, 'tls.key')}`);
});

test('a certificate file name without its folder is an error', () => {
  expect(() => flags(['--metrics-cert-name', 'a.pem'])).toThrow('--metrics-cert-name: needs --metrics-cert-path');
  expect(() => flags(['--webhook-cert-key', 'k.pem'])).toThrow('--webhook-cert-key: needs --webhook-cert-path');
});

test('HTTP/2 is off by default on both servers and --enable-http2 turns it on for both', async () => {
  const base = ['--metrics-cert-path', dir, ...named, '--webhook-cert-path', dir, '--webhook-cert-name', 'metrics-server.pem', '--webhook-cert-key', 'metrics-server-key.pem'];
  const off = flags(base);
  expect([off.options.metrics!.enableHttp2, off.options.webhook!.enableHttp2]).toEqual([false, false]);
  expect((await servedByMetrics(off)).protocol).toBe('http/1.1');
  expect((await servedByWebhooks(off)).protocol).toBe('http/1.1');
  expect(flags([...base, '--enable-http2=false']).options.metrics!.enableHttp2).toBe(false);

  for (const on of [flags([...base, '--enable-http2']), flags([...base, '--enable-http2=true'])]) {
    expect([on.options.metrics!.enableHttp2, on.options.webhook!.enableHttp2]).toEqual([true, true]);
    expect((await servedByMetrics(on)).protocol).toBe('h2');
    expect((await servedByWebhooks(on)).protocol).toBe('h2');
  }
});

test('the webhook server listens on every interface (a pod is called at its IP) on kubebuilder port 9443', () => {
  expect(flags([]).options.webhook).toMatchObject({ host: '', port: 9443 });
});

test('--webhook-port moves the webhook server; a port that is not a number names the flag', () => {
  expect(flags(['--webhook-port', '10250']).options.webhook).toMatchObject({ host: '', port: 10250 });
  expect(flags(['--webhook-port=0']).options.webhook!.port).toBe(0);
  expect(() => flags(['--webhook-port', 'http'])).toThrow('--webhook-port: expected a port number (0–65535), got "http"');
  expect(() => flags(['--webhook-port', '70000'])).toThrow('--webhook-port: expected a port number (0–65535), got "70000"');
  expect(usage).toContain('--webhook-port <port>');
});

test('the zap flags: --zap-devel is debug, --zap-log-level and --zap-stacktrace-level and --zap-encoder are checked by name', () => {
  for (const flag of ['--zap-devel', '--zap-encoder', '--zap-log-level', '--zap-stacktrace-level']) expect(usage).toContain(flag);
  expect(flags([]).options.logger!.level).toBe('info');
  expect(flags(['--zap-devel']).options.logger!.level).toBe('debug');
  expect(flags(['--zap-devel=false']).options.logger!.level).toBe('info');
  expect(flags(['--zap-devel', '--zap-log-level=error']).options.logger!.level).toBe('error');
  expect(flags(['--zap-log-level=2']).options.logger!.level).toBe('trace');
  expect(() => flags(['--zap-encoder=yaml'])).toThrow('--zap-encoder: expected json or console, got "yaml"');
  expect(() => flags(['--zap-log-level=loud'])).toThrow('--zap-log-level: unknown log level "loud"');
  expect(() => flags(['--zap-stacktrace-level=never'])).toThrow('--zap-stacktrace-level: expected info, warn, error or panic, got "never"');
});

test('a server that cannot listen is one line naming its flag, the address given and the port', () => {
  expect(startFailureMessage(new BindError('health probe', ':8081', 8081, 'EADDRINUSE', 'port 8081 is already in use'))).toBe('--health-probe-bind-address :8081: port 8081 is already in use');
  expect(startFailureMessage(new BindError('metrics', ':8443', 8443, 'EADDRINUSE', 'port 8443 is already in use'))).toBe('--metrics-bind-address :8443: port 8443 is already in use');
  expect(startFailureMessage(new BindError('webhook', '443', 443, 'EACCES', 'permission denied to listen on port 443 (ports below 1024 need privileges)'))).toBe(
    '--webhook-port 443: permission denied to listen on port 443 (ports below 1024 need privileges)',
  );
  const other = new Error('cannot load kubeconfig');
  expect(startFailureMessage(other)).toBe('cannot load kubeconfig');
  expect(startFailureMessage(other, true)).toBe(other.stack);
});

test("a project's own flags: parseManagerFlags returns their values and the flags given; the handle holds the last good ones", () => {
  const widgetFlags = addManagerFlags({
    options: { 'widget-size': { type: 'string', default: 'small' }, 'widget-shiny': { type: 'boolean' } },
    usage: '  --widget-size <size>                the widgets\' size\n  --widget-shiny                      shiny widgets',
    check({ 'widget-size': size }) {
      if (size !== 'small' && size !== 'large') throw new Error(`--widget-size: expected small or large, got "${size}"`);
    },
  });
  // Before any parse, the defaults (as a Go flag variable before flag.Parse).
  expect(widgetFlags.values).toEqual({ 'widget-size': 'small', 'widget-shiny': undefined });
  expect(widgetFlags.given.size).toBe(0);
  const parsed = flags(['--widget-size', 'large', '--widget-shiny=true', '--leader-elect']);
  expect(parsed.values).toEqual({ 'widget-size': 'large', 'widget-shiny': true });
  expect([...parsed.given].sort()).toEqual(['leader-elect', 'widget-shiny', 'widget-size']);
  expect(widgetFlags.values).toEqual(parsed.values);
  expect(widgetFlags.given).toBe(parsed.given);
  // Refused values: an error naming the flag (also for one given without a value), and the handle keeps the last good ones.
  expect(() => flags(['--widget-size=huge'])).toThrow('--widget-size: expected small or large, got "huge"');
  expect(() => flags(['--widget-size'])).toThrow('--widget-size: expected small or large, got ""');
  expect(() => flags(['--kubeconfig'])).toThrow('--kubeconfig: expected a value (--kubeconfig=<value> or --kubeconfig <value>)');
  expect(widgetFlags.values).toEqual({ 'widget-size': 'large', 'widget-shiny': true });
  expect(flags([]).values).toEqual({ 'widget-size': 'small', 'widget-shiny': undefined });
  expect(widgetFlags.values).toEqual({ 'widget-size': 'small', 'widget-shiny': undefined });
});
