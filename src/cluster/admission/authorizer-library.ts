/**
 * The `authorizer` variable of ValidatingAdmissionPolicy expressions (Kubernetes' CEL authz library):
 * `authorizer.group('apps').resource('deployments').namespace('ns').name('x').check('delete').allowed()`,
 * `authorizer.path('/healthz').check('get')`, `authorizer.serviceAccount('ns', 'sa')` and
 * `authorizer.requestResource` (the resource of the request being admitted), answered by the cluster's
 * authorizer (RBAC) for the requesting user. Field and label selectors on checks are not offered.
 */
import type { Environment } from '@marcbachmann/cel-js';
import type { UserInfo } from '../http/authentication.js';
import type { RequestInfo } from '../http/request-info.js';

/** Whether `user` may do what `info` describes (the cluster's authorizer). */
export type AuthorizeFunction = (user: UserInfo, info: RequestInfo) => boolean;

const ns = 'kubernetes.authorization';

export class Decision {
  constructor(
    readonly isAllowed: boolean,
    readonly why: string,
  ) {}
}

export class PathCheck {
  constructor(
    readonly authorizer: Authorizer,
    readonly path: string,
  ) {}
}

export class GroupCheck {
  constructor(
    readonly authorizer: Authorizer,
    readonly group: string,
  ) {}
}

export class ResourceCheck {
  constructor(
    readonly authorizer: Authorizer,
    readonly target: { group: string; resource: string; subresource: string; namespace: string; name: string; version?: string },
  ) {}

  with(change: Partial<ResourceCheck['target']>): ResourceCheck {
    return new ResourceCheck(this.authorizer, { ...this.target, ...change });
  }
}

export class Authorizer {
  readonly requestResource: ResourceCheck;

  constructor(
    readonly user: UserInfo,
    readonly authorize: AuthorizeFunction,
    request: ResourceCheck['target'],
  ) {
    this.requestResource = new ResourceCheck(this, request);
  }

  decide(info: RequestInfo): Decision {
    const allowed = this.authorize(this.user, info);
    return new Decision(allowed, allowed ? 'RBAC: allowed' : '');
  }
}

/** Registers the authz types and functions and declares `authorizer`. */
export function registerAuthorizerLibrary(env: Environment): void {
  env
    .registerType(`${ns}.Decision`, Decision)
    .registerType(`${ns}.PathCheck`, PathCheck)
    .registerType(`${ns}.GroupCheck`, GroupCheck)
    .registerType(`${ns}.ResourceCheck`, ResourceCheck)
    .registerType(`${ns}.Authorizer`, { ctor: Authorizer, fields: { requestResource: `${ns}.ResourceCheck` } })
    .registerFunction(`${ns}.Authorizer.path(string): ${ns}.PathCheck`, (a: Authorizer, path: string) => new PathCheck(a, path))
    .registerFunction(`${ns}.Authorizer.group(string): ${ns}.GroupCheck`, (a: Authorizer, group: string) => new GroupCheck(a, group))
    .registerFunction(`${ns}.Authorizer.serviceAccount(string, string): ${ns}.Authorizer`, (a: Authorizer, namespace: string, name: string) => {
      const user = { username: `system:serviceaccount:${namespace}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'] };
      return new Authorizer(user, a.authorize, a.requestResource.target);
    })
    .registerFunction(`${ns}.GroupCheck.resource(string): ${ns}.ResourceCheck`, (g: GroupCheck, resource: string) =>
      new ResourceCheck(g.authorizer, { group: g.group, resource, subresource: '', namespace: '', name: '' }),
    )
    .registerFunction(`${ns}.ResourceCheck.subresource(string): ${ns}.ResourceCheck`, (r: ResourceCheck, subresource: string) => r.with({ subresource }))
    .registerFunction(`${ns}.ResourceCheck.namespace(string): ${ns}.ResourceCheck`, (r: ResourceCheck, namespace: string) => r.with({ namespace }))
    .registerFunction(`${ns}.ResourceCheck.name(string): ${ns}.ResourceCheck`, (r: ResourceCheck, name: string) => r.with({ name }))
    .registerFunction(`${ns}.ResourceCheck.check(string): ${ns}.Decision`, (r: ResourceCheck, verb: string) =>
      r.authorizer.decide({
        kind: 'resource',
        group: r.target.group,
        version: r.target.version ?? '*',
        resource: r.target.resource,
        ...(r.target.subresource ? { subresource: r.target.subresource } : {}),
        ...(r.target.namespace ? { namespace: r.target.namespace } : {}),
        ...(r.target.name ? { name: r.target.name } : {}),
        verb,
        watch: false,
      }),
    )
    .registerFunction(`${ns}.PathCheck.check(string): ${ns}.Decision`, (p: PathCheck, verb: string) => p.authorizer.decide({ kind: 'nonresource', path: p.path, verb }))
    .registerFunction(`${ns}.Decision.allowed(): bool`, (d: Decision) => d.isAllowed)
    .registerFunction(`${ns}.Decision.reason(): string`, (d: Decision) => d.why)
    .registerFunction(`${ns}.Decision.errored(): bool`, () => false)
    .registerFunction(`${ns}.Decision.error(): string`, () => '')
    .registerVariable('authorizer', `${ns}.Authorizer`);
}
