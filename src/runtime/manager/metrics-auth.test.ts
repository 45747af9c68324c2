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

test('concurrent checks share one TokenReview per token and one SubjectAccessReview per user, path and verb', async () => {
  const server = scriptedServer((user) => user === 'prometheus');
  const filter = new MetricsAuthFilter({ transport: server.transport, clock: new ManualClock(0) });
  const verdicts = await Promise.all([
    ...Array.from({ length: 50 }, () => filter.check('Bearer bad', '/metrics', 'GET')),
    ...Array.from({ length: 50 }, () => filter.check('Bearer good-prometheus', '/metrics', 'GET')),
  ]);
  expect(new Set(verdicts.map((v) => v.code))).toEqual(new Set([401, 200]));
  expect(server.requests.map((r) => r.path.split('/').at(-1))).toEqual(['tokenreviews', 'tokenreviews', 'subjectaccessreviews']);
});

test("controller-runtime's times: a token's review is kept 1 min, an allowed access 5 min, a denied one 30 s", async () => {
  const clock = new ManualClock(0);
  let allow = false;
  const server = scriptedServer(() => allow);
  const filter = new MetricsAuthFilter({ transport: server.transport, clock });
  const reviews = (kind: string) => server.requests.filter((r) => r.path.endsWith(kind)).length;
  expect((await filter.check('Bearer good-late', '/metrics', 'GET')).code).toBe(403);
  expect((await filter.check('Bearer bad', '/metrics', 'GET')).code).toBe(401);
  allow = true;
  await clock.advance(29_999);
  expect((await filter.check('Bearer good-late', '/metrics', 'GET')).code).toBe(403);
  await clock.advance(1);
  expect((await filter.check('Bearer good-late', '/metrics', 'GET')).code).toBe(200);
  expect([reviews('tokenreviews'), reviews('subjectaccessreviews')]).toEqual([2, 2]);
  await clock.advance(30_000); // 1 min: both tokens are reviewed again, the allowed access is still kept
  await filter.check('Bearer good-late', '/metrics', 'GET');
  await filter.check('Bearer bad', '/metrics', 'GET');
  expect([reviews('tokenreviews'), reviews('subjectaccessreviews')]).toEqual([4, 2]);
  allow = false;
  await clock.advance(270_000);
  expect((await filter.check('Bearer good-late', '/metrics', 'GET')).code).toBe(403);
  expect(reviews('subjectaccessreviews')).toBe(3);
});

test('a review that fails is shared with the requests waiting on it but not kept', async () => {
  let calls = 0;
  let fail = true;
  const transport = {
    async request<T>(): Promise<T> {
      calls++;
      await Promise.resolve();
      if (fail) throw new Error('connection refused');
      return { status: { authenticated: false, error: 'nope' } } as T;
    },
  };
  const filter = new MetricsAuthFilter({ transport, clock: new ManualClock(0) });
  const outcomes = await Promise.allSettled([filter.check('Bearer t', '/metrics', 'GET'), filter.check('Bearer t', '/metrics', 'GET')]);
  expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
  expect(calls).toBe(1);
  fail = false;
  expect(await filter.check('Bearer t', '/metrics', 'GET')).toEqual({ code: 401, message: 'Unauthorized: nope' });
  expect(calls).toBe(2);
});
