/**
 * The one setup every e2e/cluster test file shares: a local cluster started before the file's tests and
 * stopped after them, an admin kubectl bound to it, kubectl for other users (by token or by client
 * certificate, cleaned up with it), and raw requests and watch streams as the admin for what kubectl
 * cannot send.
 */
import type { IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest, type RequestOptions } from 'node:https';
import { startLocalCluster, type LocalCluster, type LocalClusterOptions } from '../../src/cluster/index.js';
import { Kubectl } from './kubectl-runner.js';
import { getPath } from './state-reads.js';

/** The virtual start time of every suite cluster unless a file asks for another. */
export const suiteStartTime = '2026-11-22T10:00:00Z';

/** What a suite file asks for besides the cluster's own options. */
export interface ClusterSuiteOptions extends LocalClusterOptions {
  /** Wait for the built-in controllers' start-up writes before the first test (the store stays put). */
  settled?: boolean;
}

/** The whole reply of one raw request. */
export interface RawReply {
  code: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** An open watch stream: its events (decoded lines) arrive in `events` as the client reads them. */
export interface WatchStream {
  res: IncomingMessage;
  events: any[];
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/**
 * Polls (settling the cluster between looks) until `check` returns something truthy: for what real processes
 * run by the kubelet do, which takes real time; `timeoutMs` only bounds a loaded machine.
 */
export async function untilSettled<T>(cluster: LocalCluster, what: string, check: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    await cluster.settle();
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export class ClusterSuite {
  private started: LocalCluster | undefined;
  private readonly users: Kubectl[] = [];
  /** Admin kubectl; usable at module level, runs only once the cluster is up. */
  readonly kubectl = new Kubectl(() => this.cluster.kubeconfigPath);

  /** The running cluster (only inside tests and hooks). */
  get cluster(): LocalCluster {
    if (!this.started) throw new Error('the suite cluster is read before beforeAll started it (or after afterAll stopped it)');
    return this.started;
  }

  /** `untilSettled` on the suite's cluster. */
  until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs?: number): Promise<T> {
    return untilSettled(this.cluster, what, check, timeoutMs);
  }

  /** kubectl authenticated as `user` in `groups`, with a kubeconfig of its own. */
  kubectlAs(user: string, groups: string[] = []): Kubectl {
    const cluster = this.cluster;
    return this.track(new Kubectl(cluster.writeKubeconfig(`${cluster.kubeconfigPath}-${user}`, { user, groups })));
  }

  /** kubectl authenticated by a fresh client certificate (CN = user, O = each group) the cluster CA signs. */
  async kubectlWithCertificate(user: string, groups: string[] = []): Promise<Kubectl> {
    const cluster = this.cluster;
    return this.track(new Kubectl(await cluster.writeCertificateKubeconfig(`${cluster.kubeconfigPath}-${user}`, { user, groups })));
  }

  /**
   * Options of a request to the suite cluster as the admin (bearer token, the cluster CA), for a
   * test that reads the response itself (watch streams); `headers` add to or replace the defaults.
   */
  adminRequestOptions(path: string, method = 'GET', headers: OutgoingHttpHeaders = {}): RequestOptions {
    const cluster = this.cluster;
    const url = new URL(path, cluster.url);
    return {
      protocol: url.protocol,
      host: url.hostname,
      port: url.port,
      path: url.pathname + url.search,
      method,
      ...(cluster.caCertPem ? { ca: cluster.caCertPem } : {}),
      headers: { Authorization: `Bearer ${cluster.adminToken}`, ...headers },
    };
  }

  /**
   * One request as the admin, resolved with the whole reply. A string or Buffer body is sent as it is, any
   * other as JSON; Content-Type is JSON unless `headers` name another.
   */
  call(method: string, path: string, body?: unknown, headers: OutgoingHttpHeaders = {}): Promise<RawReply> {
    const options = this.adminRequestOptions(path, method, { 'Content-Type': 'application/json', ...headers });
    const send = options.protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise((resolve, reject) => {
      const req = send(options, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ code: res.statusCode ?? 0, headers: res.headers, text }));
      });
      req.on('error', reject);
      req.end(body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
    });
  }

  /**
   * The server's answer to what `kubectl get … -o json` reads (state-reads.ts: which arguments), as the admin
   * without starting kubectl, for a test reading state, not testing kubectl; managedFields left out as kubectl
   * leaves them out unless `showManagedFields`. A list is the server's (kind PodList…; kubectl's is a List whose
   * items also carry kind and apiVersion).
   */
  async getJson(args: string[], showManagedFields = false): Promise<any> {
    const path = getPath(this.cluster.internals.catalog, args);
    const reply = await this.call('GET', path);
    if (reply.code !== 200) throw new Error(`GET ${path} (kubectl ${args.join(' ')}) answered ${reply.code}: ${reply.text}`);
    const body = JSON.parse(reply.text);
    if (!showManagedFields) for (const object of Array.isArray(body.items) ? body.items : [body]) delete object.metadata?.managedFields;
    return body;
  }

  /** Opens a watch (`path` with `?watch=true…`) as the admin; resolves once the response starts. */
  watch(path: string): Promise<WatchStream> {
    const options = this.adminRequestOptions(path);
    const send = options.protocol === 'http:' ? httpRequest : httpsRequest;
    return new Promise((resolve, reject) => {
      const events: any[] = [];
      let buffered = '';
      const req = send(options, (res) => {
        const ended = new Promise<void>((r) => res.on('end', () => r()));
        res.on('data', (chunk: Buffer) => {
          buffered += chunk.toString('utf8');
          let nl: number;
          while ((nl = buffered.indexOf('\n')) >= 0) {
            events.push(JSON.parse(buffered.slice(0, nl)));
            buffered = buffered.slice(nl + 1);
          }
        });
        resolve({ res, events, ended, close: () => req.destroy() });
      });
      req.on('error', reject);
      req.end();
    });
  }

  async start(options: ClusterSuiteOptions): Promise<void> {
    const { settled, ...clusterOptions } = options;
    this.started = await startLocalCluster(clusterOptions);
    if (settled) await this.started.settle();
  }

  async stop(): Promise<void> {
    await this.started?.stop();
    this.started = undefined;
    await Promise.all([...this.users.splice(0), this.kubectl].map((k) => k.cleanup()));
  }

  private track(k: Kubectl): Kubectl {
    this.users.push(k);
    return k;
  }
}

/** Registers beforeAll/afterAll for one cluster in the calling file (or describe block). */
export function useClusterSuite(options: ClusterSuiteOptions = {}): ClusterSuite {
  const suite = new ClusterSuite();
  beforeAll(() => suite.start({ now: suiteStartTime, ...options }));
  afterAll(() => suite.stop());
  return suite;
}
