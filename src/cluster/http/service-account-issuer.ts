/**
 * The service-account token issuer (kube-apiserver's --service-account-issuer and signing key): signs
 * TokenRequest tokens as JWTs with the claims 1.32 writes, and serves the OIDC discovery document
 * (`/.well-known/openid-configuration`) and the key set (`/openid/v1/jwks`) that let a relying party
 * verify them. The key is an ECDSA P-256 pair made at start (ES256: quick to make, unlike RSA — a
 * kind cluster's key is RSA, so its documents say RS256 where these say ES256).
 */
import { type KeyObject, createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign } from 'node:crypto';

export const serviceAccountIssuer = 'https://kubernetes.default.svc.cluster.local';
const algorithm = 'ES256';

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
}

const base64url = (data: Buffer | string): string => Buffer.from(data).toString('base64url');

/** JSON with object keys sorted at every depth, as go-jose's builder writes merged claims. */
function sortedJson(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value);
  const entries = Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${sortedJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

export class ServiceAccountTokenIssuer {
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** keyIDFromPublicKey: base64url(SHA-256(DER of the PKIX public key)). */
  readonly keyId: string;

  /** A fresh key, or the one a restarted cluster kept (PKCS#8 PEM). */
  constructor(privateKeyPem?: string) {
    const pair = privateKeyPem ? { privateKey: createPrivateKey(privateKeyPem) } : generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = createPublicKey(this.privateKey);
    this.keyId = base64url(createHash('sha256').update(this.publicKey.export({ type: 'spki', format: 'der' })).digest());
  }

  /** PKCS#8 PEM of the signing key (the data directory keeps it). */
  privateKeyPem(): string {
    return this.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  }

  /** A compact JWS of the 1.32 service-account claims. */
  sign(claims: ServiceAccountClaims): string {
    const header = base64url(JSON.stringify({ alg: algorithm, kid: this.keyId }));
    const payload = base64url(
      sortedJson({
        aud: claims.audiences,
        exp: claims.issuedAt + claims.expirationSeconds,
        iat: claims.issuedAt,
        iss: serviceAccountIssuer,
        jti: claims.id,
        'kubernetes.io': { namespace: claims.namespace, serviceaccount: { name: claims.name, uid: claims.uid } },
        nbf: claims.issuedAt,
        sub: `system:serviceaccount:${claims.namespace}:${claims.name}`,
      }),
    );
    const signature = sign('sha256', Buffer.from(`${header}.${payload}`), { key: this.privateKey, dsaEncoding: 'ieee-p1363' });
    return `${header}.${payload}.${base64url(signature)}`;
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
