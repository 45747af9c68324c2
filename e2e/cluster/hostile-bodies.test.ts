/**
 * Bodies built to hurt the decoder get the 400 a 1.32 server gives, never a 500: JSON nested deeper than
 * encoding/json's 10 000 levels (the local cluster stops at 1 000, with the same message), malformed YAML,
 * and YAML alias bombs ("billion laughs").
 */
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const cms = '/api/v1/namespaces/default/configmaps';
const yaml = { 'Content-Type': 'application/yaml' };

const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

const badRequest = (message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason: 'BadRequest', code: 400 });

/** A YAML document whose aliases expand to 9^9 strings. */
const aliasBomb = [
  'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: lol', 'data:',
  '  a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'.split('').map((c, i) => `  ${c}: &${c} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
].join('\n');

test('10 000 levels of JSON nesting inside an object: 400 "exceeded max depth"', async () => {
  const body = `{"metadata":{"name":"deep"},"data":${nested(10_000)}}`;
  const r = await suite.call('POST', cms, body);
  expect(r.code).toBe(400);
  expect(JSON.parse(r.text)).toEqual(badRequest('the object provided is unrecognized (must be of type ConfigMap): couldn\'t get version/kind; json parse error: exceeded max depth ({"metadata":{"name":"deep"},"d ...)'));
});

test('deep nesting in a patch and an update is 400 too', async () => {
  await suite.call('POST', cms, { metadata: { name: 'target' } });
  const patch = await suite.call('PATCH', `${cms}/target`, `{"data":${nested(10_001)}}`, { 'Content-Type': 'application/merge-patch+json' });
  expect(patch.code).toBe(400);
  expect(JSON.parse(patch.text).message).toContain('exceeded max depth');
  const update = await suite.call('PUT', `${cms}/target`, `{"metadata":{"name":"target"},"data":${nested(20_000)}}`);
  expect(update.code).toBe(400);
  expect(JSON.parse(update.text).message).toContain('exceeded max depth');
});

test('malformed YAML: 400 naming the YAML error', async () => {
  const r = await suite.call('POST', cms, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n data: [unclosed\n', yaml);
  expect(r.code).toBe(400);
  const status = JSON.parse(r.text);
  expect(status.reason).toBe('BadRequest');
  expect(status.message).toMatch(/^the object provided is unrecognized \(must be of type ConfigMap\): error converting YAML to JSON: yaml: line \d+: .+ \(61706956657273696f6e3a2076310a6b696e643a20436f6e6669674d6170 \.\.\.\)$/);
});

test('a YAML alias bomb: 400 "excessive aliasing", as create body and as an apply patch', async () => {
  const create = await suite.call('POST', cms, aliasBomb, yaml);
  expect(create.code).toBe(400);
  expect(JSON.parse(create.text)).toEqual(
    badRequest('the object provided is unrecognized (must be of type ConfigMap): error converting YAML to JSON: yaml: document contains excessive aliasing (61706956657273696f6e3a2076310a6b696e643a20436f6e6669674d6170 ...)'),
  );
  const apply = await suite.call('PATCH', `${cms}/lol?fieldManager=bomber`, aliasBomb, { 'Content-Type': 'application/apply-patch+yaml' });
  expect(apply.code).toBe(400);
  expect(JSON.parse(apply.text)).toEqual(badRequest('error decoding YAML: error converting YAML to JSON: yaml: document contains excessive aliasing'));
  expect((await suite.call('GET', `${cms}/lol`)).code).toBe(404);
});

test('nesting at the local limit (1 000 levels) is decoded and judged on its content, one more is 400', async () => {
  const cm = await suite.call('POST', cms, `{"metadata":{"name":"deep-ok"},"data":{"a":${nested(998)}}}`);
  expect(cm.code).toBe(400);
  expect(JSON.parse(cm.text).message).toContain('cannot be handled as a ConfigMap');
  await suite.kubectl.ok(['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'trees.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'trees', singular: 'tree', kind: 'Tree' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
  }));
  await suite.kubectl.ok(['wait', '--for=condition=Established', 'crd/trees.example.com', '--timeout=10s']);
  const trees = '/apis/example.com/v1/namespaces/default/trees';
  const tree = await suite.call('POST', trees, `{"apiVersion":"example.com/v1","kind":"Tree","metadata":{"name":"deep"},"spec":${nested(999)}}`);
  expect(tree.code).toBe(201);
  const patched = await suite.call('PATCH', `${trees}/deep`, `{"spec":${nested(999)}}`, { 'Content-Type': 'application/merge-patch+json' });
  expect(patched.code).toBe(200);
  expect((await suite.call('GET', `${trees}/deep`)).code).toBe(200);
  expect((await suite.kubectl.ok(['get', 'tree', 'deep', '-o', 'name'])).trim()).toBe('tree.example.com/deep');
  const over = await suite.call('POST', trees, `{"apiVersion":"example.com/v1","kind":"Tree","metadata":{"name":"deeper"},"spec":${nested(1_000)}}`);
  expect(over.code).toBe(400);
  expect(JSON.parse(over.text).message).toBe('the object provided is unrecognized (must be of type Tree): couldn\'t get version/kind; json parse error: exceeded max depth ({"apiVersion":"example.com/v1" ...)');
});
