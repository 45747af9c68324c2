/**
 * The manager's HTTP endpoints: `/healthz` (the process is alive), `/readyz` (every check passes — by
 * default, caches synced and watches healthy) and `/metrics` (Prometheus text format).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export type Check = () => boolean | string;

export interface ProbeServerOptions {
  port: number;
  host?: string;
  healthChecks: Record<string, Check>;
  readyChecks: Record<string, Check>;
  metrics?: Registry;
}

export class ProbeServer {
  private server: http.Server | undefined;

  constructor(private readonly options: ProbeServerOptions) {}

  async start(): Promise<number> {
    const server = http.createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port, this.options.host ?? '127.0.0.1', () => resolve());
    });
    return (server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/metrics' && this.options.metrics) {
      res.writeHead(200, { 'Content-Type': this.options.metrics.contentType });
      res.end(await this.options.metrics.metrics());
      return;
    }
    const checks = path === '/healthz' ? this.options.healthChecks : path === '/readyz' ? this.options.readyChecks : undefined;
    if (!checks) {
      res.writeHead(404).end('not found\n');
      return;
    }
    const lines: string[] = [];
    let ok = true;
    for (const [name, check] of Object.entries(checks)) {
      const verdict = check();
      const passed = verdict === true;
      ok &&= passed;
      lines.push(passed ? `[+]${name} ok` : `[-]${name} failed: ${verdict === false ? 'not ready' : verdict}`);
    }
    res.writeHead(ok ? 200 : 500, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end(`${lines.join('\n')}\n${path.slice(1)} ${ok ? 'check passed' : 'check failed'}\n`);
  }
}
