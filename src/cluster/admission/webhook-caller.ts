/**
 * Calls one admission webhook: an AdmissionReview v1 POST over HTTPS verified with its caBundle (or
 * the URL a service reference resolves to on this machine), with its timeout; answers as the real
 * server does on denial, failure (`failurePolicy`) and JSON-patch responses.
 */
import { request } from 'node:https';
import { ApiError } from '../errors/status-errors.js';
import type { MatchedWebhook } from './webhook-matching.js';

export interface AdmissionResponse {
  allowed: boolean;
  status?: { code?: number; message?: string; reason?: string };
  patch?: string;
  patchType?: string;
  warnings?: string[];
}

/**
 * Resolves `clientConfig.service` references to local addresses (namespace/name → base URL), with the
 * name the serving certificate is verified for when it is not the URL's host (`<service>.<namespace>.svc`).
 */
export type ServiceResolver = (namespace: string, name: string, port: number) => string | { url: string; serverName?: string } | undefined;

/** Where a webhook is reached: an admission or a CRD conversion webhook's clientConfig. */
export interface WebhookEndpoint {
  clientConfig?: { url?: string; caBundle?: string; service?: { namespace: string; name: string; port?: number; path?: string } };
}

/** The AdmissionReview a webhook receives (admission.k8s.io/v1: kubernetes-types has no admission group). */
export interface AdmissionReview {
  apiVersion: string;
  kind: string;
  request: { uid: string; [field: string]: unknown };
}

export function webhookTarget(webhook: WebhookEndpoint, resolve: ServiceResolver | undefined): { url: string; serverName?: string } | undefined {
  const cc = webhook.clientConfig ?? {};
  if (cc.url) return { url: cc.url };
  if (cc.service) {
    const resolved = resolve?.(cc.service.namespace, cc.service.name, cc.service.port ?? 443);
    if (!resolved) return undefined;
    const base = typeof resolved === 'string' ? { url: resolved } : resolved;
    return { ...base, url: `${base.url.replace(/\/$/, '')}${cc.service.path ?? ''}` };
  }
  return undefined;
}

export function post(url: string, caBundle: string | undefined, body: string, timeoutMs: number, serverName?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request(
      {
        host: u.hostname,
        ...(serverName ? { servername: serverName } : {}),
        port: u.port || 443,
        path: `${u.pathname}${u.search ? `${u.search}&` : '?'}timeout=${Math.round(timeoutMs / 1000)}s`,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': Buffer.byteLength(body) },
        ...(caBundle ? { ca: Buffer.from(caBundle, 'base64').toString('utf8') } : {}),
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 0) >= 400) reject(new Error(`an error on the server ("${text.slice(0, 200)}") has prevented the request from succeeding`));
          else resolve(text);
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error('context deadline exceeded')));
    req.on('error', reject);
    req.end(body);
  });
}

/** Calls the webhook; undefined means "ignored" (failurePolicy Ignore after a failure). */
export async function callWebhook(m: MatchedWebhook, review: AdmissionReview, resolve: ServiceResolver | undefined): Promise<AdmissionResponse | undefined> {
  const { webhook } = m;
  const target = webhookTarget(webhook, resolve);
  const url = target?.url;
  const fail = (why: string): undefined => {
    if (webhook.failurePolicy === 'Ignore') return undefined;
    throw new ApiError(500, 'InternalError', `Internal error occurred: failed calling webhook "${webhook.name}": ${why}`);
  };
  if (!url) return fail(`failed to call webhook: service ${webhook.clientConfig?.service?.namespace}/${webhook.clientConfig?.service?.name} has no local address`);
  let text: string;
  try {
    text = await post(url, webhook.clientConfig?.caBundle, JSON.stringify(review), (webhook.timeoutSeconds ?? 10) * 1000, target?.serverName);
  } catch (err) {
    return fail(`failed to call webhook: Post "${url}": ${(err as Error).message}`);
  }
  let parsed: { response?: AdmissionResponse & { uid?: unknown } } | null;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fail('received invalid webhook response: the response is not JSON');
  }
  const response = parsed?.response;
  if (!response || response.uid !== review.request.uid) return fail('received invalid webhook response: expected response.uid to match the request.uid');
  return response;
}

/** The error the API server answers when a webhook denies a request. */
export function deniedError(name: string, response: AdmissionResponse): ApiError {
  const code = response.status?.code && response.status.code >= 400 ? response.status.code : 400;
  const detail = response.status?.message ? `: ${response.status.message}` : ' without explanation';
  const reasons: Record<number, string> = { 400: 'BadRequest', 403: 'Forbidden', 404: 'NotFound', 409: 'Conflict', 422: 'Invalid' };
  return new ApiError(code, response.status?.reason || reasons[code] || 'BadRequest', `admission webhook "${name}" denied the request${detail}`);
}
