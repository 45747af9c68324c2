/**
 * Bearer-token identities: the admin token written into the kubeconfig, tokens issued for test
 * users, service-account tokens (JWTs its issuer signs, checked on every use against the cluster's
 * clock and objects), and the anonymous user for requests without credentials (§8.2).
 */
import { randomBytes } from 'node:crypto';
import type { KubeObject } from '../store/object-store.js';
import { ServiceAccountTokenIssuer, serviceAccountIssuer } from './service-account-issuer.js';
import { type ObjectLookup, ServiceAccountTokenValidator } from './service-account-token-validator.js';

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  /** e.g. a service-account token's `authentication.kubernetes.io/credential-id`. */
  extra?: Record<string, string[]>;
}

export const anonymousUser: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

/** The audiences the API server accepts (kube-apiserver's --api-audiences defaults to the issuer). */
export const apiAudiences = [serviceAccountIssuer];

/** A token's verdict: who it is and for which audiences, or why not (a TokenReview's status.error). */
export type TokenVerdict = { user: UserInfo; audiences: string[] } | { error: string };

/** The bearer-token authenticator's own refusal (bearertoken.invalidToken). */
const invalidBearerToken = 'invalid bearer token';

/**
 * utilerrors.NewAggregate(...).Error(): one distinct message bare, several in brackets. The loopback token
 * authenticator the server puts in front always adds "invalid bearer token".
 */
const aggregate = (messages: string[]): string => {
  const distinct = [...new Set(messages)];
  return distinct.length === 1 ? distinct[0]! : `[${distinct.join(', ')}]`;
};

/** What the authenticator reads and does in the cluster besides its own table. */
export interface ClusterAccess {
  lookup: ObjectLookup;
  /** The cluster's clock, in ms. */
  now: () => number;
  /** Called after a legacy Secret-based token authenticates (the server records the day it was last used). */
  legacyTokenUsed?: (secret: Readonly<KubeObject>) => void;
  /** The service-account signing key of an earlier run (PKCS#8 PEM); a new one is made when absent. */
  signingKeyPem?: string;
}

/** Credentials a restarted cluster keeps (from its data directory). */
export interface PersistedCredentials {
  adminToken: string;
  /** PKCS#8 PEM of the service-account signing key. */
  serviceAccountKeyPem: string;
  /** Every other accepted token with its user. */
  tokens: Array<{ token: string; user: UserInfo }>;
}

/** Told of every token accepted or revoked (the data directory keeps them). */
export interface TokenListener {
  saved(token: string, user: UserInfo): void;
  removed(token: string): void;
}

export class TokenAuthenticator {
  private readonly tokens = new Map<string, UserInfo>();
  readonly adminToken: string;
  /** Signs service-account tokens and publishes their key (OIDC discovery). */
  readonly serviceAccountIssuer: ServiceAccountTokenIssuer;
  private readonly validator: ServiceAccountTokenValidator | undefined;
  listener: TokenListener | undefined;

  /**
   * `kept`: credentials of an earlier run (a restart with a data directory, or `credentialsOf`): its admin
   * token, service-account signing key and accepted tokens; fresh ones otherwise.
   */
  constructor(private readonly cluster?: ClusterAccess, kept?: Partial<PersistedCredentials>) {
    this.serviceAccountIssuer = new ServiceAccountTokenIssuer(kept?.serviceAccountKeyPem ?? cluster?.signingKeyPem);
    for (const { token, user } of kept?.tokens ?? []) this.tokens.set(token, user);
    const admin = { username: 'kubeforge-admin', groups: ['system:masters'] };
    this.adminToken = kept?.adminToken ? this.register(kept.adminToken, admin) : this.issue(admin);
    this.validator = cluster && new ServiceAccountTokenValidator(cluster.lookup, cluster.now, apiAudiences);
  }

  /** Issues a token for a user; `system:authenticated` is always added. */
  issue(user: UserInfo, prefix = 'kf'): string {
    return this.register(`${prefix}-${randomBytes(24).toString('base64url')}`, user);
  }

  /** Accepts `token` (one minted elsewhere) as `user`; returns it. */
  register(token: string, user: UserInfo): string {
    const groups = withAuthenticated(user.groups);
    this.tokens.set(token, { ...user, groups });
    this.listener?.saved(token, { ...user, groups });
    return token;
  }

  revokeWhere(pred: (user: UserInfo) => boolean): void {
    for (const [t, u] of this.tokens) {
      if (!pred(u)) continue;
      this.tokens.delete(t);
      this.listener?.removed(t);
    }
  }

  /**
   * Checks a bearer token for `audiences` (the API server's when none are given): static tokens are good for
   * any audience; service-account JWTs are verified, then checked against the clock and the objects they
   * name. Refusals read as the 1.32 server words them.
   */
  check(token: string, audiences?: string[]): TokenVerdict {
    const wanted = audiences?.length ? audiences : apiAudiences;
    const known = this.tokens.get(token);
    if (known) return { user: known, audiences: wanted };
    const verified = this.serviceAccountIssuer.verify(token);
    if (verified.kind === 'foreign') return { error: invalidBearerToken };
    if (verified.kind === 'bad-signature') return { error: aggregate([invalidBearerToken, 'square/go-jose: error in cryptographic primitive']) };
    if (!this.validator) return { error: invalidBearerToken };
    const result = verified.kind === 'bound' ? this.validator.validateBound(verified.payload, audiences) : this.validator.validateLegacy(token, verified.payload, audiences);
    const legacySecret = (result as { secret?: Readonly<KubeObject> }).secret;
    if (legacySecret) this.cluster?.legacyTokenUsed?.(legacySecret);
    if ('error' in result) return { error: aggregate([invalidBearerToken, result.error]) };
    return { user: { ...result.user, groups: withAuthenticated(result.user.groups) }, audiences: result.audiences };
  }

  /** undefined = no credentials; null = credentials that are not valid (401). */
  authenticate(authorization: string | undefined): UserInfo | undefined | null {
    if (!authorization) return undefined;
    const m = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!m) return null;
    const verdict = this.check(m[1]!);
    return 'user' in verdict ? verdict.user : null;
  }
}

function withAuthenticated(groups: string[]): string[] {
  return groups.includes('system:authenticated') ? groups : [...groups, 'system:authenticated'];
}
