/**
 * The manager's health probe endpoints (kubebuilder's `--health-probe-bind-address`): `/healthz` (the
 * process is alive) and `/readyz` (every check passes — by default, caches synced and watches healthy).
 * Metrics are served apart, by the metrics server (metrics-server.ts), as in controller-runtime.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Check = () => boolean | string;

export interface ProbeServerOptions {
  port: number;
  /** Default 127.0.0.1; "" listens on every interface. */
  host?: string;
  healthChecks: Record<string, Check>;
  readyChecks: Record<string, Check>;
}

export class ProbeServer {
  private server: http.Server | undefined;

  constructor(private readonly options: ProbeServerOptions) {}

  async start(): Promise<number> {
    const server = http.createServer((req, res) => this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port, this.options.host === '' ? undefined : this.options.host ?? '127.0.0.1', () => resolve());
    });
    return (server.address() as AddressInfo).port;
  }

  /** Where it listens, once started. */
  address(): AddressInfo | undefined {
    return (this.server?.address() as AddressInfo | null) ?? undefined;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0];
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
