/**
 * The metrics server's authentication and authorization filter, as controller-runtime's
 * `filters.WithAuthenticationAndAuthorization`: the request's bearer token is checked with a TokenReview,
 * then the user it names is checked with a SubjectAccessReview for the request's path and verb (a
 * non-resource URL: `get /metrics`). As controller-runtime's filter (the apiserver's delegating authenticator
 * and authorizer): a token's review is kept 1 min whatever it said, a user's access 5 min when allowed and
 * 30 s when denied; concurrent requests with one token (or one user, path and verb) share one review.
 */
import type { Clock } from '../clock.js';
import type { Transport } from '../client/transport.js';
import { ReviewCache } from './review-cache.js';

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
  /** How long a TokenReview's answer is kept, authenticated or not (controller-runtime: 1 min). */
  authenticationCacheTtlMs?: number;
  /** How long an allowing SubjectAccessReview is kept (controller-runtime: 5 min). */
  allowCacheTtlMs?: number;
  /** How long a denying SubjectAccessReview is kept (controller-runtime: 30 s). */
  denyCacheTtlMs?: number;
  /** One time for all three above (wins over them when set). */
  cacheTtlMs?: number;
}

/** A TokenReview's answer: the user, or why there is none. */
type Authentication = { user: ReviewUser } | { error: string };

export class MetricsAuthFilter {
  private readonly tokens: ReviewCache<Authentication>;
  private readonly access: ReviewCache<AuthVerdict>;

  constructor(private readonly options: MetricsAuthOptions) {
    const { clock, cacheTtlMs } = options;
    const authenticationTtl = cacheTtlMs ?? options.authenticationCacheTtlMs ?? 60_000;
    const allowTtl = cacheTtlMs ?? options.allowCacheTtlMs ?? 300_000;
    const denyTtl = cacheTtlMs ?? options.denyCacheTtlMs ?? 30_000;
    this.tokens = new ReviewCache(clock, () => authenticationTtl);
    this.access = new ReviewCache(clock, (verdict) => (verdict.code === 200 ? allowTtl : denyTtl));
  }

  /** Decides one request from its Authorization header, path and HTTP method. */
  async check(authorization: string | undefined, path: string, method: string): Promise<AuthVerdict> {
    const token = bearerToken(authorization);
    if (!token) return { code: 401, message: 'Unauthorized: no bearer token' };
    const authentication = await this.tokens.get(token, () => this.reviewToken(token));
    if ('error' in authentication) return { code: 401, message: `Unauthorized: ${authentication.error}` };
    const { user } = authentication;
    const verb = method.toLowerCase();
    const key = JSON.stringify([user.username, user.uid ?? '', user.groups ?? [], user.extra ?? {}, verb, path]);
    return this.access.get(key, () => this.reviewAccess(user, path, verb));
  }

  private async reviewToken(token: string): Promise<Authentication> {
    const tokenReview = await this.options.transport.request<{ status?: { authenticated?: boolean; user?: ReviewUser; error?: string } }>('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } },
    });
    const user = tokenReview.status?.user;
    if (!tokenReview.status?.authenticated || !user?.username) return { error: tokenReview.status?.error ?? 'token not valid' };
    return { user };
  }

  private async reviewAccess(user: ReviewUser, path: string, verb: string): Promise<AuthVerdict> {
    const access = await this.options.transport.request<{ status?: { allowed?: boolean; reason?: string } }>('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', {
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
    return { code: 200, user: user.username! };
  }
}

function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  return match?.[1];
}
