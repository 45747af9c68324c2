/**
 * The HTTPS listener: authenticates, logs, injects faults, and routes every request to discovery,
 * OpenAPI, health/version, metrics, service-account issuer discovery or the resource handler; writes
 * Status errors and Warning headers; closes every socket and watch on stop.
 */
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { ApiError, pathNotFound, unauthorized } from '../errors/status-errors.js';
import type { ResourceCatalog } from '../registry/resource-catalog.js';
import { type UserInfo, type TokenAuthenticator, anonymousUser } from './authentication.js';
import { aggregatedDiscovery, aggregatedDiscoveryContentType, legacyApiGroup, legacyApiGroupList, legacyApiVersions, legacyResourceList } from './discovery.js';
import { wantsAggregatedDiscovery } from './negotiation.js';
import { type OpenAPIDocuments, openAPIV2ContentType } from './openapi.js';
import { type RequestInfo, parseRequestInfo } from './request-info.js';
import { type FaultInjector, type RequestLogEntry, faultStatus } from './request-log.js';
import { RequestHistory } from './request-history.js';
import type { ResourceHandler } from './resource-handler.js';
import type { WatchHub } from './watch.js';
import type { ObjectStore } from '../store/object-store.js';
import { impersonate } from './impersonation.js';
import { authenticateClientCertificate, combineAuthentication } from './client-certificate-authentication.js';
import { healthChecks, healthPath, healthReport } from './health-checks.js';
import { RequestMetrics, metricsContentType } from './request-metrics.js';
import type { Clock } from '../../clock/clock.js';
import { RequestDeadlines, defaultReadHeaderTimeoutSeconds, defaultRequestTimeoutSeconds, isLongRunning, requestDeadlineMs, requestTimedOut } from './request-deadline.js';

export const kubernetesVersion = {
  major: '1',
  minor: '32',
  gitVersion: 'v1.32.4',
  gitCommit: '59526cd4867447956156ae3a602fcbac10a2c335',
  gitTreeState: 'clean',
  buildDate: '2025-04-22T16:02:27Z',
  goVersion: 'go1.23.6',
  compiler: 'gc',
  platform: 'linux/amd64',
};

/** Authorizes a request for a user; returns a 403 ApiError to refuse. */
export type Authorizer = (user: UserInfo, info: RequestInfo) => ApiError | undefined;

export interface ApiServerParts {
  catalog: ResourceCatalog;
  handler: ResourceHandler;
  openapi: OpenAPIDocuments;
  watches: WatchHub;
  auth: TokenAuthenticator;
  faults: FaultInjector;
  authorize: Authorizer;
  /** For impersonation checks. */
  store: ObjectStore;
  /** Who requests without credentials are (plain-HTTP debug mode: the admin, since kubectl sends no token over http). */
  anonymous?: UserInfo;
  /** Serving certificate and key; `clientCa` (PEM) also accepts client certificates it signed (CN = user, O = groups). */
  tls?: { cert: string; key: string; clientCa?: string };
  /** Requests parked waiting for the store to reach their resourceVersion (not work settle() waits for). */
  parkedRequests?: () => number;
  /** Request log entries kept (default 10 000; 0 keeps none). */
  requestLogSize?: number;
  /** The clock request deadlines run on (the cluster's; wall time when absent). */
  clock?: Clock;
  /** Deadline of a non-long-running request, on `clock` (default 60 s). */
  requestTimeoutSeconds?: number;
  /** Wall-clock time a connection has to send its request headers / finish its TLS handshake (default 32 s). */
  readHeaderTimeoutSeconds?: number;
}

const publicPaths = new Set(['/healthz', '/livez', '/readyz', '/version', '/version/']);

export class ApiServer {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  /** Open connections by the client's port: the socket requests are read from (over TLS, the decrypted one). */
  private readonly peers = new Map<number, Socket>();
  readonly history: RequestHistory;
  private inFlight = 0;
  /** Requests still waiting for their body: the client's wait, not work settle() waits for. */
  private awaitingBody = 0;
  private readonly deadlines: RequestDeadlines;
  private readonly metrics = new RequestMetrics();

  constructor(private readonly parts: ApiServerParts) {
    this.history = new RequestHistory(parts.requestLogSize);
    this.deadlines = new RequestDeadlines(parts.clock);
  }

  /** Requests being handled right now (settle() waits for zero). */
  get busy(): boolean {
    return this.inFlight - this.awaitingBody > (this.parts.parkedRequests?.() ?? 0);
  }

  async listen(port = 0): Promise<number> {
    const handler = (req: IncomingMessage, res: ServerResponse): void => void this.serve(req, res);
    const tls = this.parts.tls;
    const readHeaderMs = (this.parts.readHeaderTimeoutSeconds ?? defaultReadHeaderTimeoutSeconds) * 1000;
    // Go's http.Server: 1 MiB of headers, ReadHeaderTimeout (also bounding the TLS handshake), no whole-request timeout
    const httpOptions = { maxHeaderSize: 1 << 20, headersTimeout: readHeaderMs, requestTimeout: 0, connectionsCheckingInterval: Math.min(1000, Math.max(50, readHeaderMs / 4)) };
    this.server = tls
      ? createHttpsServer({ ...httpOptions, handshakeTimeout: readHeaderMs, cert: tls.cert, key: tls.key, ...(tls.clientCa ? { requestCert: true, rejectUnauthorized: false, ca: tls.clientCa } : {}) }, handler)
      : createHttpServer(httpOptions, handler);
    this.server.keepAliveTimeout = 5000;
    this.server.on('clientError', answerClientError);
    // a handshake that failed or timed out ends the connection (Go closes it; Node would leave it open)
    this.server.on('tlsClientError', (_err: Error, socket: Duplex) => socket.destroy());
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    // the socket requests are read from (over TLS the decrypted one), by the client's port
    this.server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
      const port = socket.remotePort;
      if (port === undefined) return;
      this.peers.set(port, socket);
      socket.on('close', () => {
        if (this.peers.get(port) === socket) this.peers.delete(port);
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', () => resolve());
    });
    return (this.server.address() as AddressInfo).port;
  }

  /**
   * What the open connection from a client's local `port` has carried so far — bytes read from it and
   * written to it (over TLS the plaintext, as the client's own TLS socket counts) — or undefined when no
   * connection from that port is open. A test environment compares them with its client's counts to tell
   * whether anything written is still on its way (a watch event in the socket is work settle() waits for).
   */
  connectionBytes(port: number): { read: number; written: number } | undefined {
    const socket = this.peers.get(port);
    return socket && !socket.destroyed ? { read: socket.bytesRead, written: socket.bytesWritten } : undefined;
  }

  async close(): Promise<void> {
    this.parts.watches.closeAll();
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  /** apiserver_storage_objects: stored objects per `resource[.group]` the cluster serves. */
  private storedObjectCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const rt of this.parts.catalog.all()) {
      if (!rt.verbs.includes('list')) continue; // virtual kinds (reviews) store nothing
      const name = rt.group ? `${rt.resource}.${rt.group}` : rt.resource;
      if (!counts.has(name)) counts.set(name, this.parts.store.listShared(rt.bucket).length);
    }
    return counts;
  }

  private address(): string {
    const a = this.server?.address() as AddressInfo | undefined;
    return `127.0.0.1:${a?.port ?? 0}`;
  }

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.inFlight++;
    const url = requestUrl(req.url);
    const method = req.method ?? 'GET';
    if (!decodablePath(url.pathname)) {
      // Go's server refuses a request line whose path does not parse, before any handler
      this.inFlight--;
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
      res.end('400 Bad Request');
      return;
    }
    const info = parseRequestInfo(method, url.pathname, url.searchParams);
    let user: UserInfo = this.parts.anonymous ?? anonymousUser;
    const entry: RequestLogEntry = { time: new Date().toISOString(), user: user.username, groups: user.groups, method, path: url.pathname, verb: info.verb, code: 0 };
    if (info.kind === 'resource') {
      Object.assign(entry, { group: info.group, version: info.version, resource: info.resource });
      if (info.subresource) entry.subresource = info.subresource;
      if (info.namespace) entry.namespace = info.namespace;
      if (info.name) entry.name = info.name;
    }
    this.history.begin(entry);
    const endInflight = this.metrics.begin(method);
    const started = performance.now();
    res.on('close', () => this.history.finish(entry));
    res.on('finish', () => {
      entry.code = res.statusCode;
      this.history.finish(entry);
      const seconds = (performance.now() - started) / 1000;
      if (info.kind === 'resource') this.metrics.record(info, method, url.searchParams, String(req.headers['content-type'] ?? ''), res.statusCode, seconds);
    });
    let timedOut = false;
    let cancelDeadline: (() => void) | undefined;
    try {
      if (!isLongRunning(info)) {
        const ms = requestDeadlineMs(url.searchParams, this.parts.requestTimeoutSeconds ?? defaultRequestTimeoutSeconds);
        cancelDeadline = this.deadlines.add(ms, () => {
          if (res.headersSent) return;
          timedOut = true;
          // Connection: close ends the connection after the Status, whatever of the body is still unread
          writeJson(res, 504, requestTimedOut().status, [], { Connection: 'close' });
        });
      }
      this.awaitingBody++;
      let body: Buffer;
      try {
        body = await readBody(req);
      } finally {
        this.awaitingBody--;
      }
      if (timedOut) return;
      const authn = combineAuthentication(authenticateClientCertificate(req.socket), this.parts.auth.authenticate(req.headers.authorization));
      if (authn === null) throw unauthorized();
      if (authn) {
        Object.assign(entry, { user: authn.username, groups: authn.groups });
        user = impersonate(this.parts.store, authn, req.headers);
      }
      entry.user = user.username;
      entry.groups = user.groups;
      if (!publicPaths.has(url.pathname) || authn) {
        const denied = this.parts.authorize(user, info);
        if (denied) throw denied;
      }
      const fault = this.parts.faults.take(info.verb, info.kind === 'resource' ? info.resource : undefined);
      if (fault) {
        writeJson(res, fault.status, faultStatus(fault));
        return;
      }
      if (info.kind === 'nonresource') {
        this.serveNonResource(url, req, res);
        return;
      }
      const result = await this.parts.handler.handle({ info, query: url.searchParams, headers: req.headers, body, res, user });
      if (!result || timedOut) return;
      if (result.warnings?.length) entry.warnings = result.warnings;
      writeJson(res, result.code, result.body, result.warnings);
    } catch (err) {
      if (err instanceof ClientGone || timedOut) return;
      const apiError = err instanceof ApiError ? err : new ApiError(500, 'InternalError', `Internal error occurred: ${(err as Error)?.message ?? String(err)}`);
      if (!(err instanceof ApiError)) console.error('kubeforge cluster: internal error', err);
      const retryAfter = apiError.status.details?.retryAfterSeconds;
      if (retryAfter && !res.headersSent) res.setHeader('Retry-After', String(retryAfter));
      // a body left unread (one far over the limit) ends the connection after the Status
      if (!res.headersSent) writeJson(res, apiError.code, apiError.status, [], req.complete ? {} : { Connection: 'close' });
      else if (!res.writableEnded) res.end();
    } finally {
      cancelDeadline?.();
      this.inFlight--;
      endInflight();
    }
  }

  /** Health checks, service-account issuer discovery and metrics; false for other paths. */
  private serveOperational(path: string, query: URLSearchParams, res: ServerResponse): boolean {
    const health = healthPath(path);
    if (health) {
      if (health.check !== undefined && !healthChecks(health.endpoint).includes(health.check)) throw pathNotFound();
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
      res.end(health.check !== undefined ? 'ok' : healthReport(health.endpoint, query));
      return true;
    }
    if (path === '/.well-known/openid-configuration' || path === '/openid/v1/jwks') {
      const issuer = this.parts.auth.serviceAccountIssuer;
      const jwks = path === '/openid/v1/jwks';
      res.writeHead(200, { 'Content-Type': jwks ? 'application/jwk-set+json' : 'application/json', 'Cache-Control': 'public, max-age=3600' });
      res.end(jwks ? issuer.keySet() : issuer.openIdConfiguration(this.address()));
      return true;
    }
    if (path === '/metrics') {
      res.writeHead(200, { 'Content-Type': metricsContentType });
      res.end(this.metrics.render(this.storedObjectCounts(), buildInfoLabels()));
      return true;
    }
    return false;
  }

  private serveNonResource(url: RequestTarget, req: IncomingMessage, res: ServerResponse): void {
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const { catalog, openapi } = this.parts;
    const accept = req.headers.accept;
    if (path === '/version') return writeRawJson(res, 200, kubernetesVersion);
    if (this.serveOperational(path, url.searchParams, res)) return;
    if (path === '/api' || path === '/apis') {
      if (wantsAggregatedDiscovery(accept)) {
        const body = encodeJson(aggregatedDiscovery(catalog, path === '/api'));
        res.writeHead(200, { 'Content-Type': aggregatedDiscoveryContentType, 'Cache-Control': 'no-cache, private' });
        res.end(body);
        return;
      }
      return writeJson(res, 200, path === '/api' ? legacyApiVersions(this.address()) : legacyApiGroupList(catalog));
    }
    let m: RegExpExecArray | null;
    if ((m = /^\/apis\/([^/]+)$/.exec(path))) {
      const group = legacyApiGroup(catalog, m[1]!);
      if (group) return writeJson(res, 200, group);
      throw pathNotFound();
    }
    if ((m = /^\/api\/([^/]+)$/.exec(path)) || (m = /^\/apis\/([^/]+)\/([^/]+)$/.exec(path))) {
      const [group, version] = m[2] === undefined ? ['', m[1]!] : [m[1]!, m[2]!];
      const list = legacyResourceList(catalog, group, version);
      if (list) return writeJson(res, 200, list);
      throw pathNotFound();
    }
    if (path === '/openapi/v3') {
      // kube-openapi's discovery handler: json.Marshal bytes, no newline
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(openapi.root()));
      return;
    }
    if (path.startsWith('/openapi/v3/')) {
      const doc = openapi.document(path.slice('/openapi/v3/'.length));
      if (!doc) throw pathNotFound();
      const hash = url.searchParams.get('hash');
      if (hash && hash !== doc.hash) {
        res.writeHead(301, { Location: `${path}?hash=${doc.hash}`, 'Cache-Control': 'no-cache' });
        res.end();
        return;
      }
      res.writeHead(200, {
        'Content-Type': 'application/json',
        ...(hash ? { 'Cache-Control': 'public, immutable', Expires: new Date(Date.now() + 365 * 86400_000).toUTCString() } : { 'Cache-Control': 'no-cache, private' }),
      });
      res.end(doc.body);
      return;
    }
    if (path === '/openapi/v2') {
      // An empty protobuf body is a valid, empty OpenAPI v2 Document (§2.3).
      res.writeHead(200, { 'Content-Type': openAPIV2ContentType, 'Content-Length': '0' });
      res.end();
      return;
    }
    throw pathNotFound();
  }
}

/**
 * The request's path and query. The path is taken as sent: a WHATWG URL would resolve `.` and `..`
 * segments (encoded ones too) into another resource, where Go's server hands them on as they are.
 */
function requestUrl(raw = '/'): RequestTarget {
  const query = raw.indexOf('?');
  const path = query === -1 ? raw : raw.slice(0, query);
  return { pathname: path.startsWith('/') ? path : `/${path}`, searchParams: new URLSearchParams(query === -1 ? '' : raw.slice(query + 1)) };
}

function decodablePath(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** A request's path (as sent) and query. */
interface RequestTarget {
  pathname: string;
  searchParams: URLSearchParams;
}

/** kubernetes_build_info's labels. */
function buildInfoLabels(): Record<string, string> {
  const v = kubernetesVersion;
  return {
    build_date: v.buildDate, compiler: v.compiler, git_commit: v.gitCommit, git_tree_state: v.gitTreeState,
    git_version: v.gitVersion, go_version: v.goVersion, major: v.major, minor: v.minor, platform: v.platform,
  };
}

/** The client went away before its request was read whole: nothing to answer. */
class ClientGone extends Error {}

/**
 * A request the HTTP parser refused, answered as Go's server answers: a header read that timed out (or
 * a reset) closes the connection without a word; headers over 1 MiB get 431; anything else 400.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT' || err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, text] = err.code === 'HPE_HEADER_OVERFLOW' ? ['431', 'Request Header Fields Too Large'] : ['400', 'Bad Request'];
  socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n${status} ${text}`);
}

/**
 * kube-apiserver's request body limit (`--max-request-body-bytes`, 3 MiB: twice etcd's 1.5 MiB request
 * limit, room for JSON over the stored protobuf).
 */
export const maxRequestBodyBytes = 3 * 1024 * 1024;
/** How much of an over-limit body is read and dropped so the client sees the 413 (not a reset). */
const maxDiscardedBodyBytes = 64 * 1024 * 1024;

/**
 * The whole body, or a 413 for one over the limit. The rest of an over-limit body is read and dropped
 * (up to 64 MiB) so the client, still writing, gets the Status instead of a reset connection.
 */
function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const tooLarge = () => new ApiError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${maxRequestBodyBytes}`);
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= maxRequestBodyBytes) chunks.push(c);
      else if (chunks.length) chunks.length = 0;
      if (size > maxDiscardedBodyBytes) {
        req.pause();
        reject(tooLarge());
      }
    });
    req.on('end', () => (size > maxRequestBodyBytes ? reject(tooLarge()) : resolve(Buffer.concat(chunks))));
    req.on('close', () => {
      if (!req.complete) reject(new ClientGone());
    });
    req.on('error', () => reject(new ClientGone()));
  });
}

/** What the runtime serializer writes for an API object: json.Encoder output, ending with one newline. */
export function encodeJson(body: unknown): string {
  return `${JSON.stringify(body)}\n`;
}

/** An API object (or Status) as the runtime serializer writes it. */
export function writeJson(res: ServerResponse, code: number, body: unknown, warnings: string[] = [], extraHeaders: Record<string, string> = {}): void {
  const text = encodeJson(body);
  const headers: Record<string, string | string[]> = { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private', ...extraHeaders };
  if (warnings.length) headers.Warning = warnings.map((w) => `299 - ${JSON.stringify(w)}`);
  res.writeHead(code, headers);
  res.end(text);
}

/** responsewriters.WriteRawJSON, for non-API objects such as /version: two-space indented, no newline. */
function writeRawJson(res: ServerResponse, code: number, body: unknown): void {
  res.writeHead(code, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body, null, 2));
}
