/**
 * Bodies built to hurt the decoder get the 400 a 1.32 server gives, never a 500: JSON nested deeper than
 * encoding/json's 10 000 levels, malformed YAML, and YAML alias bombs ("billion laughs").
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
