/**
 * The service-account token issuer (kube-apiserver's --service-account-issuer and signing key): signs
 * TokenRequest tokens as JWTs with the claims 1.32 writes (and legacy Secret-based tokens under the
 * `kubernetes/serviceaccount` issuer), checks a presented token's signature and issuer, and serves the
 * OIDC discovery document (`/.well-known/openid-configuration`) and the key set (`/openid/v1/jwks`)
 * that let a relying party verify them. The key is an ECDSA P-256 pair made at start (ES256: quick to
 * make, unlike RSA — a kind cluster's key is RSA, so its documents say RS256 where these say ES256).
 */
import { type KeyObject, createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto';

export const serviceAccountIssuer = 'https://kubernetes.default.svc.cluster.local';
/** The issuer of the long-lived tokens the token controller writes into Secrets. */
export const legacyServiceAccountIssuer = 'kubernetes/serviceaccount';
const algorithm = 'ES256';

/** A name and uid an issued token is bound to (the `kubernetes.io` claim's serviceaccount/pod/secret/node). */
export interface ObjectRef {
  name: string;
  uid: string;
}

export interface ServiceAccountClaims {
  namespace: string;
  name: string;
  uid: string;
  audiences: string[];
  /** Unix seconds. */
  issuedAt: number;
  expirationSeconds: number;
  /** The token's id (jti). */
  id: string;
  pod?: ObjectRef;
  secret?: ObjectRef;
  /** The node a bound pod runs on, or the node a token is bound to; uid may be empty when the Node is gone. */
  node?: { name: string; uid?: string };
  /** Unix seconds after which an extended projected token is reported stale (`warnafter`). */
  warnAfter?: number;
}

/** What a verified token says, as the JSON payload (both the bound and the legacy claim shapes): what `sign`/`signLegacy` write. */
export interface TokenPayload {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  exp?: number;
  nbf?: number;
  iat?: number;
  jti?: string;
  'kubernetes.io'?: {
    namespace?: string;
    serviceaccount?: ObjectRef;
    pod?: ObjectRef;
    secret?: ObjectRef;
    node?: { name: string; uid?: string };
    warnafter?: number;
  };
  'kubernetes.io/serviceaccount/namespace'?: string;
  'kubernetes.io/serviceaccount/secret.name'?: string;
  'kubernetes.io/serviceaccount/service-account.name'?: string;
  'kubernetes.io/serviceaccount/service-account.uid'?: string;
}

/** Outcome of checking a presented token: not one of ours, ours but badly signed, or verified. */
export type VerifiedToken = { kind: 'foreign' } | { kind: 'bad-signature' } | { kind: 'bound' | 'legacy'; payload: TokenPayload };

const base64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

/** JSON with object keys sorted at every depth, as go-jose's builder writes merged claims. */
function sortedJson(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value);
  const entries = Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${sortedJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

function parseJson(part: string): unknown {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

export class ServiceAccountTokenIssuer {
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** keyIDFromPublicKey: base64url(SHA-256(DER of the PKIX public key)). */
  readonly keyId: string;

  /** `signingKeyPem` (PKCS#8, from signingKeyPem() of an earlier run) keeps issued tokens valid across restarts. */
  constructor(signingKeyPem?: string) {
    this.privateKey = signingKeyPem ? createPrivateKey(signingKeyPem) : generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    this.publicKey = createPublicKey(this.privateKey);
    this.keyId = base64url(createHash('sha256').update(this.publicKey.export({ type: 'spki', format: 'der' })).digest());
  }

  /** The signing key as PKCS#8 PEM, for a cluster that keeps its credentials across restarts. */
  signingKeyPem(): string {
    return this.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  }

  /** A compact JWS of the 1.32 service-account claims. */
  sign(claims: ServiceAccountClaims): string {
    const node = claims.node ? { name: claims.node.name, ...(claims.node.uid ? { uid: claims.node.uid } : {}) } : undefined;
    return this.signPayload({
      aud: claims.audiences,
      exp: claims.issuedAt + claims.expirationSeconds,
      iat: claims.issuedAt,
      iss: serviceAccountIssuer,
      jti: claims.id,
      'kubernetes.io': {
        namespace: claims.namespace,
        serviceaccount: { name: claims.name, uid: claims.uid },
        ...(claims.pod ? { pod: claims.pod } : {}),
        ...(claims.secret ? { secret: claims.secret } : {}),
        ...(node ? { node } : {}),
        ...(claims.warnAfter ? { warnafter: claims.warnAfter } : {}),
      },
      nbf: claims.issuedAt,
      sub: `system:serviceaccount:${claims.namespace}:${claims.name}`,
    });
  }

  /** The never-expiring token the token controller writes into a `kubernetes.io/service-account-token` Secret. */
  signLegacy(namespace: string, serviceAccount: ObjectRef, secretName: string): string {
    return this.signPayload({
      iss: legacyServiceAccountIssuer,
      'kubernetes.io/serviceaccount/namespace': namespace,
      'kubernetes.io/serviceaccount/secret.name': secretName,
      'kubernetes.io/serviceaccount/service-account.name': serviceAccount.name,
      'kubernetes.io/serviceaccount/service-account.uid': serviceAccount.uid,
      sub: `system:serviceaccount:${namespace}:${serviceAccount.name}`,
    });
  }

  /**
   * Whether `token` is a JWS this issuer signed: a token of another shape or issuer is `foreign` (the JWT
   * authenticators pass it on), one of ours whose signature does not check is `bad-signature`.
   */
  verify(token: string): VerifiedToken {
    const parts = token.split('.');
    if (parts.length !== 3) return { kind: 'foreign' };
    const payload = parseJson(parts[1]!) as TokenPayload | null | undefined;
    const header = parseJson(parts[0]!) as { alg?: unknown } | null | undefined;
    if (!payload || typeof payload !== 'object' || !header || typeof header !== 'object') return { kind: 'foreign' };
    const kind = payload.iss === serviceAccountIssuer ? 'bound' : payload.iss === legacyServiceAccountIssuer ? 'legacy' : undefined;
    if (!kind) return { kind: 'foreign' };
    const signature = Buffer.from(parts[2]!, 'base64url');
    const good = header.alg === algorithm && verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), { key: this.publicKey, dsaEncoding: 'ieee-p1363' }, signature);
    return good ? { kind, payload } : { kind: 'bad-signature' };
  }

  private signPayload(payload: Record<string, unknown>): string {
    const header = base64url(JSON.stringify({ alg: algorithm, kid: this.keyId }));
    const body = base64url(sortedJson(payload));
    const signature = sign('sha256', Buffer.from(`${header}.${body}`), { key: this.privateKey, dsaEncoding: 'ieee-p1363' });
    return `${header}.${body}.${base64url(signature)}`;
  }

  /** The OIDC discovery document (openIDMetadata, fields in its order); `externalAddress` is host:port. */
  openIdConfiguration(externalAddress: string): string {
    return JSON.stringify({
      issuer: serviceAccountIssuer,
      jwks_uri: `https://${externalAddress}/openid/v1/jwks`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [algorithm],
    });
  }

  /** The key set: go-jose's JSONWebKey fields in its order (use, kty, kid, crv, alg, x, y). */
  keySet(): string {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return JSON.stringify({ keys: [{ use: 'sig', kty: 'EC', kid: this.keyId, crv: 'P-256', alg: algorithm, x: jwk.x, y: jwk.y }] });
  }
}
