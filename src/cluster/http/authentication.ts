/**
 * Bearer-token identities: the admin token written into the kubeconfig, tokens issued for test
 * users, service-account tokens (JWTs its issuer signs), and the anonymous user for requests without
 * credentials (§8.2).
 */
import { randomBytes } from 'node:crypto';
import { ServiceAccountTokenIssuer } from './service-account-issuer.js';

export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  /** e.g. a service-account token's `authentication.kubernetes.io/credential-id`. */
  extra?: Record<string, string[]>;
}

export const anonymousUser: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };

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
  listener: TokenListener | undefined;

  constructor(persisted?: PersistedCredentials) {
    this.serviceAccountIssuer = new ServiceAccountTokenIssuer(persisted?.serviceAccountKeyPem);
    for (const { token, user } of persisted?.tokens ?? []) this.tokens.set(token, user);
    this.adminToken = persisted ? this.register(persisted.adminToken, { username: 'kubeforge-admin', groups: ['system:masters'] }) : this.issue({ username: 'kubeforge-admin', groups: ['system:masters'] });
  }

  /** Issues a token for a user; `system:authenticated` is always added. */
  issue(user: UserInfo, prefix = 'kf'): string {
    return this.register(`${prefix}-${randomBytes(24).toString('base64url')}`, user);
  }

  /** Accepts `token` (one minted elsewhere, e.g. a signed service-account JWT) as `user`; returns it. */
  register(token: string, user: UserInfo): string {
    const groups = user.groups.includes('system:authenticated') ? user.groups : [...user.groups, 'system:authenticated'];
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

  /** undefined = no credentials; null = credentials that are not valid (401). */
  authenticate(authorization: string | undefined): UserInfo | undefined | null {
    if (!authorization) return undefined;
    const m = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!m) return null;
    return this.tokens.get(m[1]!) ?? null;
  }
}
