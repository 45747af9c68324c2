/**
 * The bytes of JSON responses as kube-apiserver 1.32 writes them: everything its runtime serializer
 * writes (objects, lists, Tables, Status errors, discovery) is json.Encoder output and ends with one
 * "\n"; /version is WriteRawJSON (two-space indented, no newline); the OpenAPI v3 documents are
 * kube-openapi's json.Marshal bytes (no newline).
 */
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const cms = '/api/v1/namespaces/default/configmaps';

beforeAll(async () => {
  await suite.call('POST', cms, { metadata: { name: 'framed' }, data: { a: 'b' } });
});

test.each([
  ['an object', 'GET', `${cms}/framed`, {}],
  ['a list', 'GET', cms, {}],
  ['a Table', 'GET', cms, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' }],
  ['a 404 Status', 'GET', `${cms}/missing`, {}],
  ['a 404 Status for an unknown path', 'GET', '/apis/nope.example.com/v1', {}],
  ['legacy discovery', 'GET', '/api/v1', {}],
  ['the legacy group list', 'GET', '/apis', {}],
  ['aggregated discovery', 'GET', '/apis', { Accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' }],
])('%s ends with one newline', async (_what, method, path, headers) => {
  const r = await suite.call(method, path, undefined, headers);
  expect(r.text.endsWith('}\n')).toBe(true);
  expect(r.text.endsWith('\n\n')).toBe(false);
  expect(() => JSON.parse(r.text)).not.toThrow();
});

test('a created object and a write error end with a newline', async () => {
  const created = await suite.call('POST', cms, { metadata: { name: 'framed-2' } });
  expect(created.code).toBe(201);
  expect(created.text.endsWith('}\n')).toBe(true);
  const invalid = await suite.call('POST', cms, { metadata: { name: 'Bad_Name' } });
  expect(invalid.code).toBe(422);
  expect(invalid.text.endsWith('}\n')).toBe(true);
});

test('a 401 without credentials ends with a newline', async () => {
  const r = await suite.call('GET', '/api/v1/namespaces', undefined, { Authorization: 'Bearer not-a-token' });
  expect(r.code).toBe(401);
  expect(r.text).toBe('{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n');
});

test('/version is two-space indented JSON without a trailing newline', async () => {
  const r = await suite.call('GET', '/version');
  expect(r.headers['content-type']).toBe('application/json');
  expect(r.text.startsWith('{\n  "major": "1",\n  "minor": "32",\n')).toBe(true);
  expect(r.text.endsWith('\n}')).toBe(true);
});

test('OpenAPI v3 documents are written without a trailing newline', async () => {
  const root = await suite.call('GET', '/openapi/v3');
  expect(root.text.endsWith('}')).toBe(true);
  const path = Object.keys(JSON.parse(root.text).paths).find((p) => p === 'api/v1')!;
  const doc = await suite.call('GET', `/openapi/v3/${path}`);
  expect(doc.text.endsWith('}')).toBe(true);
});
