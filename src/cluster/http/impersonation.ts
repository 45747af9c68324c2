/**
 * Impersonation (`kubectl --as`, `--as-group`): the Impersonate-User / Impersonate-Group /
 * Impersonate-Uid headers switch the request's identity when the authenticated user may `impersonate`
 * users, groups and service accounts (§8.2 item 3).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../errors/status-errors.js';
import type { ObjectStore } from '../store/object-store.js';
import type { UserInfo } from './authentication.js';
import { isAllowed } from './rbac-authorizer.js';

function headerValues(headers: IncomingHttpHeaders, name: string): string[] {
  const v = headers[name];
  if (v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).flatMap((x) => x.split(',')).map((x) => x.trim()).filter(Boolean);
}

function mayImpersonate(store: ObjectStore, user: UserInfo, resource: string, name: string, namespace?: string): boolean {
  return isAllowed(store, user, { kind: 'resource', group: '', version: 'v1', resource, name, verb: 'impersonate', watch: false, ...(namespace ? { namespace } : {}) });
}

/** The identity the request runs as; throws 403 when impersonation is not allowed. */
export function impersonate(store: ObjectStore, user: UserInfo, headers: IncomingHttpHeaders): UserInfo {
  const [target] = headerValues(headers, 'impersonate-user');
  const groups = headerValues(headers, 'impersonate-group');
  if (target === undefined) {
    if (groups.length) throw new ApiError(500, 'InternalError', 'Internal error occurred: requested [group impersonation] without impersonating a user');
    return user;
  }
  const sa = /^system:serviceaccount:([^:]+):([^:]+)$/.exec(target);
  const allowedUser = sa ? mayImpersonate(store, user, 'serviceaccounts', sa[2]!, sa[1]) : mayImpersonate(store, user, 'users', target);
  if (!allowedUser) {
    const what = sa ? `serviceaccounts "${sa[2]}"` : `users "${target}"`;
    const scope = sa ? `in the namespace "${sa[1]}"` : 'at the cluster scope';
    throw new ApiError(403, 'Forbidden', `${what} is forbidden: User "${user.username}" cannot impersonate resource "${sa ? 'serviceaccounts' : 'users'}" in API group "" ${scope}`, {
      name: sa ? sa[2] : target,
      kind: sa ? 'serviceaccounts' : 'users',
    });
  }
  for (const g of groups) {
    if (!mayImpersonate(store, user, 'groups', g)) {
      throw new ApiError(403, 'Forbidden', `groups "${g}" is forbidden: User "${user.username}" cannot impersonate resource "groups" in API group "" at the cluster scope`, { name: g, kind: 'groups' });
    }
  }
  const saGroups = sa ? ['system:serviceaccounts', `system:serviceaccounts:${sa[1]}`] : [];
  const all = [...new Set([...groups, ...saGroups, 'system:authenticated'])];
  const [uid] = headerValues(headers, 'impersonate-uid');
  return { username: target, groups: all, ...(uid ? { uid } : {}) };
}
