/**
 * services/proxy and pods/proxy to pods run as real processes: the request (method, path after
 * `/proxy`, query, body) is forwarded to `<pod IP>:<port>` and the answer streamed back, as the API
 * server's proxy does (over HTTPS without verifying the pod's certificate, as it does for `https:`).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { ApiError } from '../errors/status-errors.js';
import type { ResourceRequestContext } from './resource-handler.js';

/** Headers the proxy does not pass on (the caller's credentials and hop-by-hop headers). */
const dropped = new Set(['authorization', 'host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'impersonate-user', 'impersonate-group']);

/** The path after `…/<name>/proxy` in the request URL, with its query. */
function proxiedPath(ctx: ResourceRequestContext): string {
  const raw = ctx.res.req?.url ?? '/';
  const [pathname = '/', query] = raw.split(/\?(.*)/s);
  const at = pathname.indexOf('/proxy');
  const rest = at === -1 ? '/' : pathname.slice(at + '/proxy'.length) || '/';
  return query ? `${rest}?${query}` : rest;
}

/** Forwards the request to `scheme://ip:port`; resolves once the answer was written. */
export function proxyToProcess(ctx: ResourceRequestContext, scheme: 'http' | 'https', ip: string, port: number): Promise<undefined> {
  const headers: IncomingHttpHeaders = {};
  for (const [k, v] of Object.entries(ctx.headers)) if (!dropped.has(k.toLowerCase())) headers[k] = v;
  headers['content-length'] = String(ctx.body.length);
  const method = ctx.res.req?.method ?? 'GET';
  const request = scheme === 'https' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = request({ host: ip, port, path: proxiedPath(ctx), method, headers, ...(scheme === 'https' ? { rejectUnauthorized: false } : {}) }, (res) => {
      ctx.res.writeHead(res.statusCode ?? 502, res.headers);
      res.pipe(ctx.res);
      res.on('end', () => resolve(undefined));
      res.on('error', () => resolve(undefined));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      const why = err.code === 'ECONNREFUSED' ? 'connect: connection refused' : err.message;
      reject(new ApiError(503, 'ServiceUnavailable', `error trying to reach service: dial tcp ${ip}:${port}: ${why}`));
    });
    req.end(ctx.body);
  });
}
