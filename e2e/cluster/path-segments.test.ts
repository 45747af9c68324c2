/**
 * A request path is never normalised into another resource: `.` and `..` (plain or percent-encoded) as an
 * object name reach the registry as names, which 1.32 refuses (path.IsValidPathSegmentName) with a 400.
 */
import { request as httpsRequest } from 'node:https';
import { type RawReply, useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const ns = '/api/v1/namespaces/default';

const badName = (name: string, why: string) => ({
  kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `Name parameter invalid: "${name}": ${why}`, reason: 'BadRequest', code: 400,
});

/** A request whose path goes out byte for byte (a URL object would resolve its dot segments first). */
function rawCall(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<RawReply> {
  const options = { ...suite.adminRequestOptions('/', method, { 'Content-Type': contentType }), path };
  return new Promise((resolve, reject) => {
    const req = httpsRequest(options, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ code: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

beforeAll(async () => {
  await suite.call('POST', `${ns}/configmaps`, { metadata: { name: 'present' } });
});

test.each([
  ['..', '..', "may not be '..'"],
  ['.', '.', "may not be '.'"],
  ['%2E%2E', '..', "may not be '..'"],
  ['%2e%2e', '..', "may not be '..'"],
  ['.%2E', '..', "may not be '..'"],
  ['%2E', '.', "may not be '.'"],
])('GET configmaps/%s is a 400 about the name, not another resource', async (segment, name, why) => {
  const r = await rawCall('GET', `${ns}/configmaps/${segment}`);
  expect(r.code).toBe(400);
  expect(JSON.parse(r.text)).toEqual(badName(name, why));
});

test('DELETE, PUT and PATCH of configmaps/.. are refused the same way and touch nothing', async () => {
  for (const [method, body, type] of [['DELETE', undefined, 'application/json'], ['PUT', { metadata: { name: '..' } }, 'application/json'], ['PATCH', { data: { a: 'b' } }, 'application/merge-patch+json']] as const) {
    const r = await rawCall(method, `${ns}/configmaps/..`, body, type);
    expect([method, r.code, JSON.parse(r.text).message]).toEqual([method, 400, `Name parameter invalid: "..": may not be '..'`]);
  }
  expect((await suite.call('GET', `${ns}/configmaps/present`)).code).toBe(200);
  expect(JSON.parse((await suite.call('GET', '/api/v1/namespaces/default')).text).kind).toBe('Namespace');
});

test('a name with an encoded slash or percent is refused too', async () => {
  const r = await rawCall('GET', `${ns}/configmaps/a%25b`);
  expect(r.code).toBe(400);
  expect(JSON.parse(r.text).message).toBe(`Name parameter invalid: "a%b": may not contain '%'`);
});

test('kubectl refuses such names before sending anything', async () => {
  const r = await suite.kubectl.run(['get', 'configmap', '..']);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('invalid resource name ".."');
});

test('a path with a broken percent escape is a plain 400 (Go\'s server refuses the request line), not a 500', async () => {
  const r = await rawCall('GET', `${ns}/configmaps/%zz`);
  expect(r.code).toBe(400);
  expect(r.text).toBe('400 Bad Request');
});
