/**
 * The manager's metrics endpoint, served like controller-runtime's metrics server: its own address
 * (kubebuilder's `--metrics-bind-address`, ":8443" in config/default), plain HTTP or HTTPS
 * (`secureServing`, with a self-signed certificate unless one is given), and, by default when secure, the
 * authentication/authorization filter (TokenReview + SubjectAccessReview for `get /metrics`) so only
 * identities bound to the `metrics-reader` ClusterRole can scrape. "0" turns the server off. HTTPS is
 * HTTP/1.1 only unless `enableHttp2` (kubebuilder's `--enable-http2`, secure-serving.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { createCertificateAuthority, issueServingCertificate } from '../../certificates/self-signed.js';
import { parseBindAddress } from './bind-address.js';
import type { MetricsAuthFilter } from './metrics-auth.js';
import { listenSecure, type SecureListener } from './secure-serving.js';

export interface MetricsServerOptions {
  /** ":8443" (every interface), "127.0.0.1:8080", ":0" (any free port) or a port number; "0" disables. */
  bindAddress: string | number;
  /** HTTPS instead of HTTP (default false, as controller-runtime's SecureServing). */
  secureServing?: boolean;
  /**
   * Who may scrape: "authenticatedAndAuthorized" checks each request's bearer token with TokenReview and
   * SubjectAccessReview (nonResourceURLs /metrics, verb get); "none" lets anyone in. Default: the filter
   * when secureServing, none otherwise (kubebuilder's main.go sets the filter exactly when --metrics-secure).
   */
  filter?: 'authenticatedAndAuthorized' | 'none';
  /** Serving certificate and key (PEM); default a fresh self-signed one for 127.0.0.1, localhost and the host name. */
  certificates?: { certPem: string; keyPem: string };
  /** With secureServing: offer HTTP/2 too (default false, HTTP/1.1 only, as kubebuilder's `--enable-http2=false`). */
  enableHttp2?: boolean;
}

export class MetricsServer {
  private server: http.Server | SecureListener | undefined;
  /** The port listened on, once started. */
  port: number | undefined;

  constructor(
    private readonly options: MetricsServerOptions,
    private readonly registry: Registry,
    private readonly auth: MetricsAuthFilter | undefined,
    private readonly logger?: Logger,
  ) {}

  /** True when the options enable the authn/authz filter. */
  static wantsFilter(options: MetricsServerOptions): boolean {
    return (options.filter ?? (options.secureServing ? 'authenticatedAndAuthorized' : 'none')) === 'authenticatedAndAuthorized';
  }

  /** `http(s)://127.0.0.1:<port>/metrics` once started. */
  get url(): string | undefined {
    return this.port === undefined ? undefined : `${this.options.secureServing ? 'https' : 'http'}://127.0.0.1:${this.port}/metrics`;
  }

  /** Listens; resolves with the port, or undefined when the bind address disables the server. */
  async start(): Promise<number | undefined> {
    const address = parseBindAddress(this.options.bindAddress);
    if (!address) return undefined;
    const handler = (req: http.IncomingMessage, res: http.ServerResponse): void => {
      this.handle(req, res).catch((err: unknown) => {
        this.logger?.error({ err: String(err) }, 'metrics request failed');
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('Internal Server Error\n');
      });
    };
    if (this.options.secureServing) {
      const certs = this.options.certificates ?? (await selfSignedServing());
      const listener = await listenSecure({ ...certs, enableHttp2: this.options.enableHttp2 }, address.host, address.port, handler);
      this.server = listener;
      this.port = listener.port;
    } else {
      const server = http.createServer(handler);
      this.server = server;
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(address.port, address.host, () => resolve());
      });
      this.port = (server.address() as AddressInfo).port;
    }
    const protocols = this.options.secureServing ? (this.server as SecureListener).protocols : ['http/1.1'];
    this.logger?.info({ url: this.url, secure: Boolean(this.options.secureServing), filter: Boolean(this.auth), protocols }, 'serving metrics');
    return this.port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.port = undefined;
    if (!server) return;
    if (!(server instanceof http.Server)) return server.stop();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0]!;
    if (this.auth) {
      const verdict = await this.auth.check(req.headers.authorization, path, req.method ?? 'GET');
      if (verdict.code !== 200) {
        res.writeHead(verdict.code, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(`${verdict.message}\n`);
        return;
      }
    }
    if (path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
      return;
    }
    res.writeHead(200, { 'Content-Type': this.registry.contentType });
    res.end(await this.registry.metrics());
  }
}

/** A throw-away CA and serving certificate for local runs (clients scrape with insecureSkipVerify or this CA). */
async function selfSignedServing(): Promise<{ certPem: string; keyPem: string }> {
  const ca = await createCertificateAuthority('kubeforge-metrics-ca');
  return issueServingCertificate(ca, 'kubeforge-metrics', ['127.0.0.1', 'localhost', os.hostname()]);
}
