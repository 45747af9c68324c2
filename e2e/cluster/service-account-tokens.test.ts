/**
 * Service-account tokens live and die as on a 1.32 server: a token is refused once its `exp` (plus
 * go-jose's 60 s leeway) has passed on the cluster's clock, and once the ServiceAccount, Pod or Secret it
 * is bound to is deleted or replaced by one with a new uid — a request with it gets 401 Unauthorized and
 * a TokenReview says why in the server's own words. Driven by real kubectl (`create token`, `--token`)
 * and @kubernetes/client-node (TokenReview).
 */
import * as k8s from '@kubernetes/client-node';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite({ settled: true });
const kubectl = suite.kubectl;
// Fixtures are written with --validate=false: field validation is not what this file tests, and kubectl then
// skips parsing the group-version's OpenAPI document before the write (15-20 ms CPU a run).
const apiAudience = 'https://kubernetes.default.svc.cluster.local';

let authn: k8s.AuthenticationV1Api;
beforeAll(async () => {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(suite.cluster.kubeconfigPath);
  authn = kc.makeApiClient(k8s.AuthenticationV1Api);
  await kubectl.ok(['create', 'namespace', 'tokens']);
});

const claimsOf = (token: string): any => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
const review = async (token: string, audiences?: string[]) =>
  (await authn.createTokenReview({ body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) } } })).status;
const whoami = (token: string) => kubectl.run(['--token', token, 'auth', 'whoami', '-o', 'jsonpath={.status.userInfo.username}']);
// state the tests check, read in-process (no kubectl start: kubectl's own output is checked where it is the point)
const uidOf = async (kind: string, name: string): Promise<string> => (await suite.getJson(['get', kind, name, '-n', 'tokens'])).metadata.uid;
const podManifest = (name: string, serviceAccountName: string) =>
  JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'tokens' }, spec: { serviceAccountName, containers: [{ name: 'c', image: 'busybox' }] } });
const unauthorized = 'error: You must be logged in to the server (Unauthorized)';

describe('expiry on the cluster clock', () => {
  test('a 10-minute token works until exp + 60 s of leeway, then is refused with the real reason', async () => {
    await kubectl.ok(['create', 'serviceaccount', 'shortlived', '-n', 'tokens']);
    const request = JSON.parse(await kubectl.ok(['create', 'token', 'shortlived', '-n', 'tokens', '--duration', '10m', '-o', 'json']));
    const token: string = request.status.token;
    const issuedAt = Math.floor(suite.cluster.clock.now() / 1000);
    expect(request.status.expirationTimestamp).toBe(new Date((issuedAt + 600) * 1000).toISOString().replace('.000Z', 'Z'));
    const claims = claimsOf(token);
    expect(claims.exp).toBe(issuedAt + 600);
    expect(claims.iat).toBe(issuedAt);
    expect(claims.nbf).toBe(issuedAt);
    expect((await whoami(token)).stdout).toBe('system:serviceaccount:tokens:shortlived');

    await suite.cluster.clock.advance(630_000); // 30 s past exp: inside the leeway
    expect((await whoami(token)).stdout).toBe('system:serviceaccount:tokens:shortlived');
    expect((await review(token))?.authenticated).toBe(true);

    await suite.cluster.clock.advance(31_000); // 61 s past exp
    const refused = await whoami(token);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(unauthorized);
    expect(await review(token)).toEqual({ user: {}, error: '[invalid bearer token, service account token has expired]' });
  });

  test('a raw request with an expired token gets the 401 Status', async () => {
    await kubectl.ok(['create', 'serviceaccount', 'raw', '-n', 'tokens']);
    const token = (await kubectl.ok(['create', 'token', 'raw', '-n', 'tokens', '--duration', '600s'])).trim();
    await suite.cluster.clock.advance(661_000);
    const r = await suite.call('GET', '/api/v1/namespaces/tokens/configmaps', undefined, { Authorization: `Bearer ${token}` });
    expect(r.code).toBe(401);
    expect(JSON.parse(r.text)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  });
});

describe('tokens bound to a ServiceAccount', () => {
  test('deleting the ServiceAccount ends its tokens; re-creating it with a new uid does not revive them', async () => {
    await kubectl.ok(['create', 'serviceaccount', 'robot', '-n', 'tokens']);
    const oldUid = await uidOf('serviceaccount', 'robot');
    const token = (await kubectl.ok(['create', 'token', 'robot', '-n', 'tokens'])).trim();
    expect((await whoami(token)).stdout).toBe('system:serviceaccount:tokens:robot');

    await kubectl.ok(['delete', 'serviceaccount', 'robot', '-n', 'tokens']);
    expect((await whoami(token)).stderr).toContain(unauthorized);
    expect(await review(token)).toEqual({ user: {}, error: '[invalid bearer token, serviceaccounts "robot" not found]' });

    await kubectl.ok(['create', 'serviceaccount', 'robot', '-n', 'tokens']);
    const newUid = await uidOf('serviceaccount', 'robot');
    expect(newUid).not.toBe(oldUid);
    expect((await whoami(token)).stderr).toContain(unauthorized);
    expect(await review(token)).toEqual({ user: {}, error: `[invalid bearer token, service account UID (${newUid}) does not match claim (${oldUid})]` });
    const fresh = (await kubectl.ok(['create', 'token', 'robot', '-n', 'tokens'])).trim();
    expect((await whoami(fresh)).stdout).toBe('system:serviceaccount:tokens:robot');
  });

  test('a token for another audience is refused by the API server but accepted by a TokenReview for that audience', async () => {
    await kubectl.ok(['create', 'serviceaccount', 'vault', '-n', 'tokens']);
    const token = (await kubectl.ok(['create', 'token', 'vault', '-n', 'tokens', '--audience', 'vault'])).trim();
    expect(claimsOf(token).aud).toEqual(['vault']);
    expect((await whoami(token)).stderr).toContain(unauthorized);
    expect(await review(token)).toEqual({ user: {}, error: `[invalid bearer token, token audiences ["vault"] is invalid for the target audiences ["${apiAudience}"]]` });
    const accepted = await review(token, ['vault']);
    expect(accepted?.authenticated).toBe(true);
    expect(accepted?.audiences).toEqual(['vault']);
    expect(accepted?.user?.username).toBe('system:serviceaccount:tokens:vault');
  });

  test('a token that is not one of the server\'s gets "invalid bearer token"', async () => {
    expect(await review('not-a-token')).toEqual({ user: {}, error: 'invalid bearer token' });
  });
});

describe('tokens bound to a Pod or a Secret', () => {
  test('a Pod-bound token carries the pod and its node, and ends when the pod is deleted or replaced', async () => {
    await kubectl.ok(['create', 'serviceaccount', 'worker', '-n', 'tokens']);
    await kubectl.ok(['create', '--validate=false', '-f', '-'], podManifest('p', 'worker'));
    await suite.cluster.settle();
    const podUid = await uidOf('pod', 'p');
    const nodeName = (await suite.getJson(['get', 'pod', 'p', '-n', 'tokens'])).spec.nodeName;
    const nodeUid = (await suite.getJson(['get', 'node', nodeName])).metadata.uid;
    const token = (await kubectl.ok(['create', 'token', 'worker', '-n', 'tokens', '--bound-object-kind', 'Pod', '--bound-object-name', 'p'])).trim();
    const claims = claimsOf(token);
    expect(Object.keys(claims['kubernetes.io'])).toEqual(['namespace', 'node', 'pod', 'serviceaccount']);
    expect(claims['kubernetes.io']).toMatchObject({ namespace: 'tokens', node: { name: nodeName, uid: nodeUid }, pod: { name: 'p', uid: podUid } });
    const ok = await review(token);
    expect(ok?.authenticated).toBe(true);
    expect(ok?.user?.extra).toEqual({
      'authentication.kubernetes.io/credential-id': [`JTI=${claims.jti}`],
      'authentication.kubernetes.io/node-name': [nodeName],
      'authentication.kubernetes.io/node-uid': [nodeUid],
      'authentication.kubernetes.io/pod-name': ['p'],
      'authentication.kubernetes.io/pod-uid': [podUid],
    });

    await kubectl.ok(['delete', 'pod', 'p', '-n', 'tokens', '--grace-period=0', '--force']);
    expect((await whoami(token)).stderr).toContain(unauthorized);
    expect(await review(token)).toEqual({ user: {}, error: '[invalid bearer token, service account token has been invalidated]' });

    await kubectl.ok(['create', '--validate=false', '-f', '-'], podManifest('p', 'worker'));
    const newUid = await uidOf('pod', 'p');
    expect(await review(token)).toEqual({ user: {}, error: `[invalid bearer token, pod UID (${newUid}) does not match service account pod ref claim (${podUid})]` });
  });

  test('a Secret-bound token ends when the secret is deleted or replaced', async () => {
    await kubectl.ok(['create', 'serviceaccount', 'keeper', '-n', 'tokens']);
    await kubectl.ok(['create', 'secret', 'generic', 's', '-n', 'tokens', '--from-literal=k=v']);
    const secretUid = await uidOf('secret', 's');
    const token = (await kubectl.ok(['create', 'token', 'keeper', '-n', 'tokens', '--bound-object-kind', 'Secret', '--bound-object-name', 's'])).trim();
    expect(claimsOf(token)['kubernetes.io'].secret).toEqual({ name: 's', uid: secretUid });
    expect((await whoami(token)).stdout).toBe('system:serviceaccount:tokens:keeper');

    await kubectl.ok(['delete', 'secret', 's', '-n', 'tokens']);
    expect((await whoami(token)).stderr).toContain(unauthorized);
    expect(await review(token)).toEqual({ user: {}, error: '[invalid bearer token, service account token has been invalidated]' });
    await kubectl.ok(['create', 'secret', 'generic', 's', '-n', 'tokens', '--from-literal=k=v']);
    const newUid = await uidOf('secret', 's');
    expect(await review(token)).toEqual({ user: {}, error: `[invalid bearer token, secret UID (${newUid}) does not match service account secret ref claim (${secretUid})]` });
  });

  test('a Node-bound token ends when the node is deleted or replaced', async () => {
    const node = JSON.stringify({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'spare-node' } });
    await kubectl.ok(['create', 'serviceaccount', 'agent', '-n', 'tokens']);
    await kubectl.ok(['create', '--validate=false', '-f', '-'], node);
    const nodeUid = (await suite.getJson(['get', 'node', 'spare-node'])).metadata.uid;
    const token = (await kubectl.ok(['create', 'token', 'agent', '-n', 'tokens', '--bound-object-kind', 'Node', '--bound-object-name', 'spare-node'])).trim();
    const claims = claimsOf(token);
    expect(claims['kubernetes.io'].node).toEqual({ name: 'spare-node', uid: nodeUid });
    expect((await review(token))?.user?.extra).toEqual({
      'authentication.kubernetes.io/credential-id': [`JTI=${claims.jti}`],
      'authentication.kubernetes.io/node-name': ['spare-node'],
      'authentication.kubernetes.io/node-uid': [nodeUid],
    });
    await kubectl.ok(['delete', 'node', 'spare-node']);
    expect((await whoami(token)).stderr).toContain(unauthorized);
    expect(await review(token)).toEqual({ user: {}, error: '[invalid bearer token, service account token has been invalidated]' });
    await kubectl.ok(['create', '--validate=false', '-f', '-'], node);
    const newUid = (await suite.getJson(['get', 'node', 'spare-node'])).metadata.uid;
    expect(await review(token)).toEqual({ user: {}, error: `[invalid bearer token, node UID (${newUid}) does not match service account node ref claim (${nodeUid})]` });
    await kubectl.ok(['delete', 'node', 'spare-node']);
  });

  test('binding to a pod of another service account, a missing object or another kind is refused as 1.32 does', async () => {
    await kubectl.ok(['create', 'serviceaccount', 'other', '-n', 'tokens']);
    await kubectl.ok(['create', '--validate=false', '-f', '-'], podManifest('q', 'worker'));
    const wrongAccount = await kubectl.run(['create', 'token', 'other', '-n', 'tokens', '--bound-object-kind', 'Pod', '--bound-object-name', 'q']);
    expect(wrongAccount.stderr).toContain('cannot bind token for serviceaccount "other" to pod running with different serviceaccount name.');
    const missing = await kubectl.run(['create', 'token', 'other', '-n', 'tokens', '--bound-object-kind', 'Secret', '--bound-object-name', 'nope']);
    expect(missing.stderr).toContain('secrets "nope" not found');
    const stale = await kubectl.run(['create', 'token', 'worker', '-n', 'tokens', '--bound-object-kind', 'Pod', '--bound-object-name', 'q', '--bound-object-uid', 'not-its-uid']);
    expect(stale.stderr).toContain(
      'Operation cannot be fulfilled on Pod "q": the UID in the bound object reference (not-its-uid) does not match the UID in record. The object might have been deleted and then recreated',
    );
    const configMapRef = await suite.call('POST', '/api/v1/namespaces/tokens/serviceaccounts/other/token', {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { boundObjectRef: { apiVersion: 'v1', kind: 'ConfigMap', name: 'x' } },
    });
    expect(configMapRef.code).toBe(400);
    expect(JSON.parse(configMapRef.text).message).toBe('cannot bind token to object of type /v1, Kind=ConfigMap');
  });
});

describe('TokenRequest expiration as 1.32 sets it', () => {
  const requestToken = (sa: string, spec: Record<string, unknown>) =>
    suite.call('POST', `/api/v1/namespaces/tokens/serviceaccounts/${sa}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec });

  test('defaults to 3600 s, refuses less than 10 minutes and more than 2^32 seconds with the real 422s', async () => {
    await kubectl.ok(['create', 'serviceaccount', 'limits', '-n', 'tokens']);
    const defaulted = JSON.parse((await requestToken('limits', {})).text);
    expect(defaulted.spec).toEqual({ audiences: [apiAudience], expirationSeconds: 3600, boundObjectRef: null });
    expect(defaulted.metadata.creationTimestamp).toBe(new Date(Math.floor(suite.cluster.clock.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z'));
    const short = await requestToken('limits', { expirationSeconds: 599 });
    expect(short.code).toBe(422);
    expect(JSON.parse(short.text).message).toBe('TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes');
    const long = await requestToken('limits', { expirationSeconds: 2 ** 32 + 1 });
    expect(long.code).toBe(422);
    expect(JSON.parse(long.text).message).toBe('TokenRequest.authentication.k8s.io "" is invalid: spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds');
    expect((await kubectl.run(['create', 'token', 'limits', '-n', 'tokens', '--duration', '5m'])).stderr).toContain('may not specify a duration less than 10 minutes');
    const year = claimsOf(JSON.parse((await requestToken('limits', { expirationSeconds: 365 * 24 * 3600 })).text).status.token);
    expect(year.exp - year.iat).toBe(365 * 24 * 3600); // kind sets no --service-account-max-token-expiration
  });

  test("a pod's projected token (3607 s, the API audience) is extended to a year, with warnafter at the requested expiry", async () => {
    await kubectl.ok(['create', 'serviceaccount', 'projected', '-n', 'tokens']);
    await kubectl.ok(['create', '--validate=false', '-f', '-'], podManifest('r', 'projected'));
    const podUid = await uidOf('pod', 'r');
    const reply = JSON.parse((await requestToken('projected', { expirationSeconds: 3607, boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: 'r', uid: podUid } })).text);
    const issuedAt = Math.floor(suite.cluster.clock.now() / 1000);
    expect(reply.status.expirationTimestamp).toBe(new Date((issuedAt + 3607) * 1000).toISOString().replace('.000Z', 'Z'));
    const claims = claimsOf(reply.status.token);
    expect(claims.exp - claims.iat).toBe(365 * 24 * 3600);
    expect(claims['kubernetes.io'].warnafter).toBe(issuedAt + 3607);
    await suite.cluster.clock.advance(2 * 3600_000);
    expect((await whoami(reply.status.token)).stdout).toBe('system:serviceaccount:tokens:projected');
  });
});

describe('legacy Secret-based tokens (kubernetes.io/service-account-token)', () => {
  const tokenSecret = (name: string, serviceAccount?: string) =>
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/service-account-token',
      metadata: { name, namespace: 'tokens', ...(serviceAccount ? { annotations: { 'kubernetes.io/service-account.name': serviceAccount } } : {}) },
    });
  const secretJson = async (name: string) => suite.getJson(['get', 'secret', name, '-n', 'tokens']);
  const exists = async (name: string) => (await kubectl.run(['get', 'secret', name, '-n', 'tokens', '-o', 'name'])).code === 0;

  test('the token controller fills the Secret; the token works until the Secret is deleted', async () => {
    await kubectl.ok(['create', 'serviceaccount', 'legacy', '-n', 'tokens']);
    const saUid = await uidOf('serviceaccount', 'legacy');
    await kubectl.ok(['create', '--validate=false', '-f', '-'], tokenSecret('legacy-token', 'legacy'));
    await suite.cluster.settle();
    const secret = await secretJson('legacy-token');
    expect(Object.keys(secret.data).sort()).toEqual(['ca.crt', 'namespace', 'token']);
    expect(Buffer.from(secret.data['ca.crt'], 'base64').toString()).toBe(suite.cluster.caCertPem);
    expect(Buffer.from(secret.data.namespace, 'base64').toString()).toBe('tokens');
    expect(secret.metadata.annotations).toEqual({ 'kubernetes.io/service-account.name': 'legacy', 'kubernetes.io/service-account.uid': saUid });
    const token = Buffer.from(secret.data.token, 'base64').toString();
    expect(claimsOf(token)).toEqual({
      iss: 'kubernetes/serviceaccount',
      'kubernetes.io/serviceaccount/namespace': 'tokens',
      'kubernetes.io/serviceaccount/secret.name': 'legacy-token',
      'kubernetes.io/serviceaccount/service-account.name': 'legacy',
      'kubernetes.io/serviceaccount/service-account.uid': saUid,
      sub: 'system:serviceaccount:tokens:legacy',
    });
    expect((await whoami(token)).stdout).toBe('system:serviceaccount:tokens:legacy');
    expect(await review(token)).toEqual({
      authenticated: true,
      user: { username: 'system:serviceaccount:tokens:legacy', uid: saUid, groups: ['system:serviceaccounts', 'system:serviceaccounts:tokens', 'system:authenticated'] },
      audiences: [apiAudience],
    });
    const day = new Date(suite.cluster.clock.now()).toISOString().slice(0, 10);
    expect((await secretJson('legacy-token')).metadata.labels).toEqual({ 'kubernetes.io/legacy-token-last-used': day });

    await kubectl.ok(['delete', 'secret', 'legacy-token', '-n', 'tokens']);
    expect((await whoami(token)).stderr).toContain(unauthorized);
    expect(await review(token)).toEqual({ user: {}, error: '[invalid bearer token, Token has been invalidated]' });
  });

  test("deleting the ServiceAccount deletes its token Secrets; a Secret for a missing one is deleted; one without the annotation is 422", async () => {
    await kubectl.ok(['create', 'serviceaccount', 'doomed', '-n', 'tokens']);
    await kubectl.ok(['create', '--validate=false', '-f', '-'], tokenSecret('doomed-token', 'doomed'));
    await suite.cluster.settle();
    const token = Buffer.from((await secretJson('doomed-token')).data.token, 'base64').toString();
    expect((await whoami(token)).stdout).toBe('system:serviceaccount:tokens:doomed');
    await kubectl.ok(['delete', 'serviceaccount', 'doomed', '-n', 'tokens']);
    await suite.cluster.settle();
    expect(await exists('doomed-token')).toBe(false);
    expect((await whoami(token)).stderr).toContain(unauthorized);

    await kubectl.ok(['create', '--validate=false', '-f', '-'], tokenSecret('orphan-token', 'nobody'));
    await suite.cluster.settle();
    expect(await exists('orphan-token')).toBe(false);

    const bare = await kubectl.run(['create', '-f', '-'], tokenSecret('bare-token'));
    expect(bare.stderr).toContain('The Secret "bare-token" is invalid: metadata.annotations[kubernetes.io/service-account.name]: Required value');
  });
});

describe('a server started with --service-account-max-token-expiration', () => {
  const capped = useClusterSuite({ settled: true, serviceAccountMaxTokenExpirationSeconds: 7200 });

  test('a longer TokenRequest is shortened to it, with the real warning', async () => {
    const r = await capped.kubectl.run(['create', 'token', 'default', '--duration', '10h', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('Warning: requested expiration of 36000 seconds shortened to 7200 seconds');
    const request = JSON.parse(r.stdout);
    expect(request.spec.expirationSeconds).toBe(7200);
    const claims = claimsOf(request.status.token);
    expect(claims.exp - claims.iat).toBe(7200);
  });
});
