/**
 * Turns a request path and method into what it addresses: a non-resource path, or group, version,
 * namespace, resource, name, subresource and the RBAC verb (embedded-apiserver.md §2.4).
 */

export interface ResourceRequest {
  kind: 'resource';
  group: string;
  version: string;
  namespace?: string;
  resource: string;
  name?: string;
  subresource?: string;
  verb: string;
  /** `/watch/` prefix or `watch=true`. */
  watch: boolean;
}

export interface NonResourceRequest {
  kind: 'nonresource';
  path: string;
  verb: string;
}

export type RequestInfo = ResourceRequest | NonResourceRequest;

const truthy = new Set(['1', 't', 'T', 'true', 'TRUE', 'True']);

/** Go's strconv.ParseBool truthiness, as query booleans are read. */
export function queryBool(value: string | null): boolean {
  return value !== null && truthy.has(value);
}

export function parseRequestInfo(method: string, pathname: string, query: URLSearchParams): RequestInfo {
  const lowerMethod = method.toLowerCase();
  const parts = pathname.split('/').filter((p) => p !== '').map(decodeURIComponent);
  let rest: string[];
  let group: string;
  let version: string;
  if (parts[0] === 'api' && parts.length >= 3) {
    group = '';
    version = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 4) {
    group = parts[1]!;
    version = parts[2]!;
    rest = parts.slice(3);
  } else {
    return { kind: 'nonresource', path: pathname, verb: lowerMethod };
  }
  let watch = false;
  if (rest[0] === 'watch') {
    watch = true;
    rest = rest.slice(1);
  }
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 2) {
    // namespaces/<n>/status and namespaces/<n>/finalize address the Namespace itself
    if (rest.length > 2 && !['status', 'finalize'].includes(rest[2]!)) {
      namespace = rest[1];
      rest = rest.slice(2);
    }
  }
  const [resource, name, subresource, ...extra] = rest;
  if (!resource) return { kind: 'nonresource', path: pathname, verb: lowerMethod };
  // only the proxy subresource takes a path after it (pods/<name>/proxy/<path>)
  if (extra.length && subresource !== 'proxy') return { kind: 'nonresource', path: pathname, verb: lowerMethod };
  if (queryBool(query.get('watch'))) watch = true;
  const verb = verbOf(method, Boolean(name), watch);
  return { kind: 'resource', group, version, ...(namespace !== undefined ? { namespace } : {}), resource, ...(name ? { name } : {}), ...(subresource ? { subresource } : {}), verb, watch };
}

function verbOf(method: string, hasName: boolean, watch: boolean): string {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return watch ? 'watch' : hasName ? 'get' : 'list';
    case 'POST':
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return hasName ? 'delete' : 'deletecollection';
    default:
      return method.toLowerCase();
  }
}
