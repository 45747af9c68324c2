/**
 * Checks a signed service-account token against the cluster's clock and objects, as 1.32's JWT
 * authenticators do (pkg/serviceaccount claims.go and legacy.go): the audience, exp/nbf/iat with go-jose's
 * 60 s leeway, the ServiceAccount (and the Pod, Secret or Node it is bound to) still there with the uid the
 * token names; a legacy Secret-based token only while its Secret holds it. Each refusal carries the
 * server's own words, which a TokenReview reports.
 */
import type { Secret } from 'kubernetes-types/core/v1.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject } from '../store/object-store.js';
import type { UserInfo } from './authentication.js';
import type { ObjectRef, TokenPayload } from './service-account-issuer.js';

/** go-jose's jwt.DefaultLeeway. */
const leewaySeconds = 60;

/** Reads a stored object (read-only) by bucket, namespace and name. */
export type ObjectLookup = (bucket: string, namespace: string | undefined, name: string) => Readonly<KubeObject> | undefined;

export type TokenValidation = { user: UserInfo; audiences: string[] } | { error: string };

/** Go's %q of a []string: `["a" "b"]`. */
const quotedList = (values: string[]): string => `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;

const serviceAccountUser = (namespace: string, name: string, uid: string, extra: Record<string, string[]>): UserInfo => ({
  username: `system:serviceaccount:${namespace}:${name}`,
  uid,
  groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`],
  ...(Object.keys(extra).length ? { extra: Object.fromEntries(Object.entries(extra).sort(([a], [b]) => a.localeCompare(b))) } : {}),
});

export class ServiceAccountTokenValidator {
  constructor(
    private readonly lookup: ObjectLookup,
    private readonly now: () => number,
    /** The API server's audiences (--api-audiences, defaulting to the issuer). */
    private readonly apiAudiences: string[],
  ) {}

  /** The token's audiences against the requested ones (the API server's when none are asked for). */
  private audiences(payload: TokenPayload, requested: string[] | undefined): { audiences: string[] } | { error: string } {
    const tokenAudiences: string[] = Array.isArray(payload.aud) ? payload.aud : typeof payload.aud === 'string' ? [payload.aud] : [];
    const own = tokenAudiences.length ? tokenAudiences : this.apiAudiences;
    const wanted = requested?.length ? requested : this.apiAudiences;
    const both = own.filter((a) => wanted.includes(a));
    if (!both.length) return { error: `token audiences ${quotedList(own)} is invalid for the target audiences ${quotedList(wanted)}` };
    return { audiences: both };
  }

  /** A token of the bound issuer (TokenRequest). */
  validateBound(payload: TokenPayload, requestedAudiences?: string[]): TokenValidation {
    const aud = this.audiences(payload, requestedAudiences);
    if ('error' in aud) return aud;
    const nowMs = this.now();
    const at = (seconds: unknown): number | undefined => (typeof seconds === 'number' ? seconds * 1000 : undefined);
    const nbf = at(payload.nbf);
    const exp = at(payload.exp);
    const iat = at(payload.iat);
    const leeway = leewaySeconds * 1000;
    if (nbf !== undefined && nowMs + leeway < nbf) return { error: 'service account token is not valid yet' };
    if (exp !== undefined && nowMs - leeway > exp) return { error: 'service account token has expired' };
    if (iat !== undefined && nowMs + leeway < iat) return { error: 'service account token is issued in the future' };

    const claims = payload['kubernetes.io'] ?? {};
    const namespace: string = claims.namespace ?? '';
    const saRef: Partial<ObjectRef> = claims.serviceaccount ?? {};
    const deletedBefore = (o: Readonly<KubeObject>): boolean => !!o.metadata.deletionTimestamp && Date.parse(o.metadata.deletionTimestamp) < nowMs - leeway;
    const serviceAccount = this.lookup('serviceaccounts', namespace, saRef.name ?? '');
    if (!serviceAccount) return { error: `serviceaccounts "${saRef.name ?? ''}" not found` };
    if (serviceAccount.metadata.uid !== saRef.uid) return { error: `service account UID (${serviceAccount.metadata.uid}) does not match claim (${saRef.uid ?? ''})` };
    if (deletedBefore(serviceAccount)) return { error: `service account ${namespace}/${saRef.name} has been deleted` };
    const invalidated = { error: 'service account token has been invalidated' };
    if (claims.secret) {
      const secret = this.lookup('secrets', namespace, claims.secret.name);
      if (!secret) return invalidated;
      if (secret.metadata.uid !== claims.secret.uid) return { error: `secret UID (${secret.metadata.uid}) does not match service account secret ref claim (${claims.secret.uid})` };
      if (deletedBefore(secret)) return invalidated;
    }
    const extra: Record<string, string[]> = {};
    if (claims.pod) {
      const pod = this.lookup('pods', namespace, claims.pod.name);
      if (!pod) return invalidated;
      if (pod.metadata.uid !== claims.pod.uid) return { error: `pod UID (${pod.metadata.uid}) does not match service account pod ref claim (${claims.pod.uid})` };
      if (deletedBefore(pod)) return invalidated;
      extra['authentication.kubernetes.io/pod-name'] = [claims.pod.name];
      extra['authentication.kubernetes.io/pod-uid'] = [claims.pod.uid];
    }
    if (claims.node) {
      if (!claims.pod) {
        const node = this.lookup('nodes', undefined, claims.node.name);
        if (!node) return invalidated;
        if (node.metadata.uid !== claims.node.uid) return { error: `node UID (${node.metadata.uid}) does not match service account node ref claim (${claims.node.uid ?? ''})` };
        if (deletedBefore(node)) return invalidated;
      }
      extra['authentication.kubernetes.io/node-name'] = [claims.node.name];
      if (claims.node.uid) extra['authentication.kubernetes.io/node-uid'] = [claims.node.uid];
    }
    if (typeof payload.jti === 'string' && payload.jti) extra['authentication.kubernetes.io/credential-id'] = [`JTI=${payload.jti}`];
    return { user: serviceAccountUser(namespace, saRef.name!, saRef.uid!, extra), audiences: aud.audiences };
  }

  /** A legacy token (issuer `kubernetes/serviceaccount`), good only while its Secret still holds it. */
  validateLegacy(token: string, payload: TokenPayload, requestedAudiences?: string[]): TokenValidation & { secret?: Readonly<KubeObject> } {
    const aud = this.audiences(payload, requestedAudiences);
    if ('error' in aud) return aud;
    if (!payload.sub) return { error: 'sub claim is missing' };
    const namespace: string = payload['kubernetes.io/serviceaccount/namespace'] ?? '';
    const secretName: string = payload['kubernetes.io/serviceaccount/secret.name'] ?? '';
    const name: string = payload['kubernetes.io/serviceaccount/service-account.name'] ?? '';
    const uid: string = payload['kubernetes.io/serviceaccount/service-account.uid'] ?? '';
    if (!namespace) return { error: 'namespace claim is missing' };
    if (!secretName) return { error: 'secretName claim is missing' };
    if (!name) return { error: 'serviceAccountName claim is missing' };
    if (!uid) return { error: 'serviceAccountUID claim is missing' };
    if (payload.sub !== `system:serviceaccount:${namespace}:${name}`) return { error: 'sub claim is invalid' };
    const secret = this.lookup('secrets', namespace, secretName);
    if (!secret || secret.metadata.deletionTimestamp) return { error: 'Token has been invalidated' };
    if (Buffer.from(asStored<Secret>(secret).data?.token ?? '', 'base64').toString('utf8') !== token) return { error: "Token does not match server's copy" };
    const serviceAccount = this.lookup('serviceaccounts', namespace, name);
    if (!serviceAccount) return { error: `serviceaccounts "${name}" not found` };
    if (serviceAccount.metadata.deletionTimestamp) return { error: `ServiceAccount ${namespace}/${name} has been deleted` };
    if (serviceAccount.metadata.uid !== uid) return { error: `ServiceAccount UID (${serviceAccount.metadata.uid}) does not match claim (${uid})` };
    const invalidSince = secret.metadata.labels?.['kubernetes.io/legacy-token-invalid-since'];
    if (invalidSince) {
      return {
        error: `the token in secret ${namespace}/${secretName} for service account ${namespace}/${name} has been marked invalid. Use tokens from the TokenRequest API or manually created secret-based tokens, or remove the 'kubernetes.io/legacy-token-invalid-since' label from the secret to temporarily allow use of this token`,
        secret,
      };
    }
    return { user: serviceAccountUser(namespace, name, uid, {}), audiences: aud.audiences, secret };
  }
}
