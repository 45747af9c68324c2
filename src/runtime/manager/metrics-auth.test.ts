/** The metrics authn/authz filter's requests and its verdict cache, against a scripted API server. */
import { ManualClock } from '../../testing/manual-clock.js';
import type { RequestOptions } from '../client/transport.js';
import { MetricsAuthFilter } from './metrics-auth.js';

function scriptedServer(allowed: (user: string) => boolean) {
  const requests: Array<{ path: string; body: any }> = [];
  const transport = {
    async request<T>(_method: string, path: string, options: RequestOptions = {}): Promise<T> {
      const body = options.body as any;
      requests.push({ path, body });
      if (path.endsWith('/tokenreviews')) {
        const token = body.spec.token as string;
        return (token.startsWith('good-') ? { status: { authenticated: true, user: { username: token.slice(5), uid: 'u1', groups: ['team'] } } } : { status: { authenticated: false, error: 'token expired' } }) as T;
      }
      return { status: { allowed: allowed(body.spec.user) } } as T;
    },
  };
  return { transport, requests };
}

test('asks TokenReview for the token, then SubjectAccessReview for the user, path and verb', async () => {
  const server = scriptedServer((user) => user === 'prometheus');
  const filter = new MetricsAuthFilter({ transport: server.transport, clock: new ManualClock(0) });
  expect(await filter.check('Bearer good-prometheus', '/metrics', 'GET')).toEqual({ code: 200, user: 'prometheus' });
  expect(server.requests).toEqual([
    { path: '/apis/authentication.k8s.io/v1/tokenreviews', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'good-prometheus' } } },
    {
      path: '/apis/authorization.k8s.io/v1/subjectaccessreviews',
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec: { user: 'prometheus', uid: 'u1', groups: ['team'], nonResourceAttributes: { path: '/metrics', verb: 'get' } } },
    },
  ]);
  expect(await filter.check('Bearer good-mallory', '/metrics', 'GET')).toMatchObject({ code: 403 });
  expect(await filter.check('Bearer bad', '/metrics', 'GET')).toEqual({ code: 401, message: 'Unauthorized: token expired' });
  expect(await filter.check(undefined, '/metrics', 'GET')).toEqual({ code: 401, message: 'Unauthorized: no bearer token' });
  expect(await filter.check('Basic dXNlcjpwdw==', '/metrics', 'GET')).toMatchObject({ code: 401 });
});

test('a verdict is reused for the cache TTL on the clock, then asked again', async () => {
  const clock = new ManualClock(0);
  let allow = false;
  const server = scriptedServer(() => allow);
  const filter = new MetricsAuthFilter({ transport: server.transport, clock, cacheTtlMs: 10_000 });
  expect((await filter.check('Bearer good-late', '/metrics', 'GET')).code).toBe(403);
  allow = true; // the binding is created
  await clock.advance(9_999);
  expect((await filter.check('Bearer good-late', '/metrics', 'GET')).code).toBe(403);
  expect(server.requests).toHaveLength(2);
  await clock.advance(1);
  expect((await filter.check('Bearer good-late', '/metrics', 'GET')).code).toBe(200);
  expect(server.requests).toHaveLength(4);
});
