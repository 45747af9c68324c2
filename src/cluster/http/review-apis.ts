/**
 * The create-only review APIs and ServiceAccount tokens: SubjectAccessReview,
 * LocalSubjectAccessReview, SelfSubjectAccessReview, SelfSubjectRulesReview (authorization.k8s.io),
 * SelfSubjectReview and TokenReview (authentication.k8s.io), and POST serviceaccounts/<n>/token
 * (TokenRequest) — §8.3/§8.4.
 */
import { randomUUID } from 'node:crypto';
import { invalid } from '../errors/field-errors.js';
import { invalidObject, notFound } from '../errors/status-errors.js';
import { defineKind } from '../registry/define-kind.js';
import type { ResourceType } from '../registry/resource-type.js';
import { rfc3339 } from '../registry/system-metadata.js';
import type { ObjectStore } from '../store/object-store.js';
import type { TokenAuthenticator, UserInfo } from './authentication.js';
import { isAllowed, rulesFor } from './rbac-authorizer.js';
import type { RequestInfo } from './request-info.js';
import type { ResourceHandler, ResourceRequestContext } from './resource-handler.js';
import { serviceAccountIssuer } from './service-account-issuer.js';

const createOnly = ['create'];
const review = (group: string, resource: string, kind: string, namespaced = false): ResourceType =>
  defineKind({ group, resource, kind, namespaced, verbs: createOnly, nameRule: 'path-segment', fields: ['spec', 'status'] });

export const reviewKinds: ResourceType[] = [
  review('authorization.k8s.io', 'subjectaccessreviews', 'SubjectAccessReview'),
  review('authorization.k8s.io', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview'),
  review('authorization.k8s.io', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview'),
  review('authorization.k8s.io', 'localsubjectaccessreviews', 'LocalSubjectAccessReview', true),
  review('authentication.k8s.io', 'selfsubjectreviews', 'SelfSubjectReview'),
  review('authentication.k8s.io', 'tokenreviews', 'TokenReview'),
];

function attributesToInfo(spec: any): RequestInfo {
  if (spec?.nonResourceAttributes) return { kind: 'nonresource', path: spec.nonResourceAttributes.path ?? '', verb: spec.nonResourceAttributes.verb ?? '' };
  const a = spec?.resourceAttributes ?? {};
  return {
    kind: 'resource',
    group: a.group ?? '',
    version: a.version ?? '',
    resource: a.resource ?? '',
    verb: a.verb ?? '',
    watch: a.verb === 'watch',
    ...(a.namespace ? { namespace: a.namespace } : {}),
    ...(a.name ? { name: a.name } : {}),
    ...(a.subresource ? { subresource: a.subresource } : {}),
  };
}

function answer(rt: ResourceType, body: any, status: Record<string, unknown>) {
  return { code: 201, body: { kind: rt.kind, apiVersion: `${rt.group}/${rt.version}`, metadata: { creationTimestamp: null }, spec: body?.spec ?? {}, status } };
}

/** The type kubectl create token sends to serviceaccounts/token. */
const tokenRequestKind = { group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', custom: false };

export function installReviewApis(handler: ResourceHandler, store: ObjectStore, auth: TokenAuthenticator, now: () => number): void {
  const access = (user: UserInfo, spec: any): Record<string, unknown> => {
    const allowed = isAllowed(store, user, attributesToInfo(spec));
    return allowed ? { allowed: true } : { allowed: false };
  };
  handler.createHandlers.set('authorization.k8s.io/selfsubjectaccessreviews', (rt, ctx) => {
    const body = handler.decodeBody(ctx, rt) as any;
    return answer(rt, body, access(ctx.user, body?.spec));
  });
  const subjectReview = (rt: ResourceType, ctx: ResourceRequestContext) => {
    const body = handler.decodeBody(ctx, rt) as any;
    const spec = body?.spec ?? {};
    if (rt.namespaced && spec.resourceAttributes?.namespace !== ctx.info.namespace) {
      throw invalidObject(rt.kind, rt.group, '', [invalid('spec.resourceAttributes.namespace', spec.resourceAttributes?.namespace ?? '', 'must match metadata.namespace')]);
    }
    const user: UserInfo = { username: spec.user ?? '', groups: spec.groups ?? [] };
    return answer(rt, body, access(user, spec));
  };
  handler.createHandlers.set('authorization.k8s.io/subjectaccessreviews', subjectReview);
  handler.createHandlers.set('authorization.k8s.io/localsubjectaccessreviews', subjectReview);
  handler.createHandlers.set('authorization.k8s.io/selfsubjectrulesreviews', (rt, ctx) => {
    const body = handler.decodeBody(ctx, rt) as any;
    if (ctx.user.groups.includes('system:masters')) {
      return answer(rt, body, { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false });
    }
    const rules = rulesFor(store, ctx.user, body?.spec?.namespace);
    return answer(rt, body, {
      // the bootstrap bindings (system:basic-user, system:discovery, …) are among the stored rules
      resourceRules: rules.filter((r) => !r.nonResourceURLs?.length),
      nonResourceRules: rules.filter((r) => r.nonResourceURLs?.length),
      incomplete: false,
    });
  });
  handler.createHandlers.set('authentication.k8s.io/selfsubjectreviews', (rt, ctx) => {
    handler.decodeBody(ctx, rt);
    return { code: 201, body: { kind: rt.kind, apiVersion: 'authentication.k8s.io/v1', metadata: { creationTimestamp: null }, status: { userInfo: userInfoOf(ctx.user) } } };
  });
  handler.createHandlers.set('authentication.k8s.io/tokenreviews', (rt, ctx) => {
    const body = handler.decodeBody(ctx, rt) as any;
    const user = auth.authenticate(`Bearer ${body?.spec?.token ?? ''}`);
    // every token here is good for the API server's audience (audience-agnostic tokens get the implicit one)
    return answer(rt, body, user ? { authenticated: true, user: userInfoOf(user), audiences: [serviceAccountIssuer] } : { authenticated: false });
  });
  handler.subresourceHandlers.set('/serviceaccounts/token', (rt, ctx) => {
    if (ctx.info.verb !== 'create') throw notFound({ group: '', resource: 'serviceaccounts' }, ctx.info.name ?? '');
    const ns = ctx.info.namespace!;
    const name = ctx.info.name!;
    const sa = store.get(rt.bucket, ns, name);
    if (!sa) throw notFound({ group: '', resource: 'serviceaccounts' }, name);
    const body = (handler.decodeBody(ctx, tokenRequestKind) as any) ?? {};
    const seconds = body.spec?.expirationSeconds ?? 3600;
    if (seconds < 600) {
      throw invalidObject('TokenRequest', 'authentication.k8s.io', name, [invalid('spec.expirationSeconds', seconds, 'may not specify a duration less than 10 minutes')]);
    }
    const audiences: string[] = body.spec?.audiences?.length ? body.spec.audiences : [serviceAccountIssuer];
    const issuedAt = Math.floor(now() / 1000);
    const id = randomUUID();
    const jwt = auth.serviceAccountIssuer.sign({ namespace: ns, name, uid: sa.metadata.uid, audiences, issuedAt, expirationSeconds: seconds, id });
    const token = auth.register(jwt, {
      username: `system:serviceaccount:${ns}:${name}`,
      uid: sa.metadata.uid,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`],
      extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${id}`] },
    });
    return {
      code: 201,
      body: {
        kind: 'TokenRequest',
        apiVersion: 'authentication.k8s.io/v1',
        metadata: { name, namespace: ns, creationTimestamp: null },
        spec: { audiences, expirationSeconds: seconds, boundObjectRef: null },
        status: { token, expirationTimestamp: rfc3339((issuedAt + seconds) * 1000) },
      },
    };
  });
}

/** authentication.k8s.io UserInfo: username, uid, groups, extra (the empty ones left out). */
function userInfoOf(user: UserInfo): Record<string, unknown> {
  return { username: user.username, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups, ...(user.extra ? { extra: user.extra } : {}) };
}
