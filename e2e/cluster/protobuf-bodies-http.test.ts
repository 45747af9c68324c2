/**
 * Protobuf request bodies over raw HTTPS: real kubectl bytes are stored, malformed bodies answer 400 with
 * the API server's messages, and custom resources refuse protobuf with 415 as a real server does.
 */
import { readFileSync } from 'node:fs';
import { decodesKind } from '../../src/cluster/protobuf/kubernetes-messages.js';
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const protobuf = { 'Content-Type': 'application/vnd.kubernetes.protobuf' };
const recorded = JSON.parse(readFileSync(new URL('../../src/cluster/protobuf/testdata/kubectl-create-bodies.json', import.meta.url), 'utf8'));
const configMapBody = Buffer.from(recorded.fixtures.find((f: { name: string }) => f.name === 'configmap').body, 'base64');
const cms = '/api/v1/namespaces/default/configmaps';

const status = (code: number, reason: string, message: string) => ({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code });

test('the bytes kubectl sent for create configmap are stored as the ConfigMap', async () => {
  const reply = await suite.call('POST', cms, configMapBody, protobuf);
  expect(reply.code).toBe(201);
  expect(JSON.parse(reply.text)).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'default' }, data: { a: '1', b: 'two' } });
});

test('malformed protobuf bodies answer 400 BadRequest', async () => {
  // the envelope itself cut short: no kind was read, so the body is summarised
  const truncated = await suite.call('POST', cms, configMapBody.subarray(0, configMapBody.length - 3), protobuf);
  expect(truncated.code).toBe(400);
  const head = configMapBody.subarray(0, 30).toString('hex');
  expect(JSON.parse(truncated.text)).toEqual(status(400, 'BadRequest', `the object provided is unrecognized (must be of type ConfigMap): unexpected EOF (${head} ...)`));
  // a whole envelope around a ConfigMap whose metadata is cut short
  const typeMeta = Buffer.from([0x0a, 0x0f, 0x0a, 0x02, ...Buffer.from('v1'), 0x12, 0x09, ...Buffer.from('ConfigMap')]);
  const inner = await suite.call('POST', cms, Buffer.concat([Buffer.from('k8s\0', 'latin1'), typeMeta, Buffer.from([0x12, 0x03, 0x0a, 0x05, 0x0a])]), protobuf);
  expect(JSON.parse(inner.text)).toEqual(status(400, 'BadRequest', 'ConfigMap in version "v1" cannot be handled as a ConfigMap: unexpected EOF'));
  const json = await suite.call('POST', cms, '{"metadata":{"name":"x"}}', protobuf);
  expect(JSON.parse(json.text)).toEqual(
    status(400, 'BadRequest', 'the object provided is unrecognized (must be of type ConfigMap): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"metadata":{"name":"x"}})'),
  );
});

test('a protobuf Deployment with nothing but a name is validated like any other body (422, not 500)', async () => {
  const field = (n: number, payload: Buffer) => Buffer.concat([Buffer.from([(n << 3) | 2, payload.length]), payload]);
  const typeMeta = field(1, Buffer.concat([field(1, Buffer.from('apps/v1')), field(2, Buffer.from('Deployment'))]));
  const body = Buffer.concat([Buffer.from('k8s\0', 'latin1'), typeMeta, field(2, field(1, field(1, Buffer.from('bare'))))]);
  const reply = await suite.call('POST', '/apis/apps/v1/namespaces/default/deployments', body, protobuf);
  expect(reply.code).toBe(422);
  expect(JSON.parse(reply.text)).toMatchObject({ reason: 'Invalid', details: { name: 'bare', kind: 'Deployment' } });
  expect(JSON.parse(reply.text).message).toContain('spec.selector: Required value');
});

test('custom resources answer 415 to protobuf bodies and 406 to a protobuf-only Accept', async () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
    },
  };
  await suite.kubectl.ok(['apply', '-f', '-'], JSON.stringify(crd));
  await suite.kubectl.ok(['wait', '--for=condition=Established', 'crd/gadgets.example.com']);
  const reply = await suite.call('POST', '/apis/example.com/v1/namespaces/default/gadgets', configMapBody, protobuf);
  expect(reply.code).toBe(415);
  expect(JSON.parse(reply.text)).toEqual(
    status(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml'),
  );
  const accept = { Accept: 'application/vnd.kubernetes.protobuf' };
  const list = await suite.call('GET', '/apis/example.com/v1/namespaces/default/gadgets', undefined, accept);
  expect(JSON.parse(list.text)).toEqual(status(406, 'NotAcceptable', 'only the following media types are accepted: application/json, application/yaml'));
  // a built-in kind takes it (the cluster answers JSON, which kubectl also accepts)
  expect((await suite.call('GET', cms, undefined, accept)).code).toBe(200);
});

test('every built-in kind the cluster serves has a protobuf message, but CustomResourceDefinition and APIService', () => {
  const builtins = suite.cluster.internals.catalog.all().filter((rt) => !rt.custom);
  expect(builtins.length).toBeGreaterThanOrEqual(15);
  const without = builtins.filter((rt) => !decodesKind({ apiVersion: rt.group ? `${rt.group}/${rt.version}` : rt.version, kind: rt.kind }));
  expect(without.filter((rt) => rt.group !== 'apiextensions.k8s.io' && rt.group !== 'apiregistration.k8s.io').map((rt) => `${rt.group}/${rt.kind}`)).toEqual([]);
});
