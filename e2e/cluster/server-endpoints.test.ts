/**
 * The non-resource endpoints of kube-apiserver 1.32 beyond discovery: service-account issuer
 * discovery (`/.well-known/openid-configuration`, `/openid/v1/jwks`, readable by service accounts
 * through system:service-account-issuer-discovery) with tokens a relying party can verify against
 * the published key; `/metrics` in the Prometheus text format for system:monitoring; and
 * `/healthz`, `/livez`, `/readyz` with `?verbose`, `?exclude=` and one check per path.
 */
import { createPublicKey, verify } from 'node:crypto';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;

const decode = (part: string): any => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe('service-account issuer discovery', () => {
  let token: string;
  beforeAll(async () => {
    await kubectl.ok(['create', 'namespace', 'apps']);
    await kubectl.ok(['create', 'serviceaccount', 'builder', '-n', 'apps']);
    token = (await kubectl.ok(['create', 'token', 'builder', '-n', 'apps'])).trim();
  });
  const asToken = (path: string) => suite.call('GET', path, undefined, { Authorization: `Bearer ${token}` });

  test('the discovery document names the issuer, the key set and the signing algorithm', async () => {
    const r = await asToken('/.well-known/openid-configuration');
    expect(r.code).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['cache-control']).toBe('public, max-age=3600');
    expect(JSON.parse(r.text)).toEqual({
      issuer: 'https://kubernetes.default.svc.cluster.local',
      jwks_uri: `https://127.0.0.1:${new URL(suite.cluster.url).port}/openid/v1/jwks`,
      response_types_supported: ['id_token'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['ES256'],
    });
  });

  test('a TokenRequest token is a JWT with the 1.32 claims, signed by the published key', async () => {
    const r = await asToken('/openid/v1/jwks');
    expect(r.code).toBe(200);
    expect(r.headers['content-type']).toBe('application/jwk-set+json');
    const { keys } = JSON.parse(r.text);
    expect(keys).toHaveLength(1);
    expect(Object.keys(keys[0])).toEqual(['use', 'kty', 'kid', 'crv', 'alg', 'x', 'y']);
    const [header, payload, signature] = token.split('.');
    expect(decode(header!)).toEqual({ alg: 'ES256', kid: keys[0].kid });
    const claims = decode(payload!);
    expect(Object.keys(claims)).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
    const uid = (await suite.getJson(['get', 'serviceaccount', 'builder', '-n', 'apps'])).metadata.uid;
    expect(claims).toMatchObject({
      aud: ['https://kubernetes.default.svc.cluster.local'],
      iss: 'https://kubernetes.default.svc.cluster.local',
      sub: 'system:serviceaccount:apps:builder',
      'kubernetes.io': { namespace: 'apps', serviceaccount: { name: 'builder', uid } },
    });
    expect(claims.exp - claims.iat).toBe(3600);
    const key = createPublicKey({ key: keys[0], format: 'jwk' });
    expect(verify('sha256', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature!, 'base64url'))).toBe(true);
  });

  test('the token authenticates as its service account, with its credential id', async () => {
    const jti = decode(token.split('.')[1]!).jti;
    const uid = (await suite.getJson(['get', 'serviceaccount', 'builder', '-n', 'apps'])).metadata.uid;
    const user = {
      username: 'system:serviceaccount:apps:builder',
      uid,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:apps', 'system:authenticated'],
      extra: { 'authentication.kubernetes.io/credential-id': [`JTI=${jti}`] },
    };
    const self = await suite.call('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }, { Authorization: `Bearer ${token}` });
    expect(JSON.parse(self.text).status.userInfo).toEqual(user);
    const review = await suite.call('POST', '/apis/authentication.k8s.io/v1/tokenreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token } });
    expect(JSON.parse(review.text).status).toEqual({ authenticated: true, user, audiences: ['https://kubernetes.default.svc.cluster.local'] });
  });

  test('a user outside system:serviceaccounts may not read them', async () => {
    const r = await suite.kubectlAs('alice').run(['get', '--raw', '/openid/v1/jwks']);
    expect(r.stderr).toContain('Error from server (Forbidden)');
  });
});

describe('/metrics', () => {
  test('the admin scrapes Prometheus text with request counts and stored objects', async () => {
    await kubectl.ok(['create', 'configmap', 'counted']);
    await kubectl.ok(['get', 'configmaps', '-n', 'default']);
    const r = await suite.call('GET', '/metrics');
    expect(r.code).toBe(200);
    expect(r.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8; escaping=underscores');
    expect(r.text).toContain('# TYPE apiserver_request_total counter\n');
    expect(r.text).toMatch(/^apiserver_request_total\{code="200",component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="LIST",version="v1"\} [1-9]\d*$/m);
    expect(r.text).toMatch(/^apiserver_request_total\{code="201",component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="POST",version="v1"\} 1$/m);
    expect(r.text).toContain('apiserver_current_inflight_requests{request_kind="readOnly"} 1\n');
    const series = 'component="apiserver",dry_run="",group="",resource="configmaps",scope="namespace",subresource="",verb="LIST",version="v1"';
    const lists = Number(new RegExp(`^apiserver_request_duration_seconds_count\\{${series}\\} (\\d+)$`, 'm').exec(r.text)?.[1]);
    expect(lists).toBeGreaterThan(0);
    expect(r.text).toContain('# TYPE apiserver_request_duration_seconds histogram\n');
    expect(r.text).toContain(`apiserver_request_duration_seconds_bucket{${series},le="60"} ${lists}\n`);
    expect(r.text).toContain(`apiserver_request_duration_seconds_bucket{${series},le="+Inf"} ${lists}\n`);
    const configMaps = JSON.parse(await kubectl.ok(['get', 'configmaps', '-A', '-o', 'json'])).items.length;
    expect(r.text).toContain(`apiserver_storage_objects{resource="configmaps"} ${configMaps}\n`);
    expect(r.text).toMatch(/^apiserver_storage_objects\{resource="clusterroles\.rbac\.authorization\.k8s\.io"\} \d+$/m);
    expect(r.text).toContain('kubernetes_build_info{build_date="2025-04-22T16:02:27Z",compiler="gc",git_commit="59526cd4867447956156ae3a602fcbac10a2c335",git_tree_state="clean",git_version="v1.32.4",go_version="go1.23.6",major="1",minor="32",platform="linux/amd64"} 1\n');
  });

  test('only system:monitoring (or more) may scrape', async () => {
    expect((await suite.kubectlAs('bob').run(['get', '--raw', '/metrics'])).stderr).toContain('Error from server (Forbidden)');
    expect(await suite.kubectlAs('prometheus', ['system:monitoring']).ok(['get', '--raw', '/metrics'])).toContain('# TYPE apiserver_storage_objects gauge');
  });
});

describe('health endpoints', () => {
  const postStartHooks = [
    'start-apiserver-admission-initializer', 'generic-apiserver-start-informers', 'priority-and-fairness-config-consumer',
    'priority-and-fairness-filter', 'storage-object-count-tracker-hook', 'start-apiextensions-informers', 'start-apiextensions-controllers',
    'crd-informer-synced', 'start-system-namespaces-controller', 'start-cluster-authentication-info-controller',
    'start-kube-apiserver-identity-lease-controller', 'start-kube-apiserver-identity-lease-garbage-collector',
    'start-legacy-token-tracking-controller', 'start-service-ip-repair-controllers', 'rbac/bootstrap-roles',
    'scheduling/bootstrap-system-priority-classes', 'priority-and-fairness-config-producer', 'bootstrap-controller',
    'aggregator-reload-proxy-client-cert', 'start-kube-aggregator-informers', 'apiservice-status-local-available-controller',
    'apiservice-status-remote-available-controller', 'apiservice-registration-controller', 'apiservice-wait-for-first-sync',
    'apiservice-discovery-controller', 'kube-apiserver-autoregistration',
  ].map((h) => `[+]poststarthook/${h} ok`);
  const tail = ['[+]autoregister-completion ok', '[+]poststarthook/apiservice-openapi-controller ok', '[+]poststarthook/apiservice-openapiv3-controller ok'];

  test('/readyz?verbose lists the 1.32 checks in order and passes', async () => {
    const expected = ['[+]ping ok', '[+]log ok', '[+]etcd ok', '[+]etcd-readiness ok', '[+]informer-sync ok', ...postStartHooks, ...tail, '[+]shutdown ok', 'readyz check passed', ''].join('\n');
    expect(await kubectl.ok(['get', '--raw', '/readyz?verbose'])).toBe(expected);
  });

  test('/livez and /healthz have no readiness checks', async () => {
    const checks = ['[+]ping ok', '[+]log ok', '[+]etcd ok', ...postStartHooks, ...tail];
    expect(await kubectl.ok(['get', '--raw', '/livez?verbose'])).toBe([...checks, 'livez check passed', ''].join('\n'));
    expect(await kubectl.ok(['get', '--raw', '/healthz?verbose'])).toBe([...checks, 'healthz check passed', ''].join('\n'));
  });

  test('exclude marks a check excluded and warns about names that match none; plain answers are "ok"', async () => {
    const r = await suite.call('GET', '/readyz?verbose&exclude=etcd&exclude=nope');
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.text).toContain('\n[+]etcd excluded: ok\n');
    expect(r.text).toContain('\nwarn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n');
    expect((await suite.call('GET', '/readyz')).text).toBe('ok');
    expect((await suite.call('GET', '/livez?exclude=etcd')).text).toBe('ok');
  });

  test('one check per path; an unknown check is 404', async () => {
    expect(await kubectl.ok(['get', '--raw', '/readyz/ping'])).toBe('ok');
    expect(await kubectl.ok(['get', '--raw', '/livez/poststarthook/rbac/bootstrap-roles'])).toBe('ok');
    expect((await suite.call('GET', '/readyz/nope')).code).toBe(404);
    expect((await suite.call('GET', '/livez/shutdown')).code).toBe(404);
  });
});
