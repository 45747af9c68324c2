/** crdValidator: a CRD file's schema and CEL rules checked on objects and updates without a server. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { crdValidator } from './index.js';
import { widget, widgetCrd, withSpec } from '../cluster/crd/testdata/widget-crd.js';

const folder = mkdtempSync(join(tmpdir(), 'kubeforge-crd-validator-unit-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

function crdFile(name: string, spec: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', ...widgetCrd(withSpec(spec), extra) };
  const path = join(folder, name);
  writeFileSync(path, `# a generated CRD\n---\n${stringify(crd)}`);
  return path;
}


const replicasSpec = {
  type: 'object',
  properties: {
    replicas: { type: 'integer', default: 1, 'x-kubernetes-validations': [{ rule: 'self <= 5', messageExpression: "'at most 5 replicas, not ' + string(self)" }] },
    image: { type: 'string', maxLength: 30, 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'image is immutable' }] },
  },
};

test('a create: defaults filled in before the rules run, the messageExpression in the error, the 422 text', () => {
  const validator = crdValidator(crdFile('replicas.yaml', replicasSpec));
  const ok = validator.validate(widget({ image: 'nginx' }));
  expect(ok).toMatchObject({ allowed: true, code: 201, errors: [] });
  expect(ok.object?.spec).toEqual({ image: 'nginx', replicas: 1 });
  expect(ok.object?.metadata.namespace).toBe('default');
  const bad = validator.validate(widget({ image: 'nginx', replicas: 7 }));
  expect(bad).toMatchObject({ allowed: false, code: 422, reason: 'Invalid' });
  expect(bad.errors).toEqual([
    { field: 'spec.replicas', type: 'FieldValueInvalid', message: 'Invalid value: "integer": at most 5 replicas, not 7', text: 'spec.replicas: Invalid value: "integer": at most 5 replicas, not 7' },
  ]);
  expect(bad.message).toBe('Widget.example.com "w" is invalid: spec.replicas: Invalid value: "integer": at most 5 replicas, not 7');
});

test('an update: transition rules see the old object; a create never runs them', () => {
  const validator = crdValidator(crdFile('replicas.yaml', replicasSpec));
  const old = widget({ image: 'nginx:1' });
  expect(validator.validate(widget({ image: 'nginx:2' })).allowed).toBe(true);
  expect(validator.validateUpdate(widget({ image: 'nginx:2' }), old).errors.map((e) => e.text)).toEqual(['spec.image: Invalid value: "string": image is immutable']);
  const same = validator.validateUpdate(widget({ image: 'nginx:1', replicas: 3 }), old);
  expect(same).toMatchObject({ allowed: true, code: 200 });
  expect(same.object?.metadata.generation).toBe(2);
});

test('unknown fields: refused as kubectl sends them (Strict), warned with Warn, and pruned', () => {
  const validator = crdValidator(crdFile('replicas.yaml', replicasSpec));
  const strict = validator.validate(widget({ image: 'x', colour: 'red' }));
  expect(strict).toMatchObject({ allowed: false, code: 400, reason: 'BadRequest', errors: [] });
  expect(strict.message).toContain('strict decoding error: unknown field "spec.colour"');
  const warned = validator.validate(widget({ image: 'x', colour: 'red' }), { fieldValidation: 'Warn' });
  expect(warned).toMatchObject({ allowed: true, warnings: ['unknown field "spec.colour"'] });
  expect(warned.object?.spec).toEqual({ image: 'x', replicas: 1 });
});

test('a CRD the API server would refuse throws its 422 text, naming the file', () => {
  const path = crdFile('bad-rule.yaml', { type: 'object', properties: { n: { type: 'integer', 'x-kubernetes-validations': [{ rule: 'self.nope > 1' }] } } });
  expect(() => crdValidator(path)).toThrow(
    `${path}: the API server would refuse this CRD: CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].properties[n].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.nope > 1"`,
  );
});

test('a file without one CRD, and an object of a version the CRD does not serve, are named clearly', () => {
  const empty = join(folder, 'empty.yaml');
  writeFileSync(empty, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n');
  expect(() => crdValidator(empty)).toThrow(`${empty}: expected one CustomResourceDefinition, found 0`);
  const validator = crdValidator(crdFile('replicas.yaml', replicasSpec));
  expect(() => validator.validate({ ...widget({}), apiVersion: 'example.com/v2' })).toThrow('the CRD serves no apiVersion example.com/v2 (it serves example.com/v1)');
});
