/** The Status error catalogue (embedded-apiserver.md §2.7), one raw HTTPS request per row, full bodies compared. */
import { request } from 'node:https';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();

function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ code: number; body: any; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, suite.cluster.url);
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, ca: suite.cluster.caCertPem, headers: { Authorization: `Bearer ${suite.cluster.adminToken}`, 'Content-Type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ code: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
  });
}

const status = (code: number, reason: string, message: string, details?: Record<string, unknown>) => ({
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details ? { details } : {}), code,
});

const cms = '/api/v1/namespaces/default/configmaps';

test('404 for an unknown path and for a missing object', async () => {
  expect((await call('GET', '/apis/nope.example.com/v1/things')).body).toEqual(status(404, 'NotFound', 'the server could not find the requested resource', {}));
  expect((await call('GET', `${cms}/missing`)).body).toEqual(status(404, 'NotFound', 'configmaps "missing" not found', { name: 'missing', kind: 'configmaps' }));
  expect((await call('GET', '/apis/batch/v1/namespaces/default/jobs/missing')).body.details).toEqual({ name: 'missing', group: 'batch', kind: 'jobs' });
});

test('409 AlreadyExists and Conflict', async () => {
  await call('POST', cms, { metadata: { name: 'c1' } });
  expect((await call('POST', cms, { metadata: { name: 'c1' } })).body).toEqual(status(409, 'AlreadyExists', 'configmaps "c1" already exists', { name: 'c1', kind: 'configmaps' }));
  const r = await call('PUT', `${cms}/c1`, { metadata: { name: 'c1', resourceVersion: '1' } });
  expect(r.body).toEqual(status(409, 'Conflict', 'Operation cannot be fulfilled on configmaps "c1": the object has been modified; please apply your changes to the latest version and try again', { name: 'c1', kind: 'configmaps' }));
});

test('422 Invalid with details.kind = Kind and causes', async () => {
  const r = await call('POST', cms, { metadata: { name: 'Bad_Name' } });
  expect(r.code).toBe(422);
  expect(r.body.reason).toBe('Invalid');
  expect(r.body.details.kind).toBe('ConfigMap');
  expect(r.body.details.causes[0]).toEqual({
    reason: 'FieldValueInvalid',
    field: 'metadata.name',
    message: "Invalid value: \"Bad_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
  });
  const noName = await call('POST', cms, { metadata: {} });
  expect(noName.body.message).toBe('ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required');
});

test('400 BadRequest for name and namespace mismatches and strict decoding', async () => {
  expect((await call('PUT', `${cms}/c1`, { metadata: { name: 'other' } })).body).toEqual(status(400, 'BadRequest', 'the name of the object (other) does not match the name on the URL (c1)'));
  expect((await call('POST', cms, { metadata: { name: 'x', namespace: 'kube-system' } })).body).toEqual(
    status(400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request'),
  );
  expect((await call('POST', `${cms}?fieldValidation=Strict`, { metadata: { name: 'x' }, bogus: 1 })).body).toEqual(
    status(400, 'BadRequest', 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"'),
  );
  const patched = await call('PATCH', `${cms}/c1?fieldValidation=Strict`, { bogus: 1 }, { 'Content-Type': 'application/merge-patch+json' });
  expect(patched.code).toBe(422);
  expect(patched.body.details.causes[0].field).toBe('patch');
  expect(patched.body.message).toMatch(/^ "" is invalid: patch: Invalid value: /);
  expect(patched.body.details.causes[0].message).toContain('strict decoding error: unknown field "bogus"');
});

test('Warn (the default) drops unknown fields with a Warning header', async () => {
  const r = await call('POST', cms, { metadata: { name: 'warned' }, bogus: 1 });
  expect(r.code).toBe(201);
  expect(r.headers.warning).toBe('299 - "unknown field \\"bogus\\""');
});

test('405, 415, 406 and 401', async () => {
  expect((await call('POST', `${cms}/c1`, { metadata: { name: 'c1' } })).code).toBe(405);
  expect((await call('DELETE', '/api/v1/namespaces')).body).toEqual(status(405, 'MethodNotAllowed', 'deletecollection is not supported on resources of kind "namespaces"', { kind: 'namespaces' }));
  expect((await call('PATCH', `${cms}/c1`, '{}', { 'Content-Type': 'text/plain' })).body).toEqual(
    status(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml'),
  );
  expect((await call('GET', cms, undefined, { Accept: 'application/xml' })).code).toBe(406);
  expect((await call('GET', cms, undefined, { Authorization: 'Bearer nope' })).body).toEqual(status(401, 'Unauthorized', 'Unauthorized'));
});

test('410 Expired for a continue token whose snapshot was compacted', async () => {
  for (const n of ['p1', 'p2', 'p3']) await call('POST', cms, { metadata: { name: n } });
  const page = await call('GET', `${cms}?limit=1`);
  expect(page.body.metadata.continue).toBeTruthy();
  expect(page.body.metadata.remainingItemCount).toBeGreaterThan(0);
  await call('POST', cms, { metadata: { name: 'p4' } });
  suite.cluster.compactHistory();
  const r = await call('GET', `${cms}?limit=1&continue=${page.body.metadata.continue}`);
  expect(r.code).toBe(410);
  expect(r.body.reason).toBe('Expired');
  expect(r.body.message).toMatch(/^The provided continue parameter is too old to display a consistent list result\./);
  // the Status offers a fresh token: the remainder after p1 as the store is now (p4 included)
  expect(r.body.metadata.continue).toEqual(expect.any(String));
  expect(r.body.metadata.continue).not.toBe(page.body.metadata.continue);
  const firstName = page.body.items[0].metadata.name;
  const rest: string[] = [];
  for (let token: string | undefined = r.body.metadata.continue; token; ) {
    const next = await call('GET', `${cms}?limit=2&continue=${token}`);
    expect(next.code).toBe(200);
    rest.push(...next.body.items.map((i: any) => i.metadata.name));
    token = next.body.metadata.continue;
  }
  const now = (await call('GET', cms)).body.items.map((i: any) => i.metadata.name);
  expect(rest).toEqual(now.filter((n: string) => n > firstName));
  expect(rest).toContain('p4');
});

test('delete answers the object for namespaces and a Success Status for configmaps', async () => {
  const gone = await call('DELETE', `${cms}/c1`);
  expect(gone.body).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details: { name: 'c1', kind: 'configmaps', uid: expect.any(String) } });
  const forbidden = await call('DELETE', '/api/v1/namespaces/default');
  expect(forbidden.body).toEqual(status(403, 'Forbidden', 'namespaces "default" is forbidden: this namespace may not be deleted', { name: 'default', kind: 'namespaces' }));
});
