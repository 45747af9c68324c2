/**
 * The create-only review APIs: SubjectAccessReview, LocalSubjectAccessReview, SelfSubjectAccessReview,
 * SelfSubjectRulesReview (authorization.k8s.io), SelfSubjectReview and TokenReview
 * (authentication.k8s.io) — §8.3/§8.4. TokenRequest is in token-request.ts.
 */
import type { TokenReview } from 'kubernetes-types/authentication/v1.js';
import type { SelfSubjectAccessReview, SelfSubjectRulesReview, SubjectAccessReview, SubjectAccessReviewSpec } from 'kubernetes-types/authorization/v1.js';
import { invalid } from '../errors/field-errors.js';
import { badRequest, invalidObject } from '../errors/status-errors.js';
import { defineKind } from '../registry/define-kind.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { ObjectStore } from '../store/object-store.js';
import type { TokenAuthenticator, UserInfo } from './authentication.js';
import { isAllowed, rulesFor } from './rbac-authorizer.js';
import type { RequestInfo } from './request-info.js';
import type { ResourceHandler, ResourceRequestContext } from './resource-handler.js';

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

function attributesToInfo(spec: SubjectAccessReviewSpec | undefined): RequestInfo {
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

function answer(rt: ResourceType, body: { spec?: unknown } | undefined, status: Record<string, unknown>) {
  return { code: 201, body: { kind: rt.kind, apiVersion: `${rt.group}/${rt.version}`, metadata: { creationTimestamp: null }, spec: body?.spec ?? {}, status } };
}

export function installReviewApis(handler: ResourceHandler, store: ObjectStore, auth: TokenAuthenticator): void {
  const access = (user: UserInfo, spec: SubjectAccessReviewSpec | undefined): Record<string, unknown> => {
    const allowed = isAllowed(store, user, attributesToInfo(spec));
    return allowed ? { allowed: true } : { allowed: false };
  };
  handler.createHandlers.set('authorization.k8s.io/selfsubjectaccessreviews', (rt, ctx) => {
    const body = handler.decodeBody(ctx, rt) as SelfSubjectAccessReview | undefined;
    return answer(rt, body, access(ctx.user, body?.spec));
  });
  const subjectReview = (rt: ResourceType, ctx: ResourceRequestContext) => {
    const body = handler.decodeBody(ctx, rt) as SubjectAccessReview | undefined;
    const spec: SubjectAccessReviewSpec = body?.spec ?? {};
    if (rt.namespaced && spec.resourceAttributes?.namespace !== ctx.info.namespace) {
      throw invalidObject(rt.kind, rt.group, '', [invalid('spec.resourceAttributes.namespace', spec.resourceAttributes?.namespace ?? '', 'must match metadata.namespace')]);
    }
    const user: UserInfo = { username: spec.user ?? '', groups: spec.groups ?? [] };
    return answer(rt, body, access(user, spec));
  };
  handler.createHandlers.set('authorization.k8s.io/subjectaccessreviews', subjectReview);
  handler.createHandlers.set('authorization.k8s.io/localsubjectaccessreviews', subjectReview);
  handler.createHandlers.set('authorization.k8s.io/selfsubjectrulesreviews', (rt, ctx) => {
    const body = handler.decodeBody(ctx, rt) as SelfSubjectRulesReview | undefined;
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
    const body = handler.decodeBody(ctx, rt) as TokenReview | undefined;
    const token: string = body?.spec?.token ?? '';
    if (!token) throw badRequest('token is required for TokenReview in authentication');
    const verdict = auth.check(token, body?.spec?.audiences);
    // TokenReviewStatus: authenticated and audiences omitempty, user always there (empty when refused)
    return answer(rt, body, 'user' in verdict ? { authenticated: true, user: userInfoOf(verdict.user), audiences: verdict.audiences } : { user: {}, error: verdict.error });
  });
}

/** authentication.k8s.io UserInfo: username, uid, groups, extra (the empty ones left out). */
function userInfoOf(user: UserInfo): Record<string, unknown> {
  return { username: user.username, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups, ...(user.extra ? { extra: user.extra } : {}) };
}
