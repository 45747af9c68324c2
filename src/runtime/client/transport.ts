/**
 * HTTP to the API server over a client-node KubeConfig: its TLS material, bearer tokens and exec plugins
 * (applied per request, so refreshed tokens are used), on one keep-alive agent. JSON requests and
 * streaming (watch) responses; counts requests in flight so tests can tell when the client is quiet.
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import type { Status } from 'kubernetes-types/meta/v1.js';
import { ApiError } from './api-error.js';

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  /** Accept header (default application/json); e.g. PartialObjectMetadata for metadata-only reads. */
  accept?: string;
}

export interface StreamHandle {
  response: http.IncomingMessage;
  abort(): void;
}

export class Transport {
  private agent: http.Agent | undefined;
  private readonly server: URL;
  private inFlight = 0;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly kubeConfig: KubeConfig) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster: set current-context or pass a context');
    this.server = new URL(cluster.server);
  }

  /** Requests not yet answered. */
  pending(): number {
    return this.inFlight;
  }

  /** Called when a request starts or finishes. */
  onActivity(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A JSON request; resolves with the parsed body, rejects with ApiError on any non-2xx answer. */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    this.track(+1);
    try {
      const { status, text } = await this.send(method, path, options);
      const parsed = text ? safeParse(text) : undefined;
      if (status < 200 || status > 299) throw new ApiError(status, asStatus(parsed, text), `${method} ${path}`);
      return parsed as T;
    } finally {
      this.track(-1);
    }
  }

  /** Opens a streaming GET (a watch); rejects with ApiError when the answer is not 200. */
  async stream(path: string, query: RequestOptions['query'], accept?: string): Promise<StreamHandle> {
    const options = await this.requestOptions('GET', path, query, undefined, accept);
    return new Promise((resolve, reject) => {
      const req = this.module().request(options, (res) => {
        if (res.statusCode !== 200) {
          collect(res).then(
            (text) => reject(new ApiError(res.statusCode ?? 0, asStatus(safeParse(text), text), `GET ${path} (watch)`)),
            reject,
          );
          return;
        }
        resolve({ response: res, abort: () => req.destroy() });
      });
      req.on('error', reject);
      req.end();
    });
  }

  close(): void {
    this.agent?.destroy();
    this.agent = undefined;
  }

  private async send(method: string, path: string, options: RequestOptions): Promise<{ status: number; text: string }> {
    const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const reqOptions = await this.requestOptions(method, path, options.query, body === undefined ? undefined : options.contentType ?? 'application/json', options.accept);
    if (body !== undefined) (reqOptions.headers as Record<string, string>)['Content-Length'] = String(Buffer.byteLength(body));
    return new Promise((resolve, reject) => {
      const req = this.module().request(reqOptions, (res) => {
        collect(res).then((text) => {
          // The error listener's closure reaches this promise and so the answer: a request object a
          // keep-alive socket still references would hold a whole list's text until its next request.
          req.removeListener('error', reject);
          req.on('error', ignoreLateError);
          resolve({ status: res.statusCode ?? 0, text });
        }, reject);
      });
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  private async requestOptions(method: string, path: string, query: RequestOptions['query'], contentType: string | undefined, accept = 'application/json'): Promise<https.RequestOptions> {
    const opts: https.RequestOptions = {};
    await this.kubeConfig.applyToHTTPSOptions(opts);
    const headers: Record<string, string> = { Accept: accept };
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k] = String(v);
    if (opts.auth) headers.Authorization = `Basic ${Buffer.from(opts.auth).toString('base64')}`;
    if (contentType) headers['Content-Type'] = contentType;
    const search = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== '') search.set(k, String(v));
    const qs = search.toString();
    return {
      method,
      protocol: this.server.protocol,
      hostname: this.server.hostname,
      port: this.server.port,
      path: `${this.server.pathname.replace(/\/$/, '')}${path}${qs ? `?${qs}` : ''}`,
      headers,
      agent: this.agentFor(opts),
      servername: opts.servername,
    };
  }

  private agentFor(opts: https.RequestOptions): http.Agent {
    if (this.agent) return this.agent;
    this.agent =
      this.server.protocol === 'https:'
        ? new https.Agent({ keepAlive: true, maxSockets: 64, ca: opts.ca, cert: opts.cert, key: opts.key, pfx: opts.pfx, passphrase: opts.passphrase, rejectUnauthorized: opts.rejectUnauthorized, servername: opts.servername })
        : new http.Agent({ keepAlive: true, maxSockets: 64 });
    return this.agent;
  }

  private module(): typeof https | typeof http {
    return this.server.protocol === 'https:' ? https : http;
  }

  private track(delta: number): void {
    this.inFlight += delta;
    for (const l of this.listeners) l();
  }
}

/** A body read whole; once read, no listener left on the response reaches the text (see send()). */
function collect(res: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] = [];
    const onData = (c: Buffer): void => void chunks.push(c);
    const onEnd = (): void => {
      const text = Buffer.concat(chunks).toString('utf8');
      chunks = [];
      res.removeListener('data', onData);
      res.removeListener('end', onEnd);
      res.removeListener('error', reject);
      res.on('error', ignoreLateError);
      resolve(text);
    };
    res.on('data', onData);
    res.on('end', onEnd);
    res.on('error', reject);
  });
}

/** An error on a request or response after its answer was read has no one left to tell. */
function ignoreLateError(): void {}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function asStatus(parsed: unknown, text: string): Status {
  if (parsed && typeof parsed === 'object' && (parsed as { kind?: string }).kind === 'Status') return parsed as Status;
  return { message: text.slice(0, 500) };
}
