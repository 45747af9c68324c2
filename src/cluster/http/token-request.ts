/**
 * POST serviceaccounts/<name>/token (TokenRequest, §8.3) as 1.32's TokenREST: audiences default to the
 * API server's, expirationSeconds to 3600 (at least 10 minutes, at most 2^32 s, shortened to the server's
 * --service-account-max-token-expiration when one is set), an optional binding to a Pod (whose node is
 * recorded too), Secret or Node checked by name and uid, and a pod's projected token (3607 s for the API
 * audience) extended to a year with `warnafter` at the requested expiry.
 */
import type { BoundObjectReference, TokenRequest, TokenRequestSpec } from 'kubernetes-types/authentication/v1.js';
import type { Pod } from 'kubernetes-types/core/v1.js';
import { randomUUID } from 'node:crypto';
import { invalid } from '../errors/field-errors.js';
import { badRequest, conflict, invalidObject, notFound } from '../errors/status-errors.js';
import { rfc3339 } from '../registry/system-metadata.js';
import { asStored } from '../store/kube-object.js';
import type { KubeObject } from '../store/object-store.js';
import { apiAudiences, type TokenAuthenticator } from './authentication.js';
import type { ResourceHandler } from './resource-handler.js';
import type { ObjectRef, ServiceAccountClaims } from './service-account-issuer.js';
import type { ObjectLookup } from './service-account-token-validator.js';

/** The type kubectl create token sends to serviceaccounts/token. */
const tokenRequestKind = { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', custom: false };
const defaultExpirationSeconds = 3600;
const minExpirationSeconds = 10 * 60;
const maxExpirationSeconds = 2 ** 32;
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds: what the kubelet asks for a projected token. */
export const warnOnlyExpirationSeconds = 60 * 60 + 7;
/** serviceaccount.ExpirationExtensionSeconds. */
export const extendedExpirationSeconds = 24 * 365 * 60 * 60;

export interface TokenRequestOptions {
  lookup: ObjectLookup;
  now: () => number;
  /** --service-account-max-token-expiration in seconds (kind sets none: no cap). */
  maxTokenExpirationSeconds?: number;
}

interface BoundObjects {
  pod?: ObjectRef;
  secret?: ObjectRef;
  node?: { name: string; uid?: string };
}

const refOf = (o: Readonly<KubeObject>): ObjectRef => ({ name: o.metadata.name, uid: o.metadata.uid ?? '' });

/** Looks up the object a TokenRequest binds to, as TokenREST does: by kind, in the request's namespace. */
function bindTo(ref: BoundObjectReference, serviceAccount: string, namespace: string, lookup: ObjectLookup): BoundObjects {
  const apiVersion: string = ref.apiVersion ?? '';
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
  const kind: string = ref.kind ?? '';
  const name: string = ref.name ?? '';
  let bound: BoundObjects;
  let uid: string | undefined;
  if (group === '' && kind === 'Pod') {
    const found = lookup('pods', namespace, name);
    if (!found) throw notFound({ group: '', resource: 'pods' }, name);
    const pod = asStored<Pod>(found);
    if (pod.spec?.serviceAccountName !== serviceAccount) {
      throw badRequest(`cannot bind token for serviceaccount "${serviceAccount}" to pod running with different serviceaccount name.`);
    }
    const nodeName: string | undefined = pod.spec?.nodeName || undefined;
    const node = nodeName ? lookup('nodes', undefined, nodeName) : undefined;
    bound = { pod: refOf(pod), ...(nodeName ? { node: node ? refOf(node) : { name: nodeName } } : {}) };
    uid = pod.metadata.uid;
  } else if (group === '' && kind === 'Node') {
    const node = lookup('nodes', undefined, name);
    if (!node) throw notFound({ group: '', resource: 'nodes' }, name);
    bound = { node: refOf(node) };
    uid = node.metadata.uid;
  } else if (group === '' && kind === 'Secret') {
    const secret = lookup('secrets', namespace, name);
    if (!secret) throw notFound({ group: '', resource: 'secrets' }, name);
    bound = { secret: refOf(secret) };
    uid = secret.metadata.uid;
  } else {
    throw badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
  }
  if (ref.uid && ref.uid !== uid) {
    throw conflict({ group, resource: kind }, name, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  return bound;
}

export function installTokenRequest(handler: ResourceHandler, auth: TokenAuthenticator, options: TokenRequestOptions): void {
  handler.subresourceHandlers.set('/serviceaccounts/token', (rt, ctx) => {
    if (ctx.info.verb !== 'create') throw notFound({ group: '', resource: 'serviceaccounts' }, ctx.info.name ?? '');
    const namespace = ctx.info.namespace!;
    const name = ctx.info.name!;
    const body: Partial<TokenRequest> = (handler.decodeBody(ctx, tokenRequestKind) as TokenRequest | undefined) ?? {};
    const meta = body.metadata ?? {};
    if (meta.name && meta.name !== name) {
      throw invalidObject('TokenRequest', 'authentication.k8s.io', name, [invalid('metadata.name', meta.name, 'must match the service account name if specified')]);
    }
    if (meta.namespace && meta.namespace !== namespace) {
      throw invalidObject('TokenRequest', 'authentication.k8s.io', name, [invalid('metadata.namespace', meta.namespace, 'must match the service account namespace if specified')]);
    }
    const serviceAccount = options.lookup(rt.bucket, namespace, name);
    if (!serviceAccount) throw notFound({ group: '', resource: 'serviceaccounts' }, name);
    const spec: Partial<TokenRequestSpec> = body.spec ?? {};
    const audiences: string[] = spec.audiences?.length ? spec.audiences : apiAudiences;
    let expirationSeconds: number = spec.expirationSeconds ?? defaultExpirationSeconds;
    const nowMs = options.now();
    const tooShort = expirationSeconds < minExpirationSeconds;
    const tooLong = expirationSeconds > maxExpirationSeconds;
    if (tooShort || tooLong) {
      throw invalidObject('TokenRequest', 'authentication.k8s.io', '', [
        invalid('spec.expirationSeconds', expirationSeconds, tooShort ? 'may not specify a duration less than 10 minutes' : 'may not specify a duration larger than 2^32 seconds'),
      ]);
    }
    const boundObjectRef = spec.boundObjectRef ?? null;
    const bound = boundObjectRef ? bindTo(boundObjectRef, name, namespace, options.lookup) : {};
    const warnings: string[] = [];
    const cap = options.maxTokenExpirationSeconds ?? 0;
    if (cap > 0 && expirationSeconds > cap) {
      warnings.push(`requested expiration of ${expirationSeconds} seconds shortened to ${cap} seconds`);
      expirationSeconds = cap;
    }
    // a projected token the kubelet asks for: valid for a year, reported stale after the hour it asked for
    let signedSeconds = expirationSeconds;
    let warnAfter: number | undefined;
    const issuedAt = Math.floor(nowMs / 1000);
    if (bound.pod && expirationSeconds === warnOnlyExpirationSeconds && audiences.every((a) => apiAudiences.includes(a))) {
      warnAfter = issuedAt + expirationSeconds;
      signedSeconds = Math.max(extendedExpirationSeconds, cap);
    }
    const claims: ServiceAccountClaims = {
      namespace,
      name,
      uid: serviceAccount.metadata.uid ?? '',
      audiences,
      issuedAt,
      expirationSeconds: signedSeconds,
      id: randomUUID(),
      ...bound,
      ...(warnAfter ? { warnAfter } : {}),
    };
    return {
      code: 201,
      warnings,
      body: {
        kind: 'TokenRequest',
        apiVersion: 'authentication.k8s.io/v1',
        metadata: { name, namespace, creationTimestamp: rfc3339(nowMs) },
        spec: { audiences, expirationSeconds, boundObjectRef },
        status: { token: auth.serviceAccountIssuer.sign(claims), expirationTimestamp: rfc3339(nowMs + expirationSeconds * 1000) },
      },
    };
  });
}
