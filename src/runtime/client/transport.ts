/**
 * HTTP to the API server over a kubeconfig (kubeforge's Kubeconfig or a client-node KubeConfig): its TLS material, bearer tokens and exec plugins
 * (applied per request, so refreshed tokens are used), on one keep-alive agent. JSON requests and
 * streaming (watch) responses; counts requests in flight so tests can tell when the client is quiet.
 * Every request has a deadline (`requestTimeoutMs`, default 60 s — the API server's own request timeout —
 * overridable per request and per client); a watch's deadline covers only its opening, the informer's
 * stall detection watches it after. A request past its deadline, aborted by its signal or by
 * `abortInFlight()` is reset (RST), so a path that holds its bytes cannot deliver them later; while
 * `fenceWrites()` is on, writes fail at once (a manager that lost its lease writes nothing more).
 */
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import tls from 'node:tls';
import type { Status } from 'kubernetes-types/meta/v1.js';
import { realClock, type Clock } from '../clock.js';
import { ApiError } from './api-error.js';
import type { KubeConfigLike } from './kubeconfig.js';

/** The default deadline of one request: the API server's own default request timeout (1 min). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

export interface TransportOptions {
  /** Deadline of each non-watch request (and of opening a watch), in ms; 0 = none. Default 60 s. */
  requestTimeoutMs?: number;
  /** The clock deadlines are measured on (default real time). */
  timeoutClock?: Clock;
}

/** A request that did not answer within its deadline (as client-go's "context deadline exceeded"). */
export class RequestTimeoutError extends Error {
  constructor(
    readonly request: string,
    readonly timeoutMs: number,
  ) {
    super(`${request}: no answer within ${timeoutMs} ms (context deadline exceeded)`);
    this.name = 'RequestTimeoutError';
  }
}

/** A request abandoned by its caller (an aborted signal, `abortInFlight()`) or refused by a write fence. */
export class RequestAbortedError extends Error {
  constructor(
    readonly request: string,
    readonly reason: string,
  ) {
    super(`${request}: ${reason}`);
    this.name = 'RequestAbortedError';
  }
}

const writeVerbs = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Reviews are answered, never stored: a fence has nothing to protect from them (the metrics filter sends them). */
const reviewPath = /\/(tokenreviews|subjectaccessreviews|localsubjectaccessreviews|selfsubjectaccessreviews|selfsubjectrulesreviews|selfsubjectreviews)$/;

function changesState(method: string, path: string): boolean {
  return writeVerbs.has(method) && !reviewPath.test(path);
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  contentType?: string;
  /** Accept header (default application/json); e.g. PartialObjectMetadata for metadata-only reads. */
  accept?: string;
  /** This request's deadline in ms (0 = none); default the transport's requestTimeoutMs. */
  timeoutMs?: number;
  /** Aborts the request (reset) when it fires. */
  signal?: AbortSignal;
  /** Passes a write fence (the lease's own requests). */
  ignoreFence?: boolean;
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
  private readonly abortables = new Set<(reason: string) => void>();
  private fence: string | undefined;
  readonly requestTimeoutMs: number;
  private readonly timeoutClock: Clock;

  constructor(
    private readonly kubeConfig: KubeConfigLike,
    options: TransportOptions = {},
  ) {
    const cluster = kubeConfig.getCurrentCluster();
    if (!cluster) throw new Error('kubeconfig has no current cluster: set current-context or pass a context');
    this.server = new URL(cluster.server);
    this.requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.timeoutClock = options.timeoutClock ?? realClock;
  }

  /** Resets every non-watch request in flight; each rejects with RequestAbortedError(reason). */
  abortInFlight(reason: string): number {
    const aborts = [...this.abortables];
    for (const abort of aborts) abort(reason);
    return aborts.length;
  }

  /** While on (a reason given), writes fail at once unless they pass `ignoreFence`; `undefined` lifts it. */
  fenceWrites(reason: string | undefined): void {
    this.fence = reason;
  }

  /** Requests not yet answered. */
  pending(): number {
    return this.inFlight;
  }

  /**
   * The open connections to the API server: each one's local port and the bytes read from it and written to
   * it (over TLS the plaintext). With the server's counts for the same port, a test environment tells whether
   * a watch event is still in the socket, which no request count shows.
   */
  connections(): Array<{ localPort: number; read: number; written: number }> {
    const agent = this.agent;
    if (!agent) return [];
    const open: Array<{ localPort: number; read: number; written: number }> = [];
    for (const pool of [agent.sockets, agent.freeSockets]) {
      for (const sockets of Object.values(pool)) {
        for (const socket of sockets ?? []) {
          // a TLS socket over a TCP socket of ours knows no port itself
          const localPort = (tcpUnder.get(socket) ?? socket).localPort;
          if (!socket.destroyed && localPort !== undefined) open.push({ localPort, read: socket.bytesRead, written: socket.bytesWritten });
        }
      }
    }
    return open;
  }

  /** Called when a request starts or finishes. */
  onActivity(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A JSON request; resolves with the parsed body, rejects with ApiError on any non-2xx answer. */
  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    if (this.fence !== undefined && !options.ignoreFence && changesState(method, path)) throw new RequestAbortedError(`${method} ${path}`, this.fence);
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
    const openedBy = this.requestTimeoutMs > 0 ? this.timeoutClock.now() + this.requestTimeoutMs : undefined;
    const options = await this.requestOptions('GET', path, query, undefined, accept);
    return new Promise((resolve, reject) => {
      const req = this.module().request(options, (res) => {
        deadline?.cancel();
        if (res.statusCode !== 200) {
          collect(res).then(
            (text) => reject(new ApiError(res.statusCode ?? 0, asStatus(safeParse(text), text), `GET ${path} (watch)`)),
            reject,
          );
          return;
        }
        resolve({ response: res, abort: () => req.destroy() });
      });
      // Only opening the watch has a deadline; once open, the informer's stall detection takes over.
      const deadline =
        openedBy === undefined
          ? undefined
          : this.timeoutClock.schedule(openedBy, () => {
              reject(new RequestTimeoutError(`GET ${path} (watch)`, this.requestTimeoutMs));
              resetRequest(req);
            });
      req.on('error', (err) => {
        deadline?.cancel(); // a refused or reset opening: its deadline must not outlive it (one timer per retry)
        reject(err);
      });
      req.end();
    });
  }

  close(): void {
    this.agent?.destroy();
    this.agent = undefined;
  }

  private send(method: string, path: string, options: RequestOptions): Promise<{ status: number; text: string }> {
    const body = options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    const what = `${method} ${path}`;
    return new Promise((resolve, reject) => {
      let req: http.ClientRequest | undefined;
      let settled = false;
      const finish = (fn: () => void): void => {
        if (settled) return;
        settled = true;
        deadline?.cancel();
        this.abortables.delete(abortNow);
        options.signal?.removeEventListener('abort', onSignal);
        fn();
      };
      const fail = (err: unknown): void => finish(() => reject(err));
      // Abandoned (deadline, signal, abortInFlight): the caller hears why first, then the request is reset.
      const abandon = (err: Error): void => {
        if (settled) return;
        fail(err);
        if (req) resetRequest(req);
      };
      const abortNow = (reason: string): void => abandon(new RequestAbortedError(what, reason));
      const onSignal = (): void => abortNow(abortReason(options.signal!));
      const timeoutMs = options.timeoutMs ?? this.requestTimeoutMs;
      // The deadline runs from the call, credentials and connection set-up included.
      const deadline = timeoutMs > 0 ? this.timeoutClock.schedule(this.timeoutClock.now() + timeoutMs, () => abandon(new RequestTimeoutError(what, timeoutMs))) : undefined;
      this.abortables.add(abortNow);
      if (options.signal?.aborted) return onSignal();
      options.signal?.addEventListener('abort', onSignal, { once: true });
      this.requestOptions(method, path, options.query, body === undefined ? undefined : options.contentType ?? 'application/json', options.accept).then((reqOptions) => {
        if (settled) return;
        if (body !== undefined) (reqOptions.headers as Record<string, string>)['Content-Length'] = String(Buffer.byteLength(body));
        const sent = this.module().request(reqOptions, (res) => {
          collect(res).then((text) => {
            // The error listener's closure reaches this promise and so the answer: a request object a
            // keep-alive socket still references would hold a whole list's text until its next request.
            sent.removeListener('error', fail);
            sent.on('error', ignoreLateError);
            finish(() => resolve({ status: res.statusCode ?? 0, text }));
          }, fail);
        });
        req = sent;
        sent.on('error', fail);
        if (body !== undefined) sent.write(body);
        sent.end();
      }, fail);
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
        ? new ResettableHttpsAgent({ keepAlive: true, maxSockets: 64, ca: opts.ca, cert: opts.cert, key: opts.key, pfx: opts.pfx, passphrase: opts.passphrase, rejectUnauthorized: opts.rejectUnauthorized, servername: opts.servername })
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

/**
 * Abandons a request with a TCP reset: the kernel drops bytes not yet acknowledged instead of sending them
 * (and the request) once a stalled path heals, and the socket never returns to the keep-alive pool.
 */
function resetRequest(req: http.ClientRequest): void {
  req.on('error', ignoreLateError);
  const socket = req.socket;
  const tcp = socket ? (tcpUnder.get(socket) ?? socket) : undefined;
  if (tcp && !tcp.destroyed && !(tcp instanceof tls.TLSSocket)) {
    tcp.on('error', ignoreLateError);
    tcp.resetAndDestroy();
  }
  req.destroy();
}

/** The TCP socket under each TLS socket the agent made (a TLS socket itself cannot send a reset). */
const tcpUnder = new WeakMap<net.Socket, net.Socket>();

/** An https.Agent whose TLS sockets run over a TCP socket it keeps, so a request can be reset. */
class ResettableHttpsAgent extends https.Agent {
  /**
   * The TLS context (CA, certificate and key parsed) per set of TLS options, as the agent names its pools:
   * made once, not for every connection tls.connect would otherwise build one for.
   */
  private readonly secureContexts = new Map<string, tls.SecureContext>();

  // The agent hands the returned socket to the request itself (its callback is for sockets made later).
  override createConnection(options: tls.ConnectionOptions & { host?: string; port?: number }): net.Socket {
    const tcp = net.connect({ host: options.host ?? 'localhost', port: options.port ?? 443 });
    const socket = tls.connect({ ...options, secureContext: options.secureContext ?? this.secureContextFor(options), socket: tcp });
    tcpUnder.set(socket, tcp);
    return socket;
  }

  private secureContextFor(options: tls.ConnectionOptions & { host?: string; port?: number }): tls.SecureContext {
    const name = this.getName(options as https.AgentOptions);
    let context = this.secureContexts.get(name);
    if (!context) this.secureContexts.set(name, (context = tls.createSecureContext(options)));
    return context;
  }
}

function abortReason(signal: AbortSignal): string {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'request aborted';
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
