/** Kubernetes' CEL URL library: `url()`, `isURL()` and the URL getters, with Go's `url.ParseRequestURI` rules. */
import type { Environment } from '@marcbachmann/cel-js';

/** A URL as Go's url.ParseRequestURI splits it. */
export class KubeURL {
  constructor(
    readonly scheme: string,
    readonly host: string,
    readonly path: string,
    readonly rawQuery: string,
    readonly opaque: string,
  ) {}

  toString(): string {
    if (this.opaque) return `${this.scheme}:${this.opaque}`;
    const head = this.scheme ? `${this.scheme}://${this.host}` : '';
    return `${head}${this.path}${this.rawQuery ? `?${this.rawQuery}` : ''}`;
  }

  equals(other: unknown): boolean {
    return other instanceof KubeURL && other.toString() === this.toString();
  }
}

/** Parses as url.ParseRequestURI does (an absolute URI or an absolute path); throws Go's message on failure. */
export function parseRequestUri(s: string): KubeURL {
  const fail = (why: string): never => {
    throw new Error(`parse ${JSON.stringify(s)}: ${why}`);
  };
  if (s === '') fail('empty url');
  // eslint-disable-next-line no-control-regex -- Go's net/url refuses control characters: this finds them
  if (/[\x00-\x1f\x7f]/.test(s)) fail('net/url: invalid control character in URL');
  const q = s.indexOf('?');
  let rest = q >= 0 ? s.slice(0, q) : s;
  const rawQuery = q >= 0 ? s.slice(q + 1) : '';
  let scheme = '';
  const m = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (m) {
    scheme = (m[1] as string).toLowerCase();
    rest = rest.slice(m[0].length);
  } else if (/^[a-zA-Z0-9+.-]*:/.test(rest) && !rest.startsWith('/')) fail('missing protocol scheme');
  if (!rest.startsWith('/')) {
    if (scheme) return new KubeURL(scheme, '', '', rawQuery, rest);
    fail('invalid URI for request');
  }
  let host = '';
  if (scheme && rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    const authority = slash >= 0 ? rest.slice(2, slash) : rest.slice(2);
    rest = slash >= 0 ? rest.slice(slash) : '';
    host = authority.includes('@') ? authority.slice(authority.lastIndexOf('@') + 1) : authority;
    if (/[\s<>"{}|\\^`]/.test(host)) fail(`invalid character ${JSON.stringify(host.match(/[\s<>"{}|\\^`]/)?.[0])} in host name`);
    const port = /:([^\]]*)$/.exec(host.startsWith('[') ? host.slice(host.indexOf(']')) : host);
    if (port && !/^\d*$/.test(port[1] as string)) fail(`invalid port ${JSON.stringify(`:${port[1]}`)} after host`);
  }
  try {
    decodeURIComponent(rest);
  } catch {
    fail(`invalid URL escape ${JSON.stringify(/%.{0,2}/.exec(rest)?.[0] ?? '%')}`);
  }
  return new KubeURL(scheme, host, rest, rawQuery, '');
}

function hostname(u: KubeURL): string {
  if (u.host.startsWith('[')) return u.host.slice(1, u.host.indexOf(']'));
  const colon = u.host.lastIndexOf(':');
  return colon >= 0 ? u.host.slice(0, colon) : u.host;
}

function port(u: KubeURL): string {
  const tail = u.host.startsWith('[') ? u.host.slice(u.host.indexOf(']') + 1) : u.host;
  const colon = tail.lastIndexOf(':');
  return colon >= 0 ? tail.slice(colon + 1) : '';
}

function query(u: KubeURL): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of u.rawQuery.split('&')) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const decode = (x: string): string => {
      try {
        return decodeURIComponent(x.replace(/\+/g, ' '));
      } catch {
        return x;
      }
    };
    const key = decode(eq >= 0 ? part.slice(0, eq) : part);
    (out[key] ??= []).push(decode(eq >= 0 ? part.slice(eq + 1) : ''));
  }
  return out;
}

/** Registers url, isURL and the getters on kubernetes.URL. */
export function registerUrlLibrary(env: Environment): void {
  env
    .registerType('kubernetes.URL', KubeURL)
    .registerFunction('url(string): kubernetes.URL', (s: string) => {
      try {
        return parseRequestUri(s);
      } catch (err) {
        throw new Error(`URL parse error during conversion from string: ${(err as Error).message}`, { cause: err });
      }
    })
    .registerFunction('isURL(string): bool', (s: string) => {
      try {
        parseRequestUri(s);
        return true;
      } catch {
        return false;
      }
    })
    .registerFunction('kubernetes.URL.getScheme(): string', (u: KubeURL) => u.scheme)
    .registerFunction('kubernetes.URL.getHost(): string', (u: KubeURL) => u.host)
    .registerFunction('kubernetes.URL.getHostname(): string', hostname)
    .registerFunction('kubernetes.URL.getPort(): string', port)
    .registerFunction('kubernetes.URL.getEscapedPath(): string', (u: KubeURL) => u.path)
    .registerFunction('kubernetes.URL.getQuery(): map<string, list<string>>', query)
    .registerFunction('string(kubernetes.URL): string', (u: KubeURL) => u.toString());
}
