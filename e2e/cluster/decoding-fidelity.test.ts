/**
 * Decoding and CRD-validation details through the real kubectl 1.32: Go type names in decode errors,
 * duplicate JSON keys under Strict and Warn, RFC 3339 times (and MicroTime's six digits), and CRD
 * schema errors named under spec.validation with fieldPath checked against the schema.
 */
import { useClusterSuite } from './cluster-suite.js';

const suite = useClusterSuite();
const kubectl = suite.kubectl;

test('a wrong type in a named string field names the Go type', async () => {
  const job = {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name: 'typed' },
    spec: { template: { spec: { restartPolicy: 1, containers: [{ name: 'c', image: 'busybox', securityContext: { capabilities: { add: ['NET_ADMIN'] } } }] } } },
  };
  const r = await kubectl.run(['create', '-f', '-'], JSON.stringify(job));
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('Job in version "v1" cannot be handled as a Job: json: cannot unmarshal number into Go struct field PodSpec.spec.template.spec.restartPolicy of type v1.RestartPolicy');
});

test('duplicate JSON keys: a strict decoding error under Strict, a warning and the last value under Warn', async () => {
  const body = (name: string) => `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"${name}","labels":{"x":"1"}},"data":{"a":"1","b":"2","a":"3"},"nope":1}`;
  const strict = await kubectl.run(['create', '--raw', '/api/v1/namespaces/default/configmaps?fieldValidation=Strict', '-f', '-'], body('dup-strict'));
  expect(strict.code).toBe(1);
  expect(strict.stderr).toContain('ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "data.a", unknown field "nope"');
  const warn = await kubectl.run(['create', '--raw', '/api/v1/namespaces/default/configmaps?fieldValidation=Warn', '-f', '-'], body('dup-warn'));
  expect(warn.code).toBe(0);
  expect(warn.stderr).toContain('Warning: duplicate field "data.a"');
  expect(warn.stderr).toContain('Warning: unknown field "nope"');
  expect((await suite.getJson(['get', 'configmap', 'dup-warn'])).data).toEqual({ a: '3', b: '2' });
  const ignore = await kubectl.run(['create', '--raw', '/api/v1/namespaces/default/configmaps?fieldValidation=Ignore', '-f', '-'], body('dup-ignore'));
  expect(ignore.code).toBe(0);
  expect(ignore.stderr).not.toContain('duplicate field');
});

test('times that are not RFC 3339 are refused as Go parses them; MicroTime with six digits is kept', async () => {
  const lease = (name: string, renewTime: string) => ({ apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name }, spec: { holderIdentity: 'me', renewTime } });
  const bad = await kubectl.run(['create', '-f', '-'], JSON.stringify(lease('bad-time', 'tomorrow')));
  expect(bad.code).toBe(1);
  expect(bad.stderr).toContain('Lease in version "v1" cannot be handled as a Lease: parsing time "tomorrow" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "tomorrow" as "2006"');
  const millis = await kubectl.run(['create', '-f', '-'], JSON.stringify(lease('millis', '2026-11-22T10:00:00.123Z')));
  expect(millis.stderr).toContain('cannot parse ".123Z" as ".000000"');
  await kubectl.ok(['create', '-f', '-'], JSON.stringify(lease('micros', '2026-11-22T10:00:00.123456Z')));
  expect((await suite.getJson(['get', 'lease', 'micros'])).spec.renewTime).toBe('2026-11-22T10:00:00.123456Z');
});

test('CRD schema errors are named under spec.validation and a fieldPath must exist in the schema', async () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'paths.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'paths', kind: 'Path' },
      versions: ['v1', 'v2'].map((name) => ({
        name,
        served: true,
        storage: name === 'v1',
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: { spec: { type: 'object', properties: { replicas: { type: 'integer' } }, 'x-kubernetes-validations': [{ rule: 'self.replicas >= 0', fieldPath: '.replica' }] } },
          },
        },
      })),
    },
  };
  const r = await kubectl.run(['create', '-f', '-'], JSON.stringify(crd));
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].fieldPath: Invalid value: ".replica": fieldPath must be a valid path');
  expect(r.stderr).not.toContain('spec.versions[');
});

test('duplicate keys in a merge patch: warnings under Warn, the patch 422 under Strict', async () => {
  await kubectl.ok(['create', 'configmap', 'dup-patch', '--from-literal=a=0']);
  const patch = '{"data":{"a":"1","b":"2","a":"3"}}';
  const strict = await suite.call('PATCH', '/api/v1/namespaces/default/configmaps/dup-patch?fieldValidation=Strict', patch, { 'Content-Type': 'application/merge-patch+json' });
  expect(strict.code).toBe(422);
  expect(JSON.parse(strict.text).message).toMatch(/^ "" is invalid: patch: Invalid value: ".*": strict decoding error: duplicate field "data\.a"$/);
  const warn = await kubectl.run(['patch', 'configmap', 'dup-patch', '--type', 'merge', '-p', patch]);
  expect(warn.stderr).toContain('Warning: duplicate field "data.a"');
  expect((await suite.getJson(['get', 'configmap', 'dup-patch'])).data).toEqual({ a: '3', b: '2' });
});
