/**
 * The metrics server's authentication and authorization filter, as controller-runtime's
 * `filters.WithAuthenticationAndAuthorization`: the request's bearer token is checked with a TokenReview,
 * then the user it names is checked with a SubjectAccessReview for the request's path and verb (a
 * non-resource URL: `get /metrics`). Verdicts are cached per token, path and verb for a short while.
 */
import type { Clock } from '../clock.js';
import type { Transport } from '../client/transport.js';

export type AuthVerdict =
  | { code: 200; user: string }
  | { code: 401; message: string }
  | { code: 403; message: string };

interface ReviewUser {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface MetricsAuthOptions {
  /** The manager's connection to the API server (its identity needs metrics-auth-role). */
  transport: Pick<Transport, 'request'>;
  clock: Clock;
  /** How long a verdict is reused (controller-runtime: 10 s allowed, 10 s denied). Default 10 s. */
  cacheTtlMs?: number;
}

export class MetricsAuthFilter {
  private readonly verdicts = new Map<string, { expires: number; verdict: AuthVerdict }>();

  constructor(private readonly options: MetricsAuthOptions) {}

  /** Decides one request from its Authorization header, path and HTTP method. */
  async check(authorization: string | undefined, path: string, method: string): Promise<AuthVerdict> {
    const token = bearerToken(authorization);
    if (!token) return { code: 401, message: 'Unauthorized: no bearer token' };
    const verb = method.toLowerCase();
    const key = `${token}\u0000${verb}\u0000${path}`;
    const now = this.options.clock.now();
    const cached = this.verdicts.get(key);
    if (cached && cached.expires > now) return cached.verdict;
    const verdict = await this.review(token, path, verb);
    if (this.verdicts.size > 1000) this.verdicts.clear();
    this.verdicts.set(key, { expires: now + (this.options.cacheTtlMs ?? 10_000), verdict });
    return verdict;
  }

  private async review(token: string, path: string, verb: string): Promise<AuthVerdict> {
    const { transport } = this.options;
    const tokenReview = await transport.request<{ status?: { authenticated?: boolean; user?: ReviewUser; error?: string } }>('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
    });
    const user = tokenReview.status?.user;
    if (!tokenReview.status?.authenticated || !user?.username) return { code: 401, message: `Unauthorized: ${tokenReview.status?.error ?? 'token not valid'}` };
    const access = await transport.request<{ status?: { allowed?: boolean; reason?: string } }>('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SubjectAccessReview',
        spec: {
          user: user.username,
          ...(user.uid ? { uid: user.uid } : {}),
          groups: user.groups ?? [],
          ...(user.extra ? { extra: user.extra } : {}),
          nonResourceAttributes: { path, verb },
        },
      },
    });
    if (!access.status?.allowed) {
      const reason = access.status?.reason ? `: ${access.status.reason}` : '';
      return { code: 403, message: `Forbidden (user=${user.username}, verb=${verb}, resource=, subresource=)${reason}` };
    }
    return { code: 200, user: user.username };
  }
}

function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}
